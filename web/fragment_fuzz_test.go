package web

import (
	"bytes"
	"compress/flate"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// linkInflater is inflateLink's decompressor, made once and reset for each link (the links
// are opened one at a time): making one allocates more than inflating a short link takes.
var linkInflater = flate.NewReader(bytes.NewReader(nil))

// inflateLink inflates a z1 link's data as the page's glue does: up to limit bytes, then
// OpenShared says what came of it.
func inflateLink(data []byte, limit int) OpenShared {
	linkInflater.(flate.Resetter).Reset(bytes.NewReader(data), nil)
	b, err := io.ReadAll(io.LimitReader(linkInflater, int64(limit)+1))
	switch {
	case len(b) > limit:
		return OpenShared{TooLarge: true}
	case err != nil:
		return OpenShared{Err: err.Error()}
	}
	return OpenShared{Payload: b}
}

// openLink opens a fragment as the page does, inflating a z1 link's data, and returns the
// state it ends in.
func openLink(s State, frag string) State {
	s, fx := Apply(s, OpenFragment{Fragment: frag})
	for _, e := range fx {
		if d, ok := e.(EffectDecompress); ok {
			s, _ = Apply(s, inflateLink(d.Data, d.Limit))
		}
	}
	return s
}

// FuzzShareLink reads fuzzed fragments and z1 payloads: ParseFragment, Unpack and
// ParseSharePayload never panic, their errors are the page's link errors, and what the page
// writes (a hex= link, a z1 payload) it reads back the same. FuzzOpenLink opens the same
// inputs on the page, which is slower.
//
//	go test ./web -run '^$' -fuzz '^FuzzShareLink$' -parallel=1 -fuzztime 10000000x
func FuzzShareLink(f *testing.F) {
	addLinkSeeds(f)
	f.Fuzz(func(t *testing.T, frag string, payload []byte) {
		fr, err := ParseFragment(frag)
		switch {
		case err != nil:
			if _, ok := err.(*FragmentError); !ok {
				t.Fatalf("%q: error %T %v", frag, err, err)
			}
		case fr.Key == "hex" || fr.Key == "b64":
			again, err := ParseFragment(SimpleFragment(fr.Bytes, fr.Proto, fr.InStream, fr.Sel))
			if err != nil || !bytes.Equal(again.Bytes, fr.Bytes) || again.Proto != fr.Proto ||
				again.InStream != fr.InStream || !fr.Sel.Empty() && again.Sel != fr.Sel {
				t.Fatalf("%q: written as %q, read back %+v, %v", frag, SimpleFragment(fr.Bytes, fr.Proto, fr.InStream, fr.Sel), again, err)
			}
		case fr.Key == ShareVersion:
			// Base64url the page writes, it reads back (what it reads need not be written so).
			if b, err := fr.Unpack(); err == nil {
				if again, err := ParseFragment(ShareLink(b)); err != nil {
					t.Fatalf("%q: unpacked %x, written as %q, read back: %v", frag, b, ShareLink(b), err)
				} else if b2, err := again.Unpack(); err != nil || !bytes.Equal(b2, b) {
					t.Fatalf("%q: unpacked %x, read back %x, %v", frag, b, b2, err)
				}
			}
		}
		sh, msg := openShared(OpenShared{Payload: payload})
		if msg != "" {
			if !strings.HasPrefix(msg, "This link is damaged: ") {
				t.Fatalf("payload %q: %q", payload, msg)
			}
			return
		}
		p := SharePayload(sh)
		again, err := ParseSharePayload(p)
		if err != nil || !bytes.Equal(SharePayload(again), p) || again.Text != sh.Text {
			t.Fatalf("payload %q read as %+v, written %q, read back %+v, %v", payload, sh, p, again, err)
		}
	})
}

func addLinkSeeds(f *testing.F) {
	begin := "420000000002e34ae0000292492d0f8ae600000de4"
	for _, seed := range []struct{ frag, payload string }{
		{"#hex=" + begin + "&sel=9-8", ""},
		{"#b64=QgAAAAAC40rgAAKSSS0PiuYAAA3k&proto=1&stream=0", ""},
		{"hex=42%2000:01+02&stream=yes", ""},
		{"#hex=4g", "proto=1\n\n" + begin},
		{"#z1=", "msg=3\nsel=25-1\nexample=Insert\n\n" + txnInsert},
		{"#hex=", "format=hex\nstream=1\n\n" + begin},
		{"#sel=0-1&z1=AAAA", "proto=9\n\n"},
		{"#proto=4&b64=&unknown=1", "no empty line"},
		{"", "msg=99\nsel=1000000-5\n\n" + begin + "\n" + begin},
		{"#z1=", "msg=2\nnote=2,6-35,4,<script>\u202e\nnote=1,30-5,-1,bytes\nnote=7,0-1,-1,gone\n\n" + txnInsert},
		{"", "note=0,1-1,99,x\nnote=0,1-1,-1,\xff\xfe\n\n" + begin},
	} {
		f.Add(seed.frag, []byte(seed.payload))
	}
	// The links main's Share button made before notes (TestOldShareLinks), with their payloads.
	files, _ := filepath.Glob("testdata/links/main-*.txt")
	for _, name := range files {
		raw, _ := os.ReadFile(name)
		for _, link := range strings.Fields(string(raw)) {
			fr, err := ParseFragment(link)
			if err != nil {
				f.Fatalf("%s: %.40s: %v", name, link, err)
			}
			b, _ := fr.Unpack()
			payload, err := io.ReadAll(flate.NewReader(bytes.NewReader(b)))
			if err != nil {
				f.Fatalf("%s: %.40s: %v", name, link, err)
			}
			f.Add(link, payload)
		}
	}
}

// FuzzOpenLink opens fuzzed fragments, and z1 links of fuzzed payloads, on a page showing an
// example: the page never panics, and a link that fails keeps the view and says why.
func FuzzOpenLink(f *testing.F) {
	addLinkSeeds(f)
	start, _ := Apply(NewState(0), SelectNode{Node: 3})
	// One compressor serves every execution (they run one at a time): making one allocates
	// about 1 MB, which took most of an execution's time; after Reset it writes the same bytes
	// a new one would.
	var z bytes.Buffer
	zw, _ := flate.NewWriter(&z, flate.BestSpeed)
	f.Fuzz(func(t *testing.T, frag string, payload []byte) {
		checkOpen(t, start, frag)
		z.Reset()
		zw.Reset(&z)
		zw.Write(payload)
		zw.Close()
		checkOpen(t, start, ShareLink(z.Bytes()))
	})
}

// checkOpen opens frag on the page showing start: the page either shows something else, or
// keeps start's view and says why.
func checkOpen(t *testing.T, start State, frag string) {
	t.Helper()
	s := openLink(start, frag)
	if s.LinkErr != "" || s.Refused.N != start.Refused.N {
		if !same(s, start) {
			t.Fatalf("%.200q: the link failed (%s%s) and the view changed", frag, s.LinkErr, s.Refused.Msg)
		}
		if s.LinkErr != "" && !strings.HasPrefix(s.LinkErr, "This link is damaged: ") &&
			!strings.HasPrefix(s.LinkErr, "The link's ") && !strings.HasPrefix(s.LinkErr, "The link could not be opened: ") {
			t.Fatalf("%.200q: link error %q", frag, s.LinkErr)
		}
		return
	}
	if s.Doc != nil && (s.Msg < 0 || s.Msg >= len(s.Doc.Trees)) && len(s.Doc.Trees) > 0 {
		t.Fatalf("%.200q: message %d of %d shown", frag, s.Msg, len(s.Doc.Trees))
	}
	if tr := s.Tree(); tr != nil && s.Node >= 0 && s.Sel.Offset+s.Sel.Length > len(tr.Bytes) {
		t.Fatalf("%.200q: node %d selects %+v of a %d-byte message", frag, s.Node, s.Sel, len(tr.Bytes))
	}
	checkNotes(t, s, frag)
}

// checkNotes checks the notes a link opened with: within the limits, each placed or said to be
// out of place, shown on the page without a panic, each reached by GoToNote, and shared again
// as they came.
func checkNotes(t *testing.T, s State, frag string) {
	t.Helper()
	if len(s.Notes) > MaxNotes {
		t.Fatalf("%.200q: %d notes", frag, len(s.Notes))
	}
	for i, n := range s.Notes {
		if place, ok := n.Place(s.Doc); !ok && !strings.Contains(place, ": not in the input") {
			t.Fatalf("%.200q: note %d out of place: %q", frag, i, place)
		}
		g, _ := Apply(s, GoToNote{Index: i})
		if _, ok := n.Place(s.Doc); ok && (g.Msg != n.Msg || g.Sel != n.Sel) {
			t.Fatalf("%.200q: GoToNote %d shows message %d, bytes %v; the note is on %d, %v", frag, i, g.Msg, g.Sel, n.Msg, n.Sel)
		}
		NoteText(g.Notes, g.Doc, g.Msg, g.Node)
	}
	if s.Text == "" || len(s.Notes) == 0 {
		return
	}
	_, fx := Apply(s, Share{})
	for _, e := range fx {
		if c, ok := e.(EffectCompress); ok {
			if again, err := ParseSharePayload(c.Payload); err != nil || !slices.Equal(again.Notes, s.Notes) {
				t.Fatalf("%.200q: notes %+v shared as %+v, %v", frag, s.Notes, again.Notes, err)
			}
		}
	}
}
