package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"pgoutput-inspector/decoder"
)

// parseArgs parses flags anywhere among the arguments ("decode file.hex --json" works as well
// as "decode --json file.hex") and returns the positional ones. "--" ends the flags; "-" is a
// positional argument (standard input).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// choiceFlag is a yes/no flag that also has a third state, auto, its default: "--in-stream"
// means yes, "--in-stream=false" no, "--in-stream=auto" lets the decoder decide.
type choiceFlag struct{ c *decoder.Choice }

// IsBoolFlag lets the flag be given without a value.
func (f choiceFlag) IsBoolFlag() bool { return true }

func (f choiceFlag) String() string {
	if f.c == nil {
		return "auto"
	}
	switch *f.c {
	case decoder.Yes:
		return "true"
	case decoder.No:
		return "false"
	}
	return "auto"
}

func (f choiceFlag) Set(s string) error {
	switch strings.ToLower(s) {
	case "true", "yes", "on", "1":
		*f.c = decoder.Yes
	case "false", "no", "off", "0":
		*f.c = decoder.No
	case "auto":
		*f.c = decoder.Auto
	default:
		return errors.New("want true, false or auto")
	}
	return nil
}

// listFlag collects a repeatable flag; each value may also be a comma-separated list.
type listFlag struct {
	list  *[]string
	split bool
}

func (f listFlag) String() string {
	if f.list == nil {
		return ""
	}
	return strings.Join(*f.list, ",")
}

func (f listFlag) Set(s string) error {
	if !f.split {
		*f.list = append(*f.list, s)
		return nil
	}
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*f.list = append(*f.list, v)
		}
	}
	return nil
}

// oneOfFlag accepts one of a fixed set of words.
type oneOfFlag struct {
	v     *string
	words []string
}

func (f oneOfFlag) String() string {
	if f.v == nil {
		return ""
	}
	return *f.v
}

func (f oneOfFlag) Set(s string) error {
	for _, w := range f.words {
		if s == w {
			*f.v = s
			return nil
		}
	}
	return fmt.Errorf("want one of %s", strings.Join(f.words, ", "))
}

// flagSet returns a FlagSet that reports errors to e.stderr and leaves exiting to the caller.
// When args ask for help, the usage goes to stdout instead.
func flagSet(e *env, name, usage string, args []string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	if wantsHelp(args) {
		fs.SetOutput(e.stdout)
	}
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fmt.Fprintln(fs.Output(), "\nOptions:")
		fs.PrintDefaults()
	}
	return fs
}

// wantsHelp reports whether args ask for help before anything else could go wrong, so that
// the usage goes to stdout (where "| less" finds it) rather than to stderr with the errors.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// usageExit turns a flag parsing error into an exit code: -h succeeds (its usage went to
// stdout, see flagSet); any other error was already reported on stderr with the usage.
func usageExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// lensFlags adds --release and --protocol, the page's version lens, to fs. Their help texts
// are releaseHelp and protoHelp with "%s" standing for "PostgreSQL N (10 to 18)" and
// "proto_version N (1 to 4)". checkLens validates the two together once parsed.
func lensFlags(fs *flag.FlagSet, releaseHelp, protoHelp string) (release, proto *int) {
	release = fs.Int("release", 0, fmt.Sprintf(releaseHelp, "PostgreSQL `N` ("+
		strconv.Itoa(decoder.FirstRelease)+" to "+strconv.Itoa(decoder.LastRelease)+")"))
	proto = fs.Int("protocol", 0, fmt.Sprintf(protoHelp, "proto_version `N` ("+
		strconv.Itoa(decoder.MinProto)+" to "+strconv.Itoa(decoder.MaxProto)+")"))
	return release, proto
}

// checkLens reports on stderr, as a usage error of command cmd, a lens the guide does not
// know: a release outside FirstRelease to LastRelease, a protocol version outside MinProto to
// MaxProto, or one the release does not accept. 0 for either is any.
func checkLens(e *env, cmd string, release, proto int) bool {
	switch {
	case release != 0 && (release < decoder.FirstRelease || release > decoder.LastRelease):
		fmt.Fprintf(e.stderr, "pgoutput-inspect %s: --release %d: the guide knows PostgreSQL %d to %d\n", cmd, release, decoder.FirstRelease, decoder.LastRelease)
		return false
	case proto != 0 && (proto < decoder.MinProto || proto > decoder.MaxProto):
		fmt.Fprintf(e.stderr, "pgoutput-inspect %s: --protocol %d: the protocol versions are %d to %d\n", cmd, proto, decoder.MinProto, decoder.MaxProto)
		return false
	case release != 0 && proto > decoder.MaxProtoAt(release):
		fmt.Fprintf(e.stderr, "pgoutput-inspect %s: --protocol %d: PostgreSQL %d accepts protocol versions 1 to %d (%d arrives in PostgreSQL %d)\n",
			cmd, proto, release, decoder.MaxProtoAt(release), proto, decoder.ProtoRelease(proto))
		return false
	}
	return true
}
