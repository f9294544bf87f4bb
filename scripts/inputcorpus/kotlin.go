package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// kotlinPrinter prints each file's bytes the ways Kotlin programs print a ByteArray; the first
// argument names the way. println(bytes) prints the array's type and hash code ("[B@1b6d3586"),
// which people paste too.
const kotlinPrinter = `import java.io.File

fun main(args: Array<String>) {
    val mode = args[0]
    for (f in args.drop(1)) {
        val b = File(f).readBytes()
        when (mode) {
            "contentToString" -> println(b.contentToString())
            "toList" -> println(b.toList())
            "joinToString" -> println(b.joinToString())
            "hex" -> println(b.joinToString("") { "%02x".format(it) })
            "hexSpaced" -> println(b.joinToString(" ") { String.format("%02X", it) })
            "identity" -> println(b)
        }
    }
}
`

// kotlin compiles kotlinPrinter with the real kotlinc and writes the kotlin cases of the set
// from msgs (the messages of the set's pg_recvlogical stream, in order). It has its own
// random source, so it picks the same messages whether the whole corpus is made or only these
// cases (-only kotlin, from the committed recvlogical/stream.want).
func (g *gen) kotlin(msgs [][]byte) error {
	dir := filepath.Join(g.tmp, "ktprint")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, "Print.kt"), []byte(kotlinPrinter), 0o644); err != nil {
		return err
	}
	jar := filepath.Join(dir, "ktprint.jar")
	if b, err := exec.Command("kotlinc", filepath.Join(dir, "Print.kt"), "-include-runtime", "-d", jar).CombinedOutput(); err != nil {
		return fmt.Errorf("kotlinc: %v: %s", err, b)
	}
	version := "kotlinc"
	if b, err := exec.Command("kotlinc", "-version").CombinedOutput(); err == nil {
		// "info: kotlinc-jvm 1.3-SNAPSHOT (JRE 17…)", after the JVM's warnings.
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		version = strings.TrimPrefix(lines[len(lines)-1], "info: ")
	}
	if b, err := exec.Command("dpkg-query", "-W", "-f", "${Version}", "kotlin").Output(); err == nil {
		version += ", Debian's kotlin " + string(b)
	}
	files := make([]string, len(msgs))
	for i, m := range msgs {
		files[i] = filepath.Join(g.tmp, fmt.Sprintf("m%02d.bin", i))
		if err := os.WriteFile(files[i], m, 0o644); err != nil {
			return err
		}
	}
	rng := rand.New(rand.NewSource(*seed))
	pick := func(min int) int {
		var c []int
		for i, m := range msgs {
			if len(m) >= min {
				c = append(c, i)
			}
		}
		return c[rng.Intn(len(c))]
	}
	type kcase struct {
		name, mode string
		idx        []int // messages printed, in order
		wantErr    string
	}
	all := make([]int, len(msgs))
	for i := range all {
		all[i] = i
	}
	var cs []kcase
	if !g.holdout {
		a, b, c := pick(40), pick(0), pick(100)
		cs = []kcase{
			{"contentToString_one", "contentToString", []int{a}, ""},
			{"contentToString_many", "contentToString", all, ""},
			{"toList_one", "toList", []int{b}, ""},
			{"joinToString_one", "joinToString", []int{c}, ""},
			{"joinToString_many", "joinToString", all, ""},
			{"hex_many", "hex", all, ""},
			{"hexSpaced_one", "hexSpaced", []int{a}, ""},
			{"identity", "identity", []int{a}, "hash code"},
		}
	} else {
		r, s := pick(120), rng.Intn(len(msgs)-3)
		cs = []kcase{
			{"contentToString_long", "contentToString", []int{r}, ""},
			{"toList_many", "toList", all, ""},
			{"joinToString_long", "joinToString", []int{r}, ""},
			{"joinToString_some", "joinToString", []int{s, s + 1, s + 2}, ""},
			{"hexSpaced_many", "hexSpaced", all, ""},
			{"identity_many", "identity", all, "hash code"},
		}
	}
	for _, c := range cs {
		args := []string{"-jar", jar, c.mode}
		var want [][]byte
		for _, i := range c.idx {
			args = append(args, files[i])
			if c.wantErr == "" {
				want = append(want, msgs[i])
			}
		}
		out, err := exec.Command("java", args...).Output()
		if err != nil {
			return fmt.Errorf("kotlin %s: %v", c.name, err)
		}
		how := "java " + strings.Join(shortCmd(args, g.tmp), " ") + " (Print.kt in scripts/inputcorpus/kotlin.go, " + version + ")"
		if err := g.write("kotlin", c.name+".txt", out, want, c.wantErr, how); err != nil {
			return err
		}
	}
	return nil
}

// committedMessages reads the messages of a set's pg_recvlogical stream from its committed
// .want file (one hex line each), for remaking some cases without a server.
func committedMessages(path string) ([][]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var msgs [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		l := bytes.TrimSpace(sc.Bytes())
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		m, err := hex.DecodeString(string(l))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		msgs = append(msgs, m)
	}
	return msgs, sc.Err()
}
