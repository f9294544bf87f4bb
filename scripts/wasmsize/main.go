// Command wasmsize reports where the bytes of the page's main.wasm go: the data section broken
// into what the Go linker puts there (type descriptors and strings, the runtime's function
// tables, static data), then each package's code, function tables and data, and the largest
// functions and data symbols. ./build.sh wasm prints what changed since the previous build of the
// same checkout; ./build.sh size compares the page with another git revision.
//
// Usage:
//
//	go run ./scripts/wasmsize [flags] [PACKAGE [GO BUILD FLAGS…]]   # default ./wasm
//	go run ./scripts/wasmsize [flags] FILE.wasm
//
// Given a package, it builds it (GOOS=js GOARCH=wasm, -trimpath and the go build flags given, as
// ./build.sh does, but keeping the name section and with the linker's -dumpdep) into a temporary
// directory and reads the package archives' symbols (go tool nm). Given a FILE.wasm built without -ldflags=-s, it reports
// code and function tables only.
//
// A package's bytes are its functions' code (the code section's bodies), their entries in the
// runtime's function tables (name, _func record, PC tables: data the Go runtime keeps for stack
// traces and the garbage collector, for every function), and its data: the read-only and
// initialised data symbols the linker kept (-dumpdep lists them), each counted where the
// package's archive gives its size. A string, a stack map or an unnamed type belongs to the
// package whose code first reached it in the linker's walk. Data is counted as laid out in
// memory (the file leaves out runs of zeros), so the packages' data add up to about the data
// section, not exactly.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"pgoutput-inspector/internal/wasmbin"
)

func main() {
	top := flag.Int("top", 0, "also list the `N` largest functions and data symbols")
	packages := flag.Int("packages", 0, "list at most `N` packages (0: all); the rest are summed")
	base := flag.String("base", "", "compare with the report `FILE` written by -o (a missing file is no error)")
	out := flag.String("o", "", "write the report as JSON to `FILE`, for a later -base")
	since := flag.Bool("since-last", false, "compare with the previous report of this checkout (kept in the user's cache directory), and keep this one")
	brief := flag.Bool("brief", false, "leave out the data section's parts")
	against := flag.String("against", "", "compare with the page built from git revision `REV` of this checkout (git archive into a temporary directory)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: wasmsize [flags] [PACKAGE [GO BUILD FLAGS…] | FILE.wasm]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	target := "./wasm"
	var buildFlags []string
	if flag.NArg() >= 1 {
		target, buildFlags = flag.Arg(0), flag.Args()[1:]
	}
	if strings.HasSuffix(target, ".wasm") && len(buildFlags) > 0 {
		flag.Usage()
		os.Exit(2)
	}
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	r, err := report(".", target, buildFlags)
	if err != nil {
		fail(err)
	}
	var old *Report
	baseName := "the previous report"
	switch {
	case *against != "":
		old, err = reportAt(*against, target, buildFlags)
		if err != nil {
			fail(err)
		}
		baseName = *against
	case *since:
		*base, err = lastReportPath()
		if err != nil {
			fail(err)
		}
		if *out == "" {
			*out = *base
		}
		baseName = "the previous build"
		fallthrough
	case *base != "":
		old, err = readReport(*base)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			fail(err)
		}
	}
	print(os.Stdout, r, old, options{baseName: baseName, packages: *packages, top: *top, brief: *brief})
	if *out != "" {
		if err := writeReport(*out, r); err != nil {
			fail(err)
		}
	}
}

// report measures target (a package, built with the go build flags given, or a .wasm file) in
// the module at dir.
func report(dir, target string, buildFlags []string) (*Report, error) {
	if strings.HasSuffix(target, ".wasm") {
		return analyze(target)
	}
	tmp, err := os.MkdirTemp("", "wasmsize-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	wasm := filepath.Join(tmp, "main.wasm")
	args := append([]string{"build", "-trimpath"}, buildFlags...)
	args = append(args, "-ldflags=-w -dumpdep", "-o", wasm, target)
	build := exec.Command("go", args...)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var deps bytes.Buffer
	build.Stderr = &deps
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("go build %s: %v\n%s", target, err, tail(deps.Bytes()))
	}
	r, err := analyze(wasm)
	if err != nil {
		return nil, err
	}
	syms, err := dataSymbols(dir, target, buildFlags)
	if err != nil {
		return nil, err
	}
	attributeData(r, &deps, syms)
	return r, nil
}

