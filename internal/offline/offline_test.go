package offline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func page(t *testing.T) string {
	dir := t.TempDir()
	for _, name := range Files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("content of "+name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestWrite: sw.js names its cache after the files, lists them, and changes with any of them.
func TestWrite(t *testing.T) {
	dir := page(t)
	id, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	sw, err := os.ReadFile(filepath.Join(dir, WorkerName))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`const build = "` + id + `";`, `"export.wasm"`, `"index.html"`} {
		if !bytes.Contains(sw, []byte(want)) {
			t.Errorf("sw.js lacks %s", want)
		}
	}
	if bytes.Contains(sw, []byte("{{")) {
		t.Error("sw.js has a placeholder left")
	}
	if again, _ := Write(dir); again != id {
		t.Errorf("the same files gave identity %s, then %s", id, again)
	}
	if err := os.WriteFile(filepath.Join(dir, "page.css"), []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if other, _ := Identity(dir); other == id {
		t.Error("a changed page.css left the identity as it was")
	}
}

// TestWriteMissing: a build without one of the files writes no worker.
func TestWriteMissing(t *testing.T) {
	dir := page(t)
	os.Remove(filepath.Join(dir, "guide.txt"))
	if _, err := Write(dir); err == nil {
		t.Error("Write without guide.txt did not fail")
	}
	if _, err := os.Stat(filepath.Join(dir, WorkerName)); err == nil {
		t.Error("sw.js written without guide.txt")
	}
}
