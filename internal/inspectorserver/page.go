package inspectorserver

import (
	"bytes"
	"errors"
	"strconv"
)

// WASMSizeName names the <meta> element of index.html that gives main.wasm's size in bytes,
// before compression: boot.js shows the download's progress against it ("0.3 of 4.3 MB"). It is
// in the page itself, so the size is known before main.wasm's response starts and needs no
// request of its own; Content-Length cannot give it when main.wasm comes compressed (it then
// counts compressed bytes, while the browser hands over decompressed ones). The server writes
// it into the page as it sends it; ./build.sh dist writes it into the file.
const WASMSizeName = "wasm-size"

// WASMSizeMeta returns the <meta> element giving main.wasm's size.
func WASMSizeMeta(size int64) string {
	return `<meta name="` + WASMSizeName + `" content="` + strconv.FormatInt(size, 10) + `">`
}

// HasWASMSize reports whether the page has a <meta> element giving main.wasm's size.
func HasWASMSize(page []byte) bool {
	return bytes.Contains(page, []byte(`<meta name="`+WASMSizeName+`"`))
}

// charsetMeta is the element of index.html that the <meta> elements written into it follow:
// the first in <head>, before any script or style sheet they must govern.
const charsetMeta = `<meta charset="utf-8">`

// InsertMeta returns a copy of the page with the element on a line of its own right after its
// <meta charset="utf-8">, and an error when the page has none.
func InsertMeta(page []byte, element string) ([]byte, error) {
	at := bytes.Index(page, []byte(charsetMeta))
	if at < 0 {
		return nil, errors.New(`no ` + charsetMeta + ` to put ` + element + ` after`)
	}
	at += len(charsetMeta)
	out := make([]byte, 0, len(page)+1+len(element))
	out = append(out, page[:at]...)
	out = append(out, '\n')
	out = append(out, element...)
	return append(out, page[at:]...), nil
}