// reportAt measures target as git revision rev of the checkout in the working directory has it.
func reportAt(rev, target string, buildFlags []string) (*Report, error) {
	tmp, err := os.MkdirTemp("", "wasmsize-rev-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	archive := exec.Command("sh", "-c", `git archive "$1" | tar -x -C "$2"`, "sh", rev, tmp)
	if out, err := archive.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("git archive %s: %v\n%s", rev, err, out)
	}
	return report(tmp, target, buildFlags)
}

// lastReportPath is where -since-last keeps the report of this checkout's last build.
func lastReportPath() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "pgoutput-inspector", "wasmsize")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(wd))
	return filepath.Join(dir, fmt.Sprintf("%x.json", sum[:8])), nil
}

// tail returns the last lines of a command's output, for an error message.
func tail(b []byte) []byte {
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return b
}

// Report is what wasmsize measures in one binary.
type Report struct {
	// File is the binary's size; Names its name section, which a build with -ldflags=-s
	// does not have: Stripped = File - Names.
	File, Names, Stripped int
	// Code is the code section, Data the data section; Other the rest (type, import,
	// function, export, element sections, build id).
	Code, Data, Other int
	// DataParts breaks the data section down (see dataParts).
	DataParts []Part
	// Packages, largest first.
	Packages []Package
	// Functions, largest first (code only).
	Functions []Symbol
	// DataSymbols, largest first (given a package only).
	DataSymbols []Symbol
}

// Part is a named part of the data section.
type Part struct {
	Name  string
	Bytes int
}

// Package is what one Go package takes.
type Package struct {
	Path string
	// Funcs is the number of functions; Code their code; Tables their entries in the runtime's
	// function tables (names, _func records, PC tables); Data its data symbols.
	Funcs, Code, Tables, Data int
}

// Total is the package's code, table and data bytes.
func (p Package) Total() int { return p.Code + p.Tables + p.Data }

// Symbol is one function's code or one data symbol.
type Symbol struct {
	Name  string
	Bytes int
}

func readReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &r, nil
}

func writeReport(path string, r *Report) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// The WebAssembly section ids wasmsize reads.
const (
	secCustom = 0
	secImport = 2
	secCode   = 10
	secData   = 11
)

func analyze(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, fmt.Errorf("%s is not a WebAssembly binary", path)
	}
	r := &Report{File: len(b)}
	var (
		imports int
		bodies  []int
		names   map[int]string
		mem     []byte
		segs    []segment
	)
	rd := &wasmbin.Reader{B: b, Off: 8}
	for rd.More() {
		start := rd.Off
		id := rd.Byte()
		body := rd.Bytes(int(rd.Uleb()))
		if rd.Err != nil {
			break
		}
		// The section's whole size: the linker writes sizes as 5-byte LEB128 numbers.
		size := rd.Off - start
		s := &wasmbin.Reader{B: body}
		switch id {
		case secCustom:
			if s.Name() == "name" {
				r.Names += size
				names = readNames(s)
				continue
			}
			r.Other += size
		case secImport:
			imports = countFuncImports(s)
			r.Other += size
		case secCode:
			r.Code = size
			n := int(s.Uleb())
			for range n {
				start := s.Off
				l := int(s.Uleb())
				s.Bytes(l)
				bodies = append(bodies, s.Off-start)
			}
		case secData:
			r.Data = size
			mem, segs = readData(s)
		default:
			r.Other += size
		}
		if s.Err != nil {
			return nil, fmt.Errorf("%s: section %d: %v", path, id, s.Err)
		}
	}
	if rd.Err != nil {
		return nil, fmt.Errorf("%s: %v", path, rd.Err)
	}
	r.Stripped = r.File - r.Names
	if names == nil {
		return nil, fmt.Errorf("%s has no name section: build it without -ldflags=-s", path)
	}
	parts, ft, err := dataParts(mem, segs)
	if err != nil {
		// The function tables could not be read: report the code alone, by the name
		// section's names.
		fmt.Fprintf(os.Stderr, "wasmsize: %s: data section: %v\n", path, err)
	}
	r.DataParts = parts
	code := map[string]int{}
	for i, size := range bodies {
		name, ok := ft.names[i]
		if !ok {
			name, ok = names[imports+i]
		}
		if !ok {
			name = "#" + strconv.Itoa(imports+i)
		}
		code[name] += size
	}
	for name, size := range code {
		r.Functions = append(r.Functions, Symbol{name, size})
	}
	sortSymbols(r.Functions)
	pkgs := map[string]*Package{}
	pkg := func(fn string) *Package {
		path := packageOf(fn)
		p := pkgs[path]
		if p == nil {
			p = &Package{Path: path}
			pkgs[path] = p
		}
		return p
	}
	for name, size := range code {
		p := pkg(name)
		p.Funcs++
		p.Code += size
	}
	for name, size := range ft.bytes {
		pkg(name).Tables += size
	}
	for _, p := range pkgs {
		r.Packages = append(r.Packages, *p)
	}
	sortPackages(r.Packages)
	return r, nil
}

