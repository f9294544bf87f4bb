package web

import (
	"testing"

	"pgoutput-inspector/internal/dumpjob"
)

// TestConsumerPanel: turning the Consumer panel on takes the timeline's place and asks the
// export worker for the report of the input (kind dumpjob.Consumer, the page's text); its
// answer sets the panel's status and not the Export menu's; a new input while it is shown is
// checked in turn; the timeline turns it off.
func TestConsumerPanel(t *testing.T) {
	s := apply(t, StateOfExample(0), ShowTimeline{On: true})
	s, fx := Apply(s, ShowConsumer{On: true})
	if !s.Consumer.On || s.ShowTimeline || s.Consumer.Status != "Checking the consumers…" {
		t.Fatalf("consumer %+v, timeline %v", s.Consumer, s.ShowTimeline)
	}
	if len(fx) != 1 {
		t.Fatalf("effects %+v", fx)
	}
	d, ok := fx[0].(EffectDump)
	if !ok || d.Job.Kind != dumpjob.Consumer || d.Job.Text != s.Doc.Text || d.Download {
		t.Fatalf("effect %+v", fx[0])
	}
	s = apply(t, s, Dumped{Status: "", Kind: dumpjob.Consumer})
	if s.Consumer.Status != "" || s.Consumer.Err || s.Export.Status != "" {
		t.Errorf("after the report: consumer %+v, export %+v", s.Consumer, s.Export)
	}
	s = apply(t, s, Dumped{Status: "Could not check the consumers: x", Err: true, Kind: dumpjob.Consumer})
	if !s.Consumer.Err || s.Export.Err {
		t.Errorf("after a failure: consumer %+v, export %+v", s.Consumer, s.Export)
	}
	// Nothing more is asked until the input changes.
	if _, fx = Apply(s, SelectMessage{Msg: 1}); len(fx) != 0 {
		for _, f := range fx {
			if _, ok := f.(EffectDump); ok {
				t.Errorf("choosing a message asked for the report again")
			}
		}
	}
	text := s.Doc.Text + "\n"
	s, fx = Apply(s, SetText{Text: text})
	asked := false
	for _, f := range fx {
		if d, ok := f.(EffectDump); ok && d.Job.Kind == dumpjob.Consumer && d.Job.Text == text {
			asked = true
		}
	}
	if !asked || s.Consumer.For != s.Doc {
		t.Errorf("a new input was not checked: %+v", fx)
	}
	if s = apply(t, s, ShowTimeline{On: true}); s.Consumer.On {
		t.Error("the timeline did not turn the Consumer panel off")
	}
}

// TestConsumerSettings: the panel's settings ask for the report again, measured against them;
// the input's next report keeps them.
func TestConsumerSettings(t *testing.T) {
	s := apply(t, StateOfExample(0), ShowConsumer{On: true}, Dumped{Kind: dumpjob.Consumer})
	s, fx := Apply(s, SetConsumerSettings{SenderTimeout: 2000, StatusInterval: 1500})
	if len(fx) != 1 {
		t.Fatalf("effects %+v", fx)
	}
	if d, ok := fx[0].(EffectDump); !ok || d.Job.Kind != dumpjob.Consumer || d.Job.SenderTimeout != 2000 || d.Job.StatusInterval != 1500 {
		t.Fatalf("effect %+v", fx[0])
	}
	s, fx = Apply(s, SetText{Text: txnInsert})
	for _, f := range fx {
		if d, ok := f.(EffectDump); ok && (d.Job.SenderTimeout != 2000 || d.Job.StatusInterval != 1500) {
			t.Errorf("another input's report: %+v", d.Job)
		}
	}
}
