package web

import "pgoutput-inspector/internal/dumpjob"

// The Consumer panel: the consumer check of a capture's replication connections (lags,
// keepalive replies, anomalies: internal/consumer), in the tree's place. The export worker
// writes it (export.wasm holds internal/consumer, main.wasm does not: docs/performance.md) as
// HTML, which static/boot.js puts into the panel's body, through the Export menu's path
// (EffectDump of kind dumpjob.Consumer, then Dumped); its buttons and the chart's points carry
// the message they select.

// ShowConsumer: the Consumer panel was turned on or off.
type ShowConsumer struct{ On bool }

// SetConsumerSettings: the panel's settings changed: the publisher's wal_sender_timeout and
// the consumer's wal_receiver_status_interval, in milliseconds (0: PostgreSQL's default).
type SetConsumerSettings struct{ SenderTimeout, StatusInterval int }

func (ShowConsumer) isAction()        {}
func (SetConsumerSettings) isAction() {}

// ConsumerState is the Consumer panel's state.
type ConsumerState struct {
	// On says the panel is shown. For is the Doc whose report was asked for last; Status says
	// where that report is ("Checking the consumers…", "" once shown, or why it failed: Err).
	On     bool
	For    *Doc
	Status string
	Err    bool
	// SenderTimeout and StatusInterval are the settings the report measures against, in
	// milliseconds (0: PostgreSQL's defaults, 60 s and 10 s).
	SenderTimeout, StatusInterval int

	_ [0]func() // never compared: no equality function for it in main.wasm
}

// consumerOff turns the Consumer panel off: another panel takes the tree's place.
func (s *State) consumerOff() { s.Consumer.On, s.Consumer.For = false, nil }

// syncConsumer asks for the report of Doc while the panel is shown and has not had it.
func (s *State) syncConsumer(fx []Effect) []Effect {
	if !s.Consumer.On || s.Doc == nil || s.Consumer.For == s.Doc {
		return fx
	}
	s.Consumer.For, s.Consumer.Status, s.Consumer.Err = s.Doc, "Checking the consumers…", false
	return append(fx, EffectDump{Job: s.DumpJob(dumpjob.Consumer)})
}