func sortSymbols(list []Symbol) {
	sort.Slice(list, func(i, j int) bool {
		if list[i].Bytes != list[j].Bytes {
			return list[i].Bytes > list[j].Bytes
		}
		return list[i].Name < list[j].Name
	})
}

func sortPackages(list []Package) {
	sort.Slice(list, func(i, j int) bool {
		if list[i].Total() != list[j].Total() {
			return list[i].Total() > list[j].Total()
		}
		return list[i].Path < list[j].Path
	})
}

// dataSymbols returns the size and kind of every data symbol in the archives of target's
// packages (GOOS=js GOARCH=wasm), by name: go list -export builds the archives (the build
// before has cached them) and go tool nm lists their symbols.
func dataSymbols(dir, target string, buildFlags []string) (map[string]int, error) {
	args := append([]string{"list", "-trimpath", "-deps", "-export", "-f", "{{.Export}}"}, buildFlags...)
	list := exec.Command("go", append(args, target)...)
	list.Dir = dir
	list.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := list.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export %s: %v", target, err)
	}
	archives := strings.Fields(string(out))
	nmPath, err := exec.Command("go", "tool", "-n", "nm").Output()
	if err != nil {
		return nil, fmt.Errorf("go tool -n nm: %v", err)
	}
	nm := exec.Command(strings.TrimSpace(string(nmPath)), append([]string{"-size"}, archives...)...)
	nm.Stderr = os.Stderr
	stdout, err := nm.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := nm.Start(); err != nil {
		return nil, err
	}
	syms := map[string]int{}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		// "ARCHIVE:\tADDR SIZE KIND NAME" or "ARCHIVE(OBJECT):\tADDR SIZE KIND NAME"; a
		// name may hold blanks (go:string."a b").
		if i := strings.Index(line, ":\t"); i >= 0 {
			line = line[i+2:]
		}
		field := func() string {
			line = strings.TrimLeft(line, " ")
			f, rest, _ := strings.Cut(line, " ")
			line = rest
			return f
		}
		field() // address
		size, err := strconv.Atoi(field())
		kind := field()
		name := line
		if err != nil || name == "" {
			continue
		}
		switch kind {
		case "R", "r", "D", "d": // read-only and initialised data; B and b (bss) are not in the file
		default:
			continue
		}
		if size > syms[name] {
			syms[name] = size
		}
	}
	if err := nm.Wait(); err != nil {
		return nil, fmt.Errorf("go tool nm: %v", err)
	}
	return syms, sc.Err()
}

