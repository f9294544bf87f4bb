package main

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// gen runs the tools over the recorded stream and writes the cases.
type gen struct {
	tmp     string
	st      *stream
	rng     *rand.Rand
	holdout bool
	n       int
}

// printers are small programs that print the messages given as files, one per argument, in
// a language's own way; the first argument names the way.
const goPrinter = `package main

import (
	"fmt"
	"os"
)

func main() {
	for _, f := range os.Args[2:] {
		b, _ := os.ReadFile(f)
		switch os.Args[1] {
		case "println":
			fmt.Println(b)
		case "v":
			fmt.Printf("%v\n", b)
		case "d":
			fmt.Printf("%d\n", b)
		case "q":
			fmt.Printf("%q\n", b)
		case "sharpv":
			fmt.Printf("%#v\n", b)
		case "x":
			fmt.Printf("%x\n", b)
		case "spacex":
			fmt.Printf("% x\n", b)
		case "X":
			fmt.Printf("%X\n", b)
		}
	}
}
`

const javaPrinter = `import java.nio.file.*;
import java.util.Arrays;

public class Print {
	public static void main(String[] args) throws Exception {
		for (int i = 1; i < args.length; i++) {
			byte[] b = Files.readAllBytes(Paths.get(args[i]));
			System.out.println(Arrays.toString(b));
		}
	}
}
`

const rustPrinter = `use std::env;
use std::fs;

fn main() {
	let args: Vec<String> = env::args().collect();
	for f in &args[2..] {
		let b = fs::read(f).unwrap();
		let s: &[u8] = &b;
		match args[1].as_str() {
			"debug" => println!("{:?}", s),
			"hexdebug" => println!("{:02x?}", s),
			"hexdebug_pretty" => println!("{:#04x?}", s),
			_ => {}
		}
	}
}
`

const csharpPrinter = `using System;
using System.IO;

class Print {
	static void Main(string[] args) {
		for (int i = 0; i < args.Length; i++) {
			Console.WriteLine(BitConverter.ToString(File.ReadAllBytes(args[i])));
		}
	}
}
`

const nodePrinter = `
const fs = require('fs');
const util = require('util');
const [mode, ...files] = process.argv.slice(2);
for (const f of files) {
	const buf = fs.readFileSync(f);
	switch (mode) {
	case 'buffer': console.log(buf); break;
	case 'buffer-all': require('buffer').INSPECT_MAX_BYTES = Infinity; console.log(buf); break;
	case 'uint8array': console.log(new Uint8Array(buf)); break;
	case 'uint8array-all': console.log(util.inspect(new Uint8Array(buf), {maxArrayLength: null})); break;
	case 'json': console.log(JSON.stringify(buf)); break;
	case 'hex': console.log(buf.toString('hex')); break;
	case 'base64': console.log(buf.toString('base64')); break;
	}
}
`

const pythonPrinter = `
import sys, base64
mode, files = sys.argv[1], sys.argv[2:]
for f in files:
    b = open(f, 'rb').read()
    if mode == 'repr': print(b)
    elif mode == 'list': print(list(b))
    elif mode == 'hex': print(b.hex())
    elif mode == 'hexsep': print(b.hex(' '))
    elif mode == 'hexcolon': print(b.hex(':'))
    elif mode == 'encodebytes': sys.stdout.write(base64.encodebytes(b).decode())
    elif mode == 'b64': print(base64.b64encode(b).decode())
    elif mode == 'bytearray': print(bytearray(b))
`

