package input

import "pgoutput-inspector/decoder"

// scoreLimit bounds how many messages choose decodes to score a reading.
const scoreLimit = 64

// decodeScore returns how many of the first messages of r decode without an error, and how
// many it tried. It asks the decoder whether each fits, which records no annotation: scoring
// one message of 50 MB costs no memory beyond the message.
func decodeScore(r *Result) (ok, n int) {
	sess := decoder.NewSession(decoder.Options{})
	for i := range r.Messages {
		if i == scoreLimit {
			break
		}
		n++
		if sess.Check(r.Messages[i].Bytes) == nil {
			ok++
		}
	}
	return ok, n
}

// alsoWhole is the longest text whose other readings are looked at even when its messages
// all decode, so that a second reading that decodes too is named (Result.Also): reading a
// text again costs as much as the first reading.
const alsoWhole = 1 << 20

// sameMessages reports whether two readings give the same bytes.
func sameMessages(a, b *Result) bool {
	if len(a.Messages) != len(b.Messages) {
		return false
	}
	for i := range a.Messages {
		if string(a.Messages[i].Bytes) != string(b.Messages[i].Bytes) {
			return false
		}
	}
	return true
}

func totalBytes(r *Result) int {
	n := 0
	for i := range r.Messages {
		n += len(r.Messages[i].Bytes)
	}
	return n
}

// choose looks at the other readings of a text read as r when some of r's messages do not
// decode, or when the text is short (alsoWhole): a reading whose messages decode better is
// taken instead, and a reading whose messages all decode is named in Also.
func choose(text []byte, r *Result) *Result {
	fs := rivals(r.Format)
	if fs == nil {
		return r
	}
	ok, n := decodeScore(r)
	if ok == n && len(text) > alsoWhole {
		return r
	}
	best, bestOK, bestN := r, ok, n
	var also []*Result
	for _, f := range fs {
		alt, err := parse(text, f)
		if err != nil || alt == nil || len(alt.Messages) == 0 || sameMessages(alt, r) ||
			ok == n && totalBytes(alt) < totalBytes(r) {
			// r's messages all decode: another reading counts when it reads as many bytes
			// (a reading that leaves out what it cannot place is no rival).
			continue
		}
		aok, an := decodeScore(alt)
		if aok*bestN > bestOK*an {
			also = append(also, best)
			best, bestOK, bestN = alt, aok, an
		} else if aok == an {
			also = append(also, alt)
		}
	}
	for _, a := range also {
		if a == best {
			continue
		}
		aok, an := decodeScore(a)
		note := "its messages decode less well"
		if aok == an {
			note = "its messages decode too"
		}
		best.Also = append(best.Also, Alternative{Format: a.Format, Messages: len(a.Messages),
			Note: itoa(aok) + " of " + itoa(an) + " messages decode; " + note})
	}
	if best != r {
		best.Notes = append(best.Notes, Note{Message: -1, Text: "Read as " + string(best.Format) + " rather than " + string(r.Format) +
			": " + itoa(bestOK) + " of " + itoa(bestN) + " messages decode that way, " + itoa(ok) + " of " + itoa(n) + " the other."})
	}
	return best
}
