package web

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"pgoutput-inspector/decoder"
	"pgoutput-inspector/input"
)

// same reports whether two states show the same input and view.
func same(a, b State) bool {
	return a.Text == b.Text && a.Doc == b.Doc && a.Msg == b.Msg && a.Node == b.Node && a.Example == b.Example
}

// Inputs over the page's limits are refused, however they come, and the page keeps showing
// what it showed, with a message that names the limit and the command line tool.
func TestInputsOverTheLimitsAreRefused(t *testing.T) {
	start := apply(t, NewState(0), SelectNode{Node: 3})
	tooMany := strings.Repeat("00\n", MaxMessages+1)
	for _, tc := range []struct {
		name string
		act  Action
		want string
	}{
		{"text", SetText{Text: strings.Repeat("0", MaxInput+1)}, "The new text is 16,777,217 bytes, more than the 16,777,216 bytes (16 MiB) the page reads"},
		{"file", TooLarge{Size: 20_000_000, What: "the file big.capture"}, "The file big.capture is 20,000,000 bytes, more than"},
		{"binary file", TooLarge{Size: 70_000_000, What: "the file big.pcapng", File: true}, "The file big.pcapng is 70,000,000 bytes, more than the 67,108,864 bytes (64 MiB) of a file the page reads; the page still shows the input before it. Cut a capture with editcap"},
		{"text file", SetText{Text: strings.Repeat("0", MaxInput+1), File: true, Name: "big.txt"}, "The new text is 16,777,217 bytes, more than the 16,777,216 bytes (16 MiB)"},
		{"paste", TooLarge{Size: 17_000_000, AtLeast: true, What: "the pasted text"}, "The pasted text is at least 17,000,000 bytes"},
		{"link", OpenShared{TooLarge: true}, "This link's text inflates to more than 16,777,216 bytes (16 MiB), more than the page reads: the page stopped inflating it there"},
		{"link's text", OpenShared{Payload: []byte("\n" + strings.Repeat("0", MaxInput+1))}, "This link's text inflates to more than 16,777,216 bytes"},
		{"hex link", OpenFragment{Fragment: "#hex=" + strings.Repeat("00", MaxInput/2+1)}, "The link's message as hex is 16,777,218 bytes"},
		{"messages", SetText{Text: tooMany}, "The input holds 400,001 messages, more than the 400,000 the page decodes"},
		{"messages in a link", OpenShared{Payload: []byte("\n" + tooMany)}, "The input holds 400,001 messages"},
		// Messages past the limit are counted, not kept (input.ParseAtMost), yet counted all.
		{"twice the messages", SetText{Text: strings.Repeat("00\n", 2*MaxMessages)}, "The input holds 800,000 messages"},
	} {
		s, fx := Apply(start, tc.act)
		if !strings.Contains(s.Refused.Msg, tc.want) || !strings.Contains(s.Refused.Msg, "pgoutput-inspect decode") {
			t.Errorf("%s: refusal %q, want %q and the command line tool", tc.name, s.Refused.Msg, tc.want)
		}
		if !same(s, start) || len(fx) != 0 || s.Refused.N != start.Refused.N+1 {
			t.Errorf("%s: the view changed (text %d bytes, message %d, node %d), effects %v, refusals %d",
				tc.name, len(s.Text), s.Msg, s.Node, fx, s.Refused.N)
		}
		// The next input that fits is taken, and the message goes: a text, or a hex= link.
		if g := apply(t, s, SetText{Text: txnInsert}); g.Refused.Msg != "" || g.Doc == nil || len(g.Doc.Messages) != 4 {
			t.Errorf("%s: after a good input: refusal %q", tc.name, g.Refused.Msg)
		}
		if g := apply(t, s, OpenFragment{Fragment: "#hex=420000000002e34ae0000292492d0f8ae600000de4"}); g.Refused.Msg != "" || g.Doc == nil || len(g.Doc.Messages) != 1 {
			t.Errorf("%s: after a good hex= link: refusal %q", tc.name, g.Refused.Msg)
		}
		// An empty fragment ("#", or Back to the page before a link): the refusal spoke of an
		// input before it, and goes; the view stays.
		if g := apply(t, s, OpenFragment{}); g.Refused.Msg != "" || !same(g, start) {
			t.Errorf("%s: after an empty fragment: refusal %q, view kept %v", tc.name, g.Refused.Msg, same(g, start))
		}
	}
	// The largest input taken.
	s := apply(t, start, SetText{Text: strings.Repeat("00\n", MaxMessages)})
	if s.Refused.Msg != "" || s.Doc == nil || len(s.Doc.Messages) != MaxMessages {
		t.Errorf("%d messages: %q", MaxMessages, s.Refused.Msg)
	}
}