func (g *gen) all() error {
	for _, d := range []string{"goprint", "javaprint", "rustprint"} {
		os.MkdirAll(filepath.Join(g.tmp, d), 0o755)
	}
	os.WriteFile(filepath.Join(g.tmp, "goprint", "main.go"), []byte(goPrinter), 0o644)
	os.WriteFile(filepath.Join(g.tmp, "goprint", "go.mod"), []byte("module goprint\n\ngo 1.21\n"), 0o644)
	if b, err := exec.Command("go", "build", "-C", filepath.Join(g.tmp, "goprint"), "-o", filepath.Join(g.tmp, "goprint.bin"), ".").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v: %s", err, b)
	}
	os.WriteFile(filepath.Join(g.tmp, "javaprint", "Print.java"), []byte(javaPrinter), 0o644)
	if b, err := exec.Command("javac", "-d", filepath.Join(g.tmp, "javaprint"), filepath.Join(g.tmp, "javaprint", "Print.java")).CombinedOutput(); err != nil {
		return fmt.Errorf("javac: %v: %s", err, b)
	}
	os.WriteFile(filepath.Join(g.tmp, "rustprint", "main.rs"), []byte(rustPrinter), 0o644)
	if b, err := exec.Command("rustc", "-O", "-o", filepath.Join(g.tmp, "rustprint.bin"), filepath.Join(g.tmp, "rustprint", "main.rs")).CombinedOutput(); err != nil {
		return fmt.Errorf("rustc: %v: %s", err, b)
	}
	os.WriteFile(filepath.Join(g.tmp, "Print.cs"), []byte(csharpPrinter), 0o644)
	if b, err := exec.Command("mcs", "-out:"+filepath.Join(g.tmp, "print.exe"), filepath.Join(g.tmp, "Print.cs")).CombinedOutput(); err != nil {
		return fmt.Errorf("mcs: %v: %s", err, b)
	}
	os.WriteFile(filepath.Join(g.tmp, "print.js"), []byte(nodePrinter), 0o644)
	os.WriteFile(filepath.Join(g.tmp, "print.py"), []byte(pythonPrinter), 0o644)

	msgs := g.st.msgs
	files := make([]string, len(msgs))
	for i, m := range msgs {
		files[i] = filepath.Join(g.tmp, fmt.Sprintf("m%02d.bin", i))
		if err := os.WriteFile(files[i], m, 0o644); err != nil {
			return err
		}
	}
	recv := filepath.Join(g.tmp, "stream.recv")
	pcapng := filepath.Join(g.tmp, "stream.pcapng")
	pcap := filepath.Join(g.tmp, "stream.pcap")
	// pick returns a message index: of a message up to max bytes long (0: any), at least min,
	// odd-sized when odd, chosen by the seed.
	pick := func(min, max int, odd bool) int {
		var c []int
		for i, m := range msgs {
			if len(m) >= min && (max == 0 || len(m) <= max) && (!odd || len(m)%2 == 1) {
				c = append(c, i)
			}
		}
		if len(c) == 0 {
			return g.rng.Intn(len(msgs))
		}
		return c[g.rng.Intn(len(c))]
	}
	// repeats returns a message with a run of 32 equal bytes on a 16-byte boundary, if any.
	repeats := func() int {
		for i, m := range msgs {
			for j := 0; j+48 <= len(m); j += 16 {
				if bytes.Equal(m[j:j+16], m[j+16:j+32]) && bytes.Equal(m[j:j+16], m[j+32:j+48]) {
					return i
				}
			}
		}
		return pick(0, 0, false)
	}
	all := msgs
	one := func(i int) [][]byte { return [][]byte{msgs[i]} }
	some := func(n int) ([]string, [][]byte) { // n messages in order from a random start
		s := g.rng.Intn(len(msgs) - n + 1)
		return files[s : s+n], msgs[s : s+n]
	}
	type tcase struct {
		dir, name string
		cmd       []string // program and arguments; "" stdin
		stdin     string   // file given on standard input
		want      [][]byte
		wantErr   string
	}
	var cs []tcase
	add := func(dir, name string, want [][]byte, cmd ...string) {
		cs = append(cs, tcase{dir: dir, name: name, cmd: cmd, want: want})
	}
	addErr := func(dir, name, wantErr string, cmd ...string) {
		cs = append(cs, tcase{dir: dir, name: name, cmd: cmd, wantErr: wantErr})
	}
	gop := filepath.Join(g.tmp, "goprint.bin")
	rsp := filepath.Join(g.tmp, "rustprint.bin")
	js := filepath.Join(g.tmp, "print.js")
	py := filepath.Join(g.tmp, "print.py")
	jv := func(args ...string) []string {
		return append([]string{"java", "-cp", filepath.Join(g.tmp, "javaprint"), "Print", "-"}, args...)
	}

	if !g.holdout {
		a, b, c, r, o := pick(40, 0, false), pick(0, 40, false), pick(25, 0, true), repeats(), pick(0, 0, true)
		add("xxd", "one", one(a), "xxd", files[a])
		add("xxd", "g1_upper", one(b), "xxd", "-g1", "-u", files[b])
		add("xxd", "c8", one(c), "xxd", "-c", "8", files[c])
		add("xxd", "many", all, "xxd", recv)
		add("xxd", "plain_one", one(a), "xxd", "-p", files[a])
		add("xxd", "plain_many", all, "xxd", "-p", recv)
		add("xxd", "include", one(b), "xxd", "-i", files[b])
		add("hexdump", "default_odd", one(o), "hexdump", files[o])
		add("hexdump", "x_odd", one(c), "hexdump", "-x", files[c])
		e := pick(0, 0, false)
		add("hexdump", "x_even", one(e), "hexdump", "-x", files[e])
		add("hexdump", "C_one", one(a), "hexdump", "-C", files[a])
		add("hexdump", "default_many", all, "hexdump", recv)
		add("hexdump", "C_many", all, "hexdump", "-C", recv)
		add("hexdump", "C_repeat", one(r), "hexdump", "-C", files[r])
		add("hexdump", "default_repeat", one(r), "hexdump", files[r])
		for _, o := range []string{"b", "c", "o"} { // also made from the committed files by scripts/hexdump-forms.sh
			add("hexdump", o+"_many", all, "hexdump", "-"+o, recv)
			add("hexdump", o+"_odd", one(c), "hexdump", "-"+o, files[c])
		}
		add("od", "default_odd", one(o), "od", files[o])
		add("od", "x_odd", one(c), "od", "-x", files[c])
		add("od", "tx2", one(a), "od", "-t", "x2", files[a])
		add("od", "tx1", one(b), "od", "-t", "x1", files[b])
		add("od", "c", one(a), "od", "-c", files[a])
		add("od", "Ad_tx1", one(c), "od", "-A", "d", "-t", "x1", files[c])
		add("od", "Ax_tx1z", one(a), "od", "-A", "x", "-t", "x1z", files[a])
		add("od", "An_tx1", one(b), "od", "-A", "n", "-t", "x1", files[b])
		add("od", "b", one(b), "od", "-b", files[b])
		add("od", "default_many", all, "od", recv)
		add("od", "tx1_repeat", one(r), "od", "-t", "x1", files[r])
		add("od", "c_many", all, "od", "-c", recv)
		add("base64", "wrap76", one(r), "base64", files[r])
		add("base64", "wrap64", one(r), "base64", "-w", "64", files[r])
		add("base64", "openssl", one(a), "openssl", "base64", "-in", files[a])
		add("base64", "python_encodebytes", one(r), "python3", py, "encodebytes", files[r])
		add("base64", "many_w0", all, append([]string{"python3", py, "b64"}, files...)...)
		add("base64", "stream_wrap76", all, "base64", recv)
		add("python", "repr_one", one(a), "python3", py, "repr", files[a])
		add("python", "repr_many", all, append([]string{"python3", py, "repr"}, files...)...)
		add("python", "list_one", one(b), "python3", py, "list", files[b])
		add("python", "hexsep", one(a), "python3", py, "hexsep", files[a])
		add("python", "bytearray", one(b), "python3", py, "bytearray", files[b])
		short := pick(0, 50, false)
		add("node", "buffer", one(short), "node", js, "buffer", files[short])
		addErr("node", "buffer_cut", "more bytes", "node", js, "buffer", files[r])
		add("node", "buffer_all", one(r), "node", js, "buffer-all", files[r])
		u := pick(0, 100, false)
		add("node", "uint8array", one(u), "node", js, "uint8array", files[u])
		addErr("node", "uint8array_cut", "more items", "node", js, "uint8array", files[r])
		add("node", "json", one(a), "node", js, "json", files[a])
		fs, ms := some(4)
		add("node", "json_many", ms, append([]string{"node", js, "json"}, fs...)...)
		add("go", "println", one(a), gop, "println", files[a])
		add("go", "v_many", all, append([]string{gop, "v"}, files...)...)
		add("go", "q", one(a), gop, "q", files[a])
		add("go", "sharpv", one(b), gop, "sharpv", files[b])
		add("go", "spacex", one(c), gop, "spacex", files[c])
		add("java", "arrays_one", one(a), jv(files[a])...)
		add("java", "arrays_many", all, jv(files...)...)
		add("rust", "debug", one(a), rsp, "debug", files[a])
		add("rust", "hexdebug", one(b), rsp, "hexdebug", files[b])
		fs, ms = some(3)
		add("rust", "hexdebug_many", ms, append([]string{rsp, "hexdebug"}, fs...)...)
		add("recvlogical", "stream", all, "cat", recv)
		add("recvlogical", "one_raw", one(a), "cat", files[a])
		add("csharp", "bitconverter", one(b), "mono", filepath.Join(g.tmp, "print.exe"), files[b])
		add("csharp", "bitconverter_many", all, append([]string{"mono", filepath.Join(g.tmp, "print.exe")}, files...)...)
	} else {
		a, b, c, r, o := pick(60, 0, false), pick(0, 45, false), pick(20, 0, true), repeats(), pick(0, 0, true)
		add("xxd", "one_c24_g4", one(a), "xxd", "-c", "24", "-g", "4", files[a])
		add("xxd", "many_g2", all, "xxd", "-g", "2", recv)
		add("xxd", "many_upper", all, "xxd", "-u", recv)
		add("xxd", "plain_c40", one(a), "xxd", "-p", "-c", "40", files[a])
		add("xxd", "plain_many", all, "xxd", "-p", recv)
		add("xxd", "one_odd", one(o), "xxd", files[o])
		add("hexdump", "default_one", one(a), "hexdump", files[a])
		add("hexdump", "x_many", all, "hexdump", "-x", recv)
		add("hexdump", "C_odd", one(o), "hexdump", "-C", files[o])
		add("hexdump", "x_repeat", one(r), "hexdump", "-x", files[r])
		add("hexdump", "C_many_v", all, "hexdump", "-C", "-v", recv)
		add("od", "default_one", one(a), "od", files[a])
		add("od", "x_many", all, "od", "-x", recv)
		add("od", "Ax_tx2", one(c), "od", "-A", "x", "-t", "x2", files[c])
		add("od", "Ao_tx1", one(b), "od", "-A", "o", "-t", "x1", files[b])
		add("od", "Ad_c", one(a), "od", "-A", "d", "-c", files[a])
		add("od", "tx1_v", one(r), "od", "-v", "-t", "x1", files[r])
		add("od", "tx1z_many", all, "od", "-A", "x", "-t", "x1z", recv)
		add("od", "An_x", one(o), "od", "-A", "n", "-x", files[o])
		add("od", "default_repeat", one(r), "od", files[r])
		add("base64", "wrap76_long", one(a), "base64", files[a])
		add("base64", "openssl_many", all, "openssl", "base64", "-in", recv)
		add("base64", "w64", one(r), "base64", "-w", "64", files[r])
		add("base64", "lines", all, append([]string{"node", js, "base64"}, files...)...)
		add("python", "repr_long", one(r), "python3", py, "repr", files[r])
		add("python", "list_many", all, append([]string{"python3", py, "list"}, files...)...)
		add("python", "hex_many", all, append([]string{"python3", py, "hex"}, files...)...)
		add("python", "hexcolon", one(b), "python3", py, "hexcolon", files[b])
		short := pick(0, 50, false)
		add("node", "buffer_short", one(short), "node", js, "buffer", files[short])
		addErr("node", "buffer_long", "more bytes", "node", js, "buffer", files[a])
		add("node", "uint8array_short", one(b), "node", js, "uint8array", files[b])
		add("node", "uint8array_all", one(r), "node", js, "uint8array-all", files[r])
		add("node", "json_long", one(r), "node", js, "json", files[r])
		add("go", "println_many", all, append([]string{gop, "println"}, files...)...)
		add("go", "d", one(c), gop, "d", files[c])
		add("go", "q_many", all, append([]string{gop, "q"}, files...)...)
		add("go", "sharpv_long", one(r), gop, "sharpv", files[r])
		add("go", "X", one(a), gop, "X", files[a])
		add("java", "arrays_long", one(r), jv(files[r])...)
		add("rust", "debug_many", all, append([]string{rsp, "debug"}, files...)...)
		add("rust", "hexdebug_long", one(r), rsp, "hexdebug", files[r])
		add("recvlogical", "stream", all, "cat", recv)
		add("recvlogical", "one_raw", one(c), "cat", files[c])
		add("csharp", "bitconverter_long", one(r), "mono", filepath.Join(g.tmp, "print.exe"), files[r])
	}
	for _, c := range cs {
		outp, err := exec.Command(c.cmd[0], c.cmd[1:]...).Output()
		if err != nil {
			return fmt.Errorf("%s/%s: %s: %v", c.dir, c.name, strings.Join(c.cmd, " "), err)
		}
		ext := ".txt"
		if c.dir == "recvlogical" {
			ext = ".bin"
		}
		if err := g.write(c.dir, c.name+ext, outp, c.want, c.wantErr, strings.Join(shortCmd(c.cmd, g.tmp), " ")); err != nil {
			return err
		}
	}
	if err := g.kotlin(msgs); err != nil {
		return err
	}
	return g.captures(pcap, pcapng)
}