// attributeData adds the data symbols the linker kept (deps: its -dumpdep output, "FROM ->
// TO" for the first reference that made each symbol reachable) to their packages in r: a symbol
// named after a package of the binary belongs to it; a string, stack map or unnamed type to the
// package of whatever reached it.
func attributeData(r *Report, deps io.Reader, sizes map[string]int) {
	known := map[string]bool{}
	for _, p := range r.Packages {
		known[p.Path] = true
	}
	from := map[string]string{}
	var kept []string
	sc := bufio.NewScanner(deps)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		a, b, ok := strings.Cut(sc.Text(), " -> ")
		if !ok {
			continue
		}
		a = strings.TrimSuffix(a, " <UsedInIface>")
		b = strings.TrimSuffix(b, " <UsedInIface>")
		if _, seen := from[b]; !seen {
			from[b] = a
			kept = append(kept, b)
		}
	}
	owner := func(sym string) string {
		for range 100 {
			if p := packageOf(sym); known[p] && p != glue {
				return p
			}
			next, ok := from[sym]
			if !ok || next == "_" {
				break
			}
			sym = next
		}
		return "(unattributed)"
	}
	byPath := map[string]*Package{}
	for i := range r.Packages {
		byPath[r.Packages[i].Path] = &r.Packages[i]
	}
	extra := map[string]*Package{}
	for _, sym := range kept {
		size, ok := sizes[sym]
		if !ok && strings.HasPrefix(sym, `go:string."`) {
			// Short strings are named by their contents in the linker and the archives alike;
			// an archive may not list one the linker made (a type's name, say).
			if u, err := strconv.Unquote(strings.TrimPrefix(sym, "go:string.")); err == nil {
				size, ok = len(u), true
			}
		}
		if !ok || size == 0 {
			continue
		}
		p := owner(sym)
		if byPath[p] == nil {
			extra[p] = &Package{Path: p}
			byPath[p] = extra[p]
		}
		byPath[p].Data += size
		r.DataSymbols = append(r.DataSymbols, Symbol{sym, size})
	}
	for _, p := range extra {
		r.Packages = append(r.Packages, *p)
	}
	sortPackages(r.Packages)
	sortSymbols(r.DataSymbols)
}

// glue stands for the package of functions the linker writes (WebAssembly glue).
const glue = "(runtime, WebAssembly glue)"

// packageOf returns the import path of the package a Go symbol belongs to:
// "pgoutput-inspector/web/ui" for "pgoutput-inspector/web/ui.(*Page).Render",
// "github.com/hexops/vecty" for "github.com/hexops/vecty.Tag", "runtime" for
// "runtime.mallocgc". Compiler-made functions name the package of their type
// ("type:.eq.pgoutput-inspector/decoder.Node"); a generic function's instantiation belongs to the
// function's package. Names without a package (the linker's WebAssembly helpers) are "(runtime,
// WebAssembly glue)".
func packageOf(sym string) string {
	for _, p := range []string{"type:.eq.", "type:.hash.", "go:", "type:"} {
		sym = strings.TrimPrefix(sym, p)
	}
	sym = strings.TrimLeft(sym, "*[]()0123456789")
	if i := strings.IndexAny(sym, "[ "); i >= 0 {
		sym = sym[:i]
	}
	slash := strings.LastIndexByte(sym, '/')
	dot := strings.IndexByte(sym[slash+1:], '.')
	if dot < 0 {
		return glue
	}
	return sym[:slash+1+dot]
}

// readNames reads the function names of a name section (subsection 1).
func readNames(s *wasmbin.Reader) map[int]string {
	names := map[int]string{}
	for s.More() && s.Err == nil {
		id := s.Byte()
		size := int(s.Uleb())
		sub := &wasmbin.Reader{B: s.Bytes(size)}
		if id != 1 {
			continue
		}
		n := int(sub.Uleb())
		for range n {
			idx := int(sub.Uleb())
			names[idx] = sub.Name()
		}
	}
	return names
}

// countFuncImports returns the number of imported functions, which come first in the
// function index space.
func countFuncImports(s *wasmbin.Reader) int {
	n := int(s.Uleb())
	funcs := 0
	for range n {
		s.Name()
		s.Name()
		switch kind := s.Byte(); kind {
		case 0: // function: type index
			s.Uleb()
			funcs++
		case 1: // table: reference type, limits
			s.Byte()
			s.Limits()
		case 2: // memory: limits
			s.Limits()
		case 3: // global: value type, mutability
			s.Byte()
			s.Byte()
		default:
			s.Err = fmt.Errorf("import kind %d", kind)
		}
	}
	return funcs
}

// segment is an active data segment: the memory it initialises and its size in the file.
type segment struct {
	offset, size int
	data         []byte
}

