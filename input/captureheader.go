package input

import (
	"strings"

	"pgoutput-inspector/decoder"
)

// CaptureOptions is what a capture file's "# options:" header line says the pgoutput plugin
// was asked for (the options of START_REPLICATION, as `pgoutput-inspect capture` records them:
// "# options: proto_version=4 publication_names="pub" streaming=parallel two_phase=true").
// It is read here once, for every program that decodes a capture file.
type CaptureOptions struct {
	// Given says the header has an options line; without one, nothing below is known.
	Given bool
	// Proto is proto_version (1 to 4), or 0 when it is not given or not a version.
	Proto int
	// Streaming is the streaming option as given ("on", "off", "parallel", "true"…), or ""
	// when it was not sent (then the server streams nothing).
	Streaming string
	// TwoPhase, Binary and Messages are the boolean options two_phase, binary and messages.
	TwoPhase, Binary, Messages bool
	// Origin is the origin option ("none", "any"), or "".
	Origin string
	// Options lists every name=value of the line in order, values as written.
	Options []CaptureOption
}

// CaptureOption is one name=value of a capture file's options line.
type CaptureOption struct {
	Name, Value string
}

// ReadCaptureOptions reads the "options:" line of a capture file's header (Result.Header, the
// "#" lines without the "#"). Later options lines replace earlier ones.
func ReadCaptureOptions(header []string) CaptureOptions {
	var o CaptureOptions
	for _, h := range header {
		rest, ok := strings.CutPrefix(h, "options:")
		if !ok {
			continue
		}
		o = CaptureOptions{Given: true}
		for _, kv := range strings.Fields(rest) {
			name, value, _ := strings.Cut(kv, "=")
			o.Options = append(o.Options, CaptureOption{Name: name, Value: value})
			value = strings.Trim(value, `'"`)
			switch name {
			case "proto_version":
				if n, ok := Atoi(value); ok && n >= decoder.MinProto && n <= decoder.MaxProto {
					o.Proto = n
				}
			case "streaming":
				o.Streaming = value
			case "two_phase":
				o.TwoPhase = pgBool(value)
			case "binary":
				o.Binary = pgBool(value)
			case "messages":
				o.Messages = pgBool(value)
			case "origin":
				o.Origin = value
			}
		}
	}
	return o
}

// pgBool reads a boolean option value as PostgreSQL's parse_bool does, for the true side.
func pgBool(v string) bool {
	switch strings.ToLower(v) {
	case "t", "tr", "tru", "true", "y", "ye", "yes", "on", "1":
		return true
	}
	return false
}

// DecoderOptions returns opts with what the header says filled into what opts leaves open: the
// protocol version, and whether Stream Abort messages carry the abort LSN and timestamp, which
// pgoutput writes only with streaming=parallel (so an options line without it says they do
// not). What opts already fixes, a choice made by the user, wins.
func (o *CaptureOptions) DecoderOptions(opts decoder.Options) decoder.Options {
	if !o.Given {
		return opts
	}
	if opts.Proto == 0 {
		opts.Proto = o.Proto
	}
	if opts.ParallelAbort == decoder.Auto {
		opts.ParallelAbort = decoder.No
		if strings.EqualFold(o.Streaming, "parallel") && (opts.Proto == 0 || opts.Proto >= int(decoder.FieldStreamAbortLSN.Info().Proto)) {
			opts.ParallelAbort = decoder.Yes
		}
	}
	return opts
}
