package main

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestPackageOf(t *testing.T) {
	for sym, want := range map[string]string{
		"runtime.mallocgc":                                                               "runtime",
		"pgoutput-inspector/web/ui.(*Page).Render":                                       "pgoutput-inspector/web/ui",
		"github.com/hexops/vecty.Tag":                                                    "github.com/hexops/vecty",
		"github.com/hexops/vecty.(*HTML).Node.func1":                                     "github.com/hexops/vecty",
		"type:.eq.pgoutput-inspector/decoder.Node":                                       "pgoutput-inspector/decoder",
		"type:*pgoutput-inspector/input.state":                                           "pgoutput-inspector/input",
		"type:[]pgoutput-inspector/decoder.Node":                                         "pgoutput-inspector/decoder",
		"internal/sync.(*HashTrieMap[go.shape.interface {},go.shape.interface {}]).Load": "internal/sync",
		"sync/atomic.(*Pointer[go.shape.struct {}]).Load":                                "sync/atomic",
		"slices.Sort[[]int,int]":                                                         "slices",
		"_rt0_wasm_js":                                                                   glue,
		"wasm_export_run":                                                                glue,
		"gclocals·a1RF5UY3SJZla6aKXEMMYA==":                                              glue,
	} {
		if got := packageOf(sym); got != want {
			t.Errorf("packageOf(%q) = %q, want %q", sym, got, want)
		}
	}
}

// page builds the page's main.wasm as the report does and returns the report and the linker's
// -dumpdep output, once per test binary.
var page struct {
	r    *Report
	deps []byte
	err  error
	done bool
}

func buildPage(t *testing.T) (*Report, []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds main.wasm")
	}
	if runtime.GOOS == "js" {
		t.Skip("needs the go command")
	}
	if !page.done {
		page.done = true
		tmp := t.TempDir()
		wasm := filepath.Join(tmp, "main.wasm")
		build := exec.Command("go", "build", "-trimpath", "-ldflags=-w -dumpdep", "-o", wasm, "../../wasm")
		build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		var deps bytes.Buffer
		build.Stderr = &deps
		if page.err = build.Run(); page.err != nil {
			page.err = &buildError{page.err, deps.String()}
			return nil, nil
		}
		page.deps = deps.Bytes()
		page.r, page.err = analyze(wasm)
	}
	if page.err != nil {
		t.Fatal(page.err)
	}
	return page.r, page.deps
}

type buildError struct {
	err    error
	output string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(tail([]byte(e.output))) }

// TestReportAddsUp checks the report against the binary: the functions' code is the code
// section, the data section's parts are the data section, and the page's packages are there.
func TestReportAddsUp(t *testing.T) {
	r, _ := buildPage(t)
	code := 0
	for _, f := range r.Functions {
		code += f.Bytes
	}
	// The section's id, size and function count come on top of the bodies.
	if code > r.Code || r.Code-code > 16 {
		t.Errorf("functions' code adds up to %d bytes; the code section is %d", code, r.Code)
	}
	data := 0
	for _, p := range r.DataParts {
		if p.Bytes < 0 {
			t.Errorf("data part %q has %d bytes", p.Name, p.Bytes)
		}
		data += p.Bytes
	}
	if data > r.Data || r.Data-data > 16 {
		t.Errorf("data parts add up to %d bytes; the data section is %d", data, r.Data)
	}
	if r.File != r.Stripped+r.Names || r.Stripped != r.Code+r.Data+r.Other+8 {
		t.Errorf("sizes do not add up: file %d, names %d, code %d, data %d, other %d", r.File, r.Names, r.Code, r.Data, r.Other)
	}
	seen := map[string]Package{}
	for _, p := range r.Packages {
		seen[p.Path] = p
	}
	for _, path := range []string{"runtime", "pgoutput-inspector/decoder", "pgoutput-inspector/input", "pgoutput-inspector/web/ui", "github.com/hexops/vecty"} {
		if p := seen[path]; p.Code == 0 || p.Tables == 0 || p.Funcs == 0 {
			t.Errorf("package %s: %+v, want code, function tables and functions", path, p)
		}
	}
	if p := seen["pgoutput-inspector/decoder"]; p.Tables > p.Code {
		t.Errorf("decoder: function tables %d > code %d: the tables are not attributed by function", p.Tables, p.Code)
	}
}

// costly lists symbols that must not be in main.wasm, each with what brings it in, what it
// cost when it came, and what the page uses instead (docs/performance.md, "WASM size"). A
// symbol matches when its name starts with the prefix.
var costly = []struct{ prefix, why string }{
	{"fmt.", "fmt brings os, io/fs, time and reflection-based printing: +0.28 to 0.44 MB (encoding/hex brought it once); append to a []byte with strconv.AppendInt"},
	{"os.", "os comes with fmt or the file system; the page has neither"},
	{"internal/strconv.atof", "strconv.ParseFloat's parser: +23 KB; pgvalue checks float rounding in integers (insideRoundingInterval)"},
	{"compress/", "a compressor: +0.16 MB; the page uses the browser's CompressionStream"},
	{"encoding/json.", "encoding/json: reflection-based; the page writes and reads its few JSON texts by hand"},
	{"encoding/hex.", "encoding/hex brings fmt: +0.44 MB; web/codec.go has the hex codec"},
	{"regexp", "regexp and its syntax tables"},
	{"math/big.", "math/big"},
	{"time.Time.", "time's calendar and formatting: +0.19 MB; pgvalue's civil routine and AppendRFC3339 format dates and timestamps"},
	{"github.com/jackc/", "pglogrepl and pgx: +3.3 MB and +7 MB"},
	{"github.com/google/gopacket", "gopacket: +2.68 MB; input/packet.go reads captures"},
}

// TestNothingCostlyInThePage fails when main.wasm links a symbol of the costly list, and says
// which code brought it in (the linker's -dumpdep: the first reference that made each symbol
// reachable).
func TestNothingCostlyInThePage(t *testing.T) {
	_, deps := buildPage(t)
	from := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(deps))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		a, b, ok := strings.Cut(sc.Text(), " -> ")
		if !ok {
			continue
		}
		b = strings.TrimSuffix(b, " <UsedInIface>")
		if _, seen := from[b]; !seen {
			from[b] = strings.TrimSuffix(a, " <UsedInIface>")
		}
	}
	if len(from) < 1000 {
		t.Fatalf("-dumpdep listed %d symbols; expected thousands", len(from))
	}
	// Report functions rather than their argument info, stack maps and defer info, whose first reference
	// in -dumpdep comes from wherever the runtime's traceback code reached them; in name order,
	// so that a failure reads the same each run.
	syms := slices.Sorted(maps.Keys(from))
	syms = slices.DeleteFunc(syms, func(sym string) bool {
		return strings.Contains(sym, ".arginfo") || strings.HasSuffix(sym, ".argliveinfo") || strings.HasSuffix(sym, ".args_stackmap") || strings.HasSuffix(sym, ".opendefer")
	})
	reported := map[string]bool{}
	for _, sym := range syms {
		for _, c := range costly {
			if !strings.HasPrefix(sym, c.prefix) || reported[c.prefix] {
				continue
			}
			reported[c.prefix] = true
			chain := []string{sym}
			for s := sym; len(chain) < 12; {
				s = from[s]
				if s == "" || s == "_" {
					break
				}
				chain = append(chain, s)
			}
			t.Errorf("main.wasm links %s (%s)\nreached through:\n\t%s", sym, c.why, strings.Join(chain, "\n\t← "))
		}
	}
}