// readData returns the linear memory the data section's active segments initialise, and the
// segments.
func readData(s *wasmbin.Reader) ([]byte, []segment) {
	n := int(s.Uleb())
	var mem []byte
	var segs []segment
	for range n {
		start := s.Off
		flags := s.Uleb()
		var offset int
		if flags == 0 || flags == 2 {
			if flags == 2 {
				s.Uleb() // memory index
			}
			if op := s.Byte(); op != 0x41 { // i32.const
				s.Err = fmt.Errorf("data segment offset: opcode %#x", op)
				return nil, nil
			}
			offset = int(s.Sleb())
			if op := s.Byte(); op != 0x0b { // end
				s.Err = fmt.Errorf("data segment offset: opcode %#x, want end", op)
				return nil, nil
			}
		}
		data := s.Bytes(int(s.Uleb()))
		if s.Err != nil {
			return nil, nil
		}
		if flags == 1 { // passive: not at an address
			continue
		}
		segs = append(segs, segment{offset, s.Off - start, data})
		if end := offset + len(data); end > len(mem) {
			mem = append(mem, make([]byte, end-len(mem))...)
		}
		copy(mem[offset:], data)
	}
	return mem, segs
}

// funcValueOffset is what the Go linker adds to a function's index (imports not counted) to
// make its PC's upper bits: PC = (funcValueOffset + index) << 16 (cmd/link/internal/wasm).
const funcValueOffset = 0x1000

// funcTables is what the runtime's function tables say about each function.
type funcTables struct {
	// names maps a function's index in the code section to its Go name (the name section's
	// names have every character but letters, digits, '_' and '.' replaced by '_').
	names map[int]string
	// bytes is each function's share of the tables, by Go name.
	bytes map[string]int
}