// Links that do not read, or hold nothing, say so and keep the view.
func TestDamagedAndEmptyLinks(t *testing.T) {
	start := NewState(0)
	for _, tc := range []struct {
		name string
		act  Action
		want string
	}{
		{"inflate error", OpenShared{Err: "TypeError: Failed to fetch"}, "This link is damaged: its data does not inflate (deflate-raw; the browser says: TypeError: Failed to fetch)."},
		{"no empty line", OpenShared{Payload: []byte("proto=1")}, "This link is damaged: the payload has no empty line before the text."},
		{"bad proto", OpenShared{Payload: []byte("proto=9\n\n00")}, "This link is damaged: proto: expected 1 to 4"},
		{"base64", OpenFragment{Fragment: "#z1=AB!D"}, "This link is damaged: expected a base64url character at character 3, found '!'."},
		{"empty z1", OpenFragment{Fragment: "#z1="}, "The link's z1= is empty: there is nothing to decode."},
		{"empty hex", OpenFragment{Fragment: "#hex=&proto=1"}, "The link's hex= is empty: there is nothing to decode."},
		{"empty b64", OpenFragment{Fragment: "b64="}, "The link's b64= is empty: there is nothing to decode."},
	} {
		s, fx := Apply(start, tc.act)
		if !strings.HasPrefix(s.LinkErr, tc.want) || !same(s, start) || len(fx) != 0 {
			t.Errorf("%s: %q (view kept %v, effects %v), want %q", tc.name, s.LinkErr, same(s, start), fx, tc.want)
		}
		if s, _ = Apply(s, OpenFragment{}); s.LinkErr != "" {
			t.Errorf("%s: the error stays once the fragment is gone", tc.name)
		}
	}
}

// A link made from an example names it, and opens with it chosen.
func TestShareKeepsExampleName(t *testing.T) {
	const ex = 3
	s, fx := Apply(StateOfExample(ex), Share{})
	payload := fx[0].(EffectCompress).Payload
	if !strings.Contains(string(payload), "\nexample="+Examples[ex].Name+"\n\n") {
		t.Fatalf("payload %.80q", payload)
	}
	o, _ := Apply(NewState(0), OpenShared{Payload: payload})
	if o.Example != ex || o.Text != AllExamples()[ex].Text || o.Msg != s.Msg {
		t.Errorf("opened with example %d, message %d, want %d and %d", o.Example, o.Msg, ex, s.Msg)
	}
	// An edited example is no longer the example.
	e := apply(t, StateOfExample(ex), SetText{Text: AllExamples()[ex].Text + "\n"})
	_, fx = Apply(e, Share{})
	if p := fx[0].(EffectCompress).Payload; strings.Contains(string(p), "example=") {
		t.Errorf("an edited example shares as %.40q", p)
	}
	// A name the page does not know opens as no example.
	if o, _ := Apply(NewState(0), OpenShared{Payload: []byte("example=Nonesuch\n\n" + txnInsert)}); o.Example != -1 {
		t.Errorf("an unknown example name opens as example %d", o.Example)
	}
}

// After Share and Back, the Share status no longer speaks of the link the address bar left.
func TestBackClearsShareStatus(t *testing.T) {
	s, _ := Apply(NewState(0), Share{})
	s, _ = Apply(s, ShareMade{Compressed: []byte{1, 2, 3}})
	if s.Share.Link == "" {
		t.Fatal("no link")
	}
	// The same link (Forward, or the hashchange of the link itself) keeps it.
	if s2, _ := Apply(s, OpenFragment{Fragment: s.Share.Link}); s2.Share.Link == "" {
		t.Error("the link itself cleared the status")
	}
	if s2, _ := Apply(s, OpenFragment{Fragment: ""}); s2.Share != (ShareState{}) || !same(s2, s) {
		t.Errorf("after Back: share %+v", s2.Share)
	}
}

// A message chosen before it is decoded is decoded, with those before it, and shown.
func TestSelectMessageNotDecodedYet(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: strings.Repeat("420000000002e34ae0000292492d0f8ae600000de4\n", 5*DecodeChunk)})
	if s.Doc.Complete() {
		t.Fatal("decoded whole at once")
	}
	s = apply(t, s, SelectMessage{Msg: 3*DecodeChunk + 7})
	if s.Msg != 3*DecodeChunk+7 || len(s.Doc.Trees) != 4*DecodeChunk {
		t.Errorf("message %d shown, %d decoded; want %d and %d", s.Msg+1, len(s.Doc.Trees), 3*DecodeChunk+8, 4*DecodeChunk)
	}
	for !s.Doc.Complete() {
		s = apply(t, s, DecodeMore{})
	}
	if s.Msg != 3*DecodeChunk+7 {
		t.Errorf("after the rest decoded, message %d shown", s.Msg+1)
	}
}