// captures writes the pcap files and tshark's text outputs of them.
func (g *gen) captures(pcap, pcapng string) error {
	cd := g.st.copyData
	var payloads [][]byte
	for _, m := range cd {
		payloads = append(payloads, m[5:])
	}
	if err := g.write("tshark", "pcapng.pcapng", g.st.pcapng, cd, "", "dumpcap -i lo -f 'host 127.0.0.2 and tcp port PORT' -w capture.pcapng (pg_recvlogical streaming through a relay on 127.0.0.2, routed with MTU 1500)"); err != nil {
		return err
	}
	if err := g.write("tshark", "any_ipv6.pcapng", g.st.pcap6, g.st.copyData6, "", "dumpcap -i any -f 'ip6 and tcp port PORT' -w any_ipv6.pcapng (pg_recvlogical over IPv6, Linux cooked capture v2 frames)"); err != nil {
		return err
	}
	if err := g.write("tshark", "pcap.pcap", g.st.pcap, cd, "", "editcap -F pcap capture.pcapng capture.pcap"); err != nil {
		return err
	}
	type tc struct {
		name string
		args []string
		want [][]byte
	}
	cases := []tc{
		{"x", []string{"-r", pcapng, "-d", "tcp.port==" + g.port() + ",pgsql", "-x"}, cd},
		{"x_no_dissector", []string{"-r", pcapng, "-x"}, cd},
		{"fields_copydata", []string{"-r", pcapng, "-d", "tcp.port==" + g.port() + ",pgsql", "-T", "fields", "-e", "pgsql.copydata"}, payloads},
		{"follow_hex", []string{"-r", pcapng, "-q", "-z", "follow,tcp,hex,0"}, cd},
		{"follow_raw", []string{"-r", pcapng, "-q", "-z", "follow,tcp,raw,0"}, cd},
		{"x_copydata_only", []string{"-r", pcapng, "-d", "tcp.port==" + g.port() + ",pgsql", "-Y", "pgsql.type == \"Copy data\"", "-x"}, cd},
	}
	if g.holdout {
		cases = []tc{
			{"x_pcap", []string{"-r", pcap, "-d", "tcp.port==" + g.port() + ",pgsql", "-x"}, cd},
			{"fields_copydata_pgsql", []string{"-r", pcap, "-d", "tcp.port==" + g.port() + ",pgsql", "-Y", "pgsql", "-T", "fields", "-e", "pgsql.copydata"}, payloads},
			{"follow_hex", []string{"-r", pcap, "-q", "-z", "follow,tcp,hex,0"}, cd},
			{"follow_raw", []string{"-r", pcap, "-q", "-z", "follow,tcp,raw,0"}, cd},
		}
	}
	for _, c := range cases {
		b, err := exec.Command("tshark", c.args...).Output()
		if err != nil {
			return fmt.Errorf("tshark %s: %v", strings.Join(c.args, " "), err)
		}
		if err := g.write("tshark", c.name+".txt", b, c.want, "", "tshark "+strings.Join(shortCmd(c.args, g.tmp), " ")); err != nil {
			return err
		}
	}
	return nil
}