// dataParts breaks the data section down by the runtime's moduledata (runtime/symtab.go,
// cmd/link/internal/ld/symtab.go): each part's bytes in the file (its share of the data
// segments, headers included; runs of zeros are not in the file). It attributes each function's
// entries in the function tables to it: its name in funcnametab, its functab entry and _func
// record with their pcdata and funcdata offsets, and the PC tables (pctab) it refers to first
// (tables with the same contents are stored once).
func dataParts(mem []byte, segs []segment) ([]Part, funcTables, error) {
	ft := funcTables{names: map[int]string{}, bytes: map[string]int{}}
	le := binary.LittleEndian
	word := func(a int) int {
		if a < 0 || a+8 > len(mem) {
			return -1
		}
		return int(le.Uint64(mem[a:]))
	}
	// The pcHeader: magic, 0, 0, minLC 1, ptrSize 8.
	hdr := wasmbin.PCHeader(mem)
	if hdr < 0 {
		return nil, ft, errors.New("no pcHeader (not a Go 1.20+ binary?)")
	}
	// moduledata starts with a pointer to the pcHeader, then funcnametab (a slice) whose data
	// lies at pcHeader + funcnameOffset.
	md := -1
	for a := 0; a+8 <= len(mem); a += 8 {
		if word(a) == hdr && word(a+8) == hdr+word(hdr+32) {
			md = a
			break
		}
	}
	if md < 0 {
		return nil, ft, errors.New("no moduledata pointing to the pcHeader")
	}
	slice := func(field int) (ptr, n int) { return word(md + 8 + 24*field), word(md + 8 + 24*field + 8) }
	funcnametab, _ := slice(0)
	cutab, _ := slice(1)
	filetab, _ := slice(2)
	pctab, npctab := slice(3)
	pclntable, _ := slice(4)
	ftab, nftab := slice(5) // []functab, 8 bytes each, the first part of pclntable
	// After the six slices: findfunctab, minpc, maxpc, text, etext, noptrdata, enoptrdata, data,
	// edata, bss, ebss, noptrbss, enoptrbss, covctrs, ecovctrs, end, gcdata, gcbss, types,
	// etypes, rodata, gofunc, epclntab; then textsectmap and typelinks (slices).
	f := md + 8 + 24*6
	at := func(i int) int { return word(f + 8*i) }
	findfunctab, text := at(0), at(3)
	noptrdata, data, edata := at(5), at(7), at(8)
	types, gofunc, epclntab := at(18), at(21), at(22)
	typelinks := word(f + 8*23 + 24)
	// Without relro (WebAssembly), the linker puts all read-only data between types and etypes
	// (type descriptors first, then strings, GC bitmaps and the rest), then the pclntab section:
	// pcHeader, funcnametab, cutab, filetab, pctab, functab and _func records, go:func.*,
	// findfunctab; then typelinks and itablinks, moduledata, noptrdata, data.
	bounds := []Part{
		{"read-only data: type descriptors, strings, GC bitmaps, static tables", types},
		{"pcHeader", hdr},
		{"function names (funcnametab)", funcnametab},
		{"compilation units (cutab)", cutab},
		{"file names (filetab)", filetab},
		{"PC tables: stack size, file, line, pcdata (pctab)", pctab},
		{"function records (functab, _func)", pclntable},
		{"function data: stack maps, argument and open-coded defer info (go:func.*)", gofunc},
		{"PC lookup table (findfunctab)", findfunctab},
		{"typelinks, itablinks", epclntab},
		{"moduledata", md},
		{"initialised variables without pointers (noptrdata)", noptrdata},
		{"initialised variables with pointers (data)", data},
		{"", edata},
	}
	for i := 1; i < len(bounds); i++ {
		if bounds[i].Bytes < bounds[i-1].Bytes {
			return nil, ft, fmt.Errorf("moduledata at %#x: %s at %#x, before %s at %#x: not the layout this program knows (Go version?)",
				md, bounds[i].Name, bounds[i].Bytes, bounds[i-1].Name, bounds[i-1].Bytes)
		}
	}
	_ = typelinks
	// Each part's bytes in the file: its share of each segment's data, and the segment's header
	// for the part the segment starts in.
	parts := make([]Part, len(bounds)-1)
	for i := range parts {
		parts[i].Name = bounds[i].Name
	}
	part := func(a int) int {
		i := sort.Search(len(bounds), func(i int) bool { return bounds[i].Bytes > a }) - 1
		return max(0, min(i, len(parts)-1))
	}
	for _, sg := range segs {
		parts[part(sg.offset)].Bytes += sg.size - len(sg.data)
		for a := sg.offset; a < sg.offset+len(sg.data); {
			i := part(a)
			end := min(sg.offset+len(sg.data), bounds[i+1].Bytes)
			if i == len(parts)-1 {
				end = sg.offset + len(sg.data)
			}
			parts[i].Bytes += end - a
			a = end
		}
	}

	// Each function's share of the tables.
	seen := map[int]bool{}
	tableLen := func(off int) int {
		p := pctab + off
		start := p
		first := true
		for p < pctab+npctab {
			if mem[p] == 0 && !first {
				return p + 1 - start
			}
			first = false
			p = skipVarint(mem, p) // value delta
			p = skipVarint(mem, p) // pc delta
		}
		return p - start
	}
	for i := range nftab - 1 { // the last entry marks the end of the last function
		entryoff := int(le.Uint32(mem[ftab+8*i:]))
		funcoff := int(le.Uint32(mem[ftab+8*i+4:]))
		fp := pclntable + funcoff
		if fp+44 > len(mem) {
			break
		}
		nameOff := int(int32(le.Uint32(mem[fp+4:])))
		end := funcnametab + nameOff
		for end < len(mem) && mem[end] != 0 {
			end++
		}
		name := string(mem[funcnametab+nameOff : end])
		// A function's entry: PC_F (funcValueOffset + its index), or PC_F<<16.
		pc := text + entryoff
		if pc >= 1<<16 {
			pc >>= 16
		}
		ft.names[pc-funcValueOffset] = name
		npcdata := int(le.Uint32(mem[fp+28:]))
		nfuncdata := int(mem[fp+43])
		size := (end - (funcnametab + nameOff)) + 1 + 8 + 44 + 4*npcdata + 4*nfuncdata
		offs := []int{int(le.Uint32(mem[fp+16:])), int(le.Uint32(mem[fp+20:])), int(le.Uint32(mem[fp+24:]))}
		for j := range npcdata {
			offs = append(offs, int(le.Uint32(mem[fp+44+4*j:])))
		}
		for _, o := range offs {
			if o != 0 && !seen[o] {
				seen[o] = true
				size += tableLen(o)
			}
		}
		ft.bytes[name] += size
	}
	return parts, ft, nil
}

