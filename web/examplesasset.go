package web

import (
	"errors"
	"strconv"
	"strings"

	"pgoutput-inspector/input"
)

// The examples menu's captures, but the first one's, are not in main.wasm: they are the
// examples asset beside it, which the page fetches when another example is first chosen. The
// menu itself (Examples: each example's name and description) and the first example's
// capture, which the page shows when it opens, stay in main.wasm, so the first decoded
// example and share links that name an example (they carry their text) wait for no fetch.
//
// The asset is chunks (see readChunks) after the line examplesMagic: one for each example
// after the first, keyed by its name, holding the index of the message it shows first and
// its capture's source on a line each, then the capture (as the guide view's example
// chunks). TestGenerateExamples writes it with AppendExamples.

// ExamplesAsset is the examples asset's file beside main.wasm (static/examples.txt).
const ExamplesAsset = "examples.txt"

// examplesMagic is the examples asset's first line; a new layout gets a new number.
const examplesMagic = "pgoutput-examples 1"

// EffectFetchExamples asks for the examples asset (ExamplesAsset), then an ExamplesLoaded
// action.
type EffectFetchExamples struct{}

func (EffectFetchExamples) isEffect() {}

// AppendExamples appends the examples asset of the menu exs: the captures of exs[1:]. A name
// or source with a line break cannot be written.
func AppendExamples(dst []byte, exs []Example) ([]byte, error) {
	dst = append(dst, examplesMagic+"\n"...)
	for _, ex := range exs[1:] {
		if strings.ContainsAny(ex.Name+ex.Source, "\n") {
			return nil, errors.New("example " + strconv.Quote(ex.Name) + ": a line break in its name or source")
		}
		dst = AppendChunk(dst, ex.Name, strconv.Itoa(ex.Select)+"\n"+ex.Source+"\n"+ex.Text)
	}
	return dst, nil
}

// readMenu reads the examples asset: the chunks by example name. Every example of the menu
// after the first must have a chunk that reads (captureOf), or the asset is another build's.
func readMenu(asset string) (map[string]string, error) {
	chunks := map[string]string{}
	if err := readChunks(asset, ExamplesAsset, examplesMagic, func(key, c string) { chunks[key] = c }); err != nil {
		return nil, err
	}
	for _, ex := range Examples[1:] {
		if _, _, _, ok := captureOf(chunks[ex.Name]); !ok {
			return nil, errors.New(ExamplesAsset + " has no example \"" + ex.Name + "\": it is another build's; reload the page")
		}
	}
	return chunks, nil
}

// ReadExamples returns the examples menu with every example's capture, the captures after
// the first read from the examples asset.
func ReadExamples(asset string) ([]Example, error) {
	chunks, err := readMenu(asset)
	if err != nil {
		return nil, err
	}
	m := ExampleMenu{Chunks: chunks}
	out := make([]Example, len(Examples))
	for i := range out {
		out[i], _ = m.example(i)
	}
	return out, nil
}

// captureOf reads an example's chunk: the index of the message shown first and the capture's
// source on a line each, then the capture.
func captureOf(c string) (text string, sel int, source string, ok bool) {
	n, c, _ := strings.Cut(c, "\n")
	source, text, _ = strings.Cut(c, "\n")
	sel, ok = input.Atoi(n)
	return text, sel, source, ok && sel >= 0 && text != ""
}

// The assets beside main.wasm that the page reads (GuideViewAsset, ExamplesAsset) are chunks:
// after a first line that names the asset and its layout, each chunk is a line "@KEY LENGTH"
// (KEY may hold spaces), LENGTH bytes and a line break. AppendChunk writes one chunk;
// readChunks is their one reader.

// AppendChunk appends a chunk of an asset: the line "@KEY LENGTH", content and a line break.
func AppendChunk(dst []byte, key, content string) []byte {
	dst = append(dst, '@')
	dst = append(dst, key...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(len(content)), 10)
	dst = append(dst, '\n')
	dst = append(dst, content...)
	return append(dst, '\n')
}

// readChunks reads the asset file, which must start with the line magic, and calls each with
// every chunk's key and content, in order. An error names the byte of the asset where it
// departs from its layout.
func readChunks(asset, file, magic string, each func(key, content string)) error {
	rest, ok := strings.CutPrefix(asset, magic+"\n")
	why := "it does not start with the line \"" + magic + "\": it is another build's; reload the page"
	for ok && rest != "" {
		key, r, _ := strings.Cut(rest, "\n")
		sp := strings.LastIndexByte(key, ' ')
		n, okN := 0, false
		if sp > 0 && key[0] == '@' {
			n, okN = input.Atoi(key[sp+1:])
		}
		if ok = okN && n >= 0 && n < len(r) && r[n] == '\n'; !ok {
			why = "the line \"" + Cut(key, 40) + "\" does not frame a chunk (\"@KEY LENGTH\", LENGTH bytes, a line break)"
			break
		}
		each(key[1:sp], r[:n])
		rest = r[n+1:]
	}
	if !ok {
		return errors.New(file + ": byte " + strconv.Itoa(len(asset)-len(rest)) + ": " + why)
	}
	return nil
}