// port is the server's TCP port in the capture: the destination port of the first frame.
func (g *gen) port() string {
	b, _ := exec.Command("tshark", "-r", filepath.Join(g.tmp, "stream.pcapng"), "-c", "1", "-T", "fields", "-e", "tcp.dstport").Output()
	return strings.TrimSpace(string(b))
}

// shortCmd names temporary files by their base name, for the record of how a case was made.
func shortCmd(cmd []string, tmp string) []string {
	out := make([]string, len(cmd))
	for i, a := range cmd {
		out[i] = strings.ReplaceAll(a, tmp+"/", "")
	}
	return out
}

// write stores one case, its .want file, and a line in the directory's MADE_BY list. Files
// over 256 KiB are stored gzipped.
func (g *gen) write(dir, name string, data []byte, want [][]byte, wantErr, how string) error {
	d := filepath.Join(*out, dir)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	if len(data) > 256<<10 {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(data)
		w.Close()
		data, name = z.Bytes(), name+".gz"
	}
	if err := os.WriteFile(filepath.Join(d, name), data, 0o644); err != nil {
		return err
	}
	var wb strings.Builder
	if wantErr != "" {
		fmt.Fprintf(&wb, "# error: %s\n", wantErr)
		if len(want) > 0 {
			wb.WriteString("# with the messages below\n") // the start of a message the error cuts
		}
	}
	for _, m := range want {
		wb.WriteString(hex.EncodeToString(m) + "\n")
	}
	base := strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), filepath.Ext(strings.TrimSuffix(name, ".gz")))
	if err := os.WriteFile(filepath.Join(d, base+".want"), []byte(wb.String()), 0o644); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(d, "MADE_BY"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	g.n++
	_, err = fmt.Fprintf(f, "%s: %s\n", name, how)
	return err
}