func skipVarint(mem []byte, p int) int {
	for p < len(mem) {
		c := mem[p]
		p++
		if c&0x80 == 0 {
			break
		}
	}
	return p
}

// options say what print prints.
type options struct {
	// baseName names what old is ("the previous build", a git revision).
	baseName string
	// packages limits the package table (0: all); top lists the largest functions and data
	// symbols; brief leaves out the data section's parts.
	packages, top int
	brief         bool
}

// print writes the report, with changes since old when there is one.
func print(w io.Writer, r, old *Report, o options) {
	delta := func(now, before int) string {
		if old == nil || now == before {
			return ""
		}
		return fmt.Sprintf(" (%+d)", now-before)
	}
	var ob Report
	if old != nil {
		ob = *old
		fmt.Fprintf(w, "main.wasm, changes (+/-) since %s:\n", o.baseName)
	}
	fmt.Fprintf(w, "main.wasm %s B%s without the name section: code %s B%s, data %s B%s, other %s B\n",
		commas(r.Stripped), delta(r.Stripped, ob.Stripped), commas(r.Code), delta(r.Code, ob.Code),
		commas(r.Data), delta(r.Data, ob.Data), commas(r.Other))
	if !o.brief && len(r.DataParts) > 0 {
		fmt.Fprintf(w, "\ndata section by part (bytes in the file; runs of zeros are left out):\n")
		for _, p := range r.DataParts {
			fmt.Fprintf(w, "  %10s  %s\n", commas(p.Bytes), p.Name)
		}
	}
	before := map[string]Package{}
	for _, p := range ob.Packages {
		before[p.Path] = p
	}
	fmt.Fprintf(w, "\n%10s %10s %10s %10s %6s  %s\n", "code", "fn tables", "data", "total", "funcs", "package")
	row := func(p Package, name string) {
		d := ""
		if old != nil {
			if b, ok := before[p.Path]; !ok && p.Path != "" {
				d = "  (new)"
			} else {
				d = delta(p.Total(), b.Total())
			}
		}
		fmt.Fprintf(w, "%10s %10s %10s %10s %6d  %s%s\n", commas(p.Code), commas(p.Tables), commas(p.Data), commas(p.Total()), p.Funcs, name, d)
	}
	var rest Package
	restN, restBefore := 0, 0
	now := map[string]bool{}
	for i, p := range r.Packages {
		now[p.Path] = true
		changed := old != nil && before[p.Path].Total() != p.Total()
		if o.packages > 0 && i >= o.packages && !changed {
			restN++
			rest.Code += p.Code
			rest.Tables += p.Tables
			rest.Data += p.Data
			rest.Funcs += p.Funcs
			restBefore += before[p.Path].Total()
			continue
		}
		row(p, p.Path)
	}
	if restN > 0 {
		name := fmt.Sprintf("%d more packages", restN)
		if old != nil {
			name += ", unchanged"
			before[""] = Package{Code: restBefore}
		}
		row(rest, name)
	}
	for _, p := range ob.Packages {
		if !now[p.Path] {
			fmt.Fprintf(w, "%10s %10s %10s %10s %6s  %s (gone: %+d)\n", "", "", "", "", "", p.Path, -p.Total())
		}
	}
	if o.top > 0 {
		fmt.Fprintf(w, "\nlargest functions (code bytes):\n")
		for i, f := range r.Functions {
			if i >= o.top {
				break
			}
			fmt.Fprintf(w, "  %9s  %s\n", commas(f.Bytes), f.Name)
		}
		if len(r.DataSymbols) > 0 {
			fmt.Fprintf(w, "\nlargest data symbols (bytes):\n")
			for i, f := range r.DataSymbols {
				if i >= o.top {
					break
				}
				name := f.Name
				if len(name) > 100 {
					name = name[:100] + "…"
				}
				fmt.Fprintf(w, "  %9s  %s\n", commas(f.Bytes), name)
			}
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// commas writes n with thousands separators, as docs/performance.md gives sizes.
func commas(n int) string {
	s := strconv.Itoa(abs(n))
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n < 0 {
		return "-" + s
	}
	return s
}
