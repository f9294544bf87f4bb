// Command wirecaptures records the conversation captures in testdata/conversation (and with
// -consumer the consumer check's, in testdata/consumer): real
// replication connections to real servers, recorded with dumpcap on the loopback interface
// (internal/wirecapture), each from its TCP handshake to its close. Run as root:
//
//	go run ./scripts/wirecaptures            # every capture
//	go run ./scripts/wirecaptures -only subscriber
//
// It writes NAME.pcapng and a line per capture in MADE_BY saying how it was made.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"pgoutput-inspector/internal/wirecapture"
)

func main() {
	out := flag.String("out", "testdata/conversation", "directory to write the captures into")
	only := flag.String("only", "", "record only the captures whose name contains this")
	consumers := flag.Bool("consumer", false, "record the consumer check's scenarios (into testdata/consumer unless -out says otherwise)")
	flag.Parse()
	scenarios := wirecapture.Scenarios
	if *consumers {
		scenarios = wirecapture.ConsumerScenarios
		if !isSet("out") {
			*out = "testdata/consumer"
		}
	}
	if err := wirecapture.Check(); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	made := readMadeBy(filepath.Join(*out, "MADE_BY"))
	for _, sc := range scenarios {
		if !strings.Contains(sc.Name, *only) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		path, err := wirecapture.RecordScenario(ctx, sc, *out)
		cancel()
		if err != nil {
			log.Fatalf("%s: %v", sc.Name, err)
		}
		made[filepath.Base(path)] = sc.Made
		log.Print(path)
	}
	writeMadeBy(filepath.Join(*out, "MADE_BY"), made)
}

// isSet reports whether the command line set the flag.
func isSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// madeBySuffix ends each line of MADE_BY.
const madeBySuffix = " (go run ./scripts/wirecaptures: dumpcap -i lo -f 'tcp port PORT')"

func readMadeBy(path string) map[string]string {
	made := map[string]string{}
	b, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(b), "\n") {
		if name, what, ok := strings.Cut(line, ": "); ok {
			made[name] = strings.TrimSuffix(what, madeBySuffix)
		}
	}
	return made
}

func writeMadeBy(path string, made map[string]string) {
	var names []string
	for n := range made {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s: %s%s\n", n, made[n], madeBySuffix)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}
