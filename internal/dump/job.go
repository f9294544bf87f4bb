package dump

import (
	"errors"
	"strings"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/internal/consumer"
	"pgoutput-inspector/internal/dumpjob"
)

// RunJob writes what the page's export worker was asked for (dumpjob.Job): decode's output for
// the page's input, by Decode, as pgoutput-inspect decode writes it for the same text given as
// a file with the page's settings as flags. It returns the output, or why there is none: over
// says it would be longer than j.Max bytes; why is any other reason.
func RunJob(j dumpjob.Job) (out []byte, over bool, why string) {
	kind := KindText
	switch j.Kind {
	case dumpjob.Markdown:
		kind = KindMarkdown
	case dumpjob.JSON:
		kind = KindJSON
	case dumpjob.GoTest:
		kind = KindGoTest
	case dumpjob.Text:
	case dumpjob.Consumer:
		set := consumer.Settings{SenderTimeout: int64(j.SenderTimeout) * 1e6, StatusInterval: int64(j.StatusInterval) * 1e6}
		rep, err := Consumers(strings.NewReader(j.Text), j.Format, decoder.Options{Proto: j.Proto, InStream: j.InStream}, set, nil)
		if err != nil {
			return nil, false, err.Error()
		}
		out := consumer.HTML(rep)
		if len(out) > j.Max {
			return nil, true, ""
		}
		return out, false, ""
	default:
		return nil, false, "unknown export"
	}
	c := &Capped{Max: j.Max}
	r := Decode(c, strings.NewReader(j.Text), Options{Format: j.Format, Proto: j.Proto, InStream: j.InStream,
		Kind: kind, Name: j.Name, GoTest: j.Message}, nil)
	switch {
	case r.Unread != nil:
		return nil, false, r.Unread.Error()
	case errors.Is(r.WriteErr, ErrTooLong):
		return nil, true, ""
	case r.WriteErr != nil:
		return nil, false, r.WriteErr.Error()
	case r.NoTest != "":
		return nil, false, r.NoTest
	}
	return c.B, false, ""
}
