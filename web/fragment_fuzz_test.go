package web

import (
	"bytes"
	"compress/flate"
	"io"
	"strings"
	"testing"
)

// inflateLink inflates a z1 link's data as the page's glue does: up to limit bytes, then
// OpenShared says what came of it.
func inflateLink(data []byte, limit int) OpenShared {
	b, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(data)), int64(limit)+1))
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

// FuzzShareLink reads fuzzed fragments and z1 payloads as the page does. Neither ParseFragment
// nor ParseSharePayload nor the page's state panics; a link that fails leaves the view as it
// was; what the page writes it reads back the same.
//
//	go test ./web -run '^$' -fuzz FuzzShareLink -parallel=1 -fuzztime 10000000x
func FuzzShareLink(f *testing.F) {
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
	} {
		f.Add(seed.frag, []byte(seed.payload))
	}
	start, _ := Apply(NewState(0), SelectNode{Node: 3})
	f.Fuzz(func(t *testing.T, frag string, payload []byte) {
		fr, err := ParseFragment(frag)
		if err == nil && (fr.Key == "hex" || fr.Key == "b64") {
			// The hand-written form the page writes reads back the same.
			again, err := ParseFragment(SimpleFragment(fr.Bytes, fr.Proto, fr.InStream, fr.Sel))
			if err != nil || !bytes.Equal(again.Bytes, fr.Bytes) || again.Proto != fr.Proto ||
				again.InStream != fr.InStream || !fr.Sel.Empty() && again.Sel != fr.Sel {
				t.Fatalf("%q: written as %q, read back %+v, %v", frag, SimpleFragment(fr.Bytes, fr.Proto, fr.InStream, fr.Sel), again, err)
			}
		}
		checkOpen(t, start, frag)

		// The payload as the Share button would carry it.
		var z bytes.Buffer
		zw, _ := flate.NewWriter(&z, flate.BestSpeed)
		zw.Write(payload)
		zw.Close()
		checkOpen(t, start, ShareLink(z.Bytes()))
		if sh, err := ParseSharePayload(payload); err == nil {
			// What the page writes from what it read, it reads back the same.
			p := SharePayload(sh)
			again, err := ParseSharePayload(p)
			if err != nil || !bytes.Equal(SharePayload(again), p) || again.Text != sh.Text {
				t.Fatalf("payload %q read as %+v, written %q, read back %+v, %v", payload, sh, p, again, err)
			}
		}
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
}