// Changing a decoding option decodes the message shown at once and the rest a chunk at a
// time, as a paste does, so a long input never freezes the page.
func TestRedecodeIsChunked(t *testing.T) {
	s := apply(t, NewState(-1), SetText{Text: strings.Repeat("420000000002e34ae0000292492d0f8ae600000de4\n", 5*DecodeChunk)})
	for !s.Doc.Complete() {
		s = apply(t, s, DecodeMore{})
	}
	s = apply(t, s, SelectMessage{Msg: 2*DecodeChunk + 5}, SetProto{Proto: 1})
	if got, want := len(s.Doc.Trees), 3*DecodeChunk; got != want || s.Msg != 2*DecodeChunk+5 {
		t.Errorf("after the option changed %d messages are decoded, message %d shown; want %d and %d", got, s.Msg, want, 2*DecodeChunk+5)
	}
	if s.Doc.Options.Proto != 1 {
		t.Errorf("decoded with %+v", s.Doc.Options)
	}
	for !s.Doc.Complete() {
		s = apply(t, s, DecodeMore{})
	}
}

// An input of more messages than the page decodes is read without keeping those past the
// limit: its Doc holds MaxMessages and counts the rest.
func TestTooManyMessagesNotKept(t *testing.T) {
	d, err := NewDoc(strings.Repeat("00\n", 3*MaxMessages), input.Auto, decoder.Options{}, DecodeChunk)
	if err != nil {
		t.Fatal(err)
	}
	if n, over := d.tooMany(); len(d.Messages) != MaxMessages || d.More != 2*MaxMessages || !over || n != 3*MaxMessages {
		t.Errorf("%d messages kept, %d more (tooMany %d, %v)", len(d.Messages), d.More, n, over)
	}
}

// A binary file is read as its bytes, not as a dump of them: one over MaxInput is taken when
// opened from a file (up to MaxFile), and the text box names it instead of showing it.
func TestBinaryFileOverMaxInput(t *testing.T) {
	raw, err := os.ReadFile("../testdata/input/recvlogical/stream.bin") // made by pg_recvlogical -f
	if err != nil {
		t.Fatal(err)
	}
	one, err := input.Parse(raw, input.Auto)
	if err != nil {
		t.Fatal(err)
	}
	copies := MaxInput/len(raw) + 1 // a pg_recvlogical file followed by itself is one still
	big := strings.Repeat(string(raw), copies)
	s := apply(t, NewState(0), SetText{Text: big, File: true, Name: "stream.bin"})
	if s.Refused.Msg != "" || s.Doc == nil || s.Doc.Format != input.RecvLogical || len(s.Doc.Messages) != copies*len(one.Messages) {
		t.Fatalf("refusal %q, doc %v: want %d messages read as %s", s.Refused.Msg, s.Doc != nil, copies*len(one.Messages), input.RecvLogical)
	}
	want := "[The file stream.bin: " + Commas(len(big)) + " bytes, decoded as they are; the box shows no dump of a binary file."
	if got := FileView(s.Text, s.File); !strings.HasPrefix(got, want) {
		t.Errorf("the box shows %q, want it to start %q", got, want)
	}
	// The same bytes not from a file (a paste, a drop of text) are held to MaxInput.
	if g, _ := Apply(NewState(0), SetText{Text: big}); !strings.Contains(g.Refused.Msg, "16 MiB") {
		t.Errorf("not from a file: refusal %q", g.Refused.Msg)
	}
	// Another input forgets the name; a link's binary bytes have none.
	if g := apply(t, s, SetText{Text: txnInsert}); g.File != "" {
		t.Errorf("after a paste the file is still %q", g.File)
	}
	if got := FileView(string(raw), ""); !strings.HasPrefix(got, "[A binary input of 4,994 bytes") {
		t.Errorf("a nameless binary input shows %q", got)
	}
}

// A binary file's link holds its bytes, and opens as the same messages with no name.
func TestBinaryFileShareLink(t *testing.T) {
	raw, err := os.ReadFile("../testdata/input/tshark/pcapng.pcapng") // made by tshark
	if err != nil {
		t.Fatal(err)
	}
	s := apply(t, NewState(0), SetText{Text: string(raw), File: true, Name: "pcapng.pcapng"}, SelectMessage{Msg: 2})
	_, fx := Apply(s, Share{})
	payload := shareAsked(fx)
	if payload == nil {
		t.Fatalf("Share made no payload: %v", fx)
	}
	o := apply(t, NewState(-1), OpenShared{Payload: payload})
	if o.Text != s.Text || o.File != "" || o.Doc == nil || o.Doc.Format != input.Pcapng || len(o.Doc.Messages) != len(s.Doc.Messages) || o.Msg != 2 {
		t.Fatalf("the link opens %d bytes read as %v, message %d, file %q", len(o.Text), o.Doc != nil, o.Msg, o.File)
	}
}

// TestBootKnowsMaxFile: static/boot.js opens a file over MaxFile in parts before main.wasm
// reads it (its own maxFile: reading MaxFile from main.wasm would cost main.wasm bytes); the
// two are the same.
func TestBootKnowsMaxFile(t *testing.T) {
	b, err := os.ReadFile("../static/boot.js")
	if err != nil {
		t.Fatal(err)
	}
	if want := "\nconst maxFile = " + strconv.Itoa(MaxFile>>20) + " << 20;\n"; !strings.Contains(string(b), want) {
		t.Errorf("static/boot.js does not say %q (web.MaxFile is %d MiB)", strings.TrimSpace(want), MaxFile>>20)
	}
}
