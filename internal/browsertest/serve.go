package browsertest

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"pgoutput-inspector/internal/inspectorserver"
)

// StaticDirEnv names the environment variable that points Serve at an already built page
// directory (./build.sh test sets it to static/ after building it once for all packages).
const StaticDirEnv = "INSPECTOR_STATIC_DIR"

// siteDirPrefix starts the name of the temporary directories Serve builds the page into; the
// name ends with the building process's id, so a later run can remove those of dead processes.
const siteDirPrefix = "pgoutput-inspector-site-"

var site struct {
	once sync.Once
	dir  string
	err  error
}

// Serve serves the page with the inspector server (the same handler, headers and CSP as
// cmd/inspector-server) on 127.0.0.1 and a free port until the test ends, and returns its base
// URL, ending in "/".
//
// The page comes from the directory named by $INSPECTOR_STATIC_DIR when set (./build.sh test
// and bench set it to the static/ they just built). Otherwise Serve builds the page from the
// current source once per test process, with ./build.sh wasm into a temporary directory, so a
// plain `go test` never tests a stale main.wasm and never writes into static/.
func Serve(t testing.TB) string {
	t.Helper()
	return ServeDir(t, StaticDir(t))
}

// StaticDir returns the directory of the built page that Serve serves: $INSPECTOR_STATIC_DIR
// when set, otherwise the page built from the current source once per test process.
func StaticDir(t testing.TB) string {
	t.Helper()
	skipUnderJS(t)
	site.once.Do(func() { site.dir, site.err = siteDir() })
	if site.err != nil {
		t.Fatalf("browsertest: %v", site.err)
	}
	return site.dir
}

// ServeDir serves the files of dir with the inspector server (the page's headers and CSP) on
// 127.0.0.1 and a free port until the test ends, and returns its base URL, ending in "/". It
// is for test pages of their own (a component alone, for instance), which then run under the
// same Content-Security-Policy as the real page.
func ServeDir(t testing.TB, dir string) string {
	t.Helper()
	skipUnderJS(t)
	h, err := handlerFor(dir)
	if err != nil {
		t.Fatalf("browsertest: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// handlers holds one inspector server handler per served directory for the whole test
// process, so main.wasm is compressed once, before the first test's first request, and page
// load times do not include it.
var handlers struct {
	sync.Mutex
	byDir map[string]*inspectorserver.Handler
}

func handlerFor(dir string) (*inspectorserver.Handler, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	handlers.Lock()
	defer handlers.Unlock()
	if h := handlers.byDir[abs]; h != nil {
		return h, nil
	}
	h, err := inspectorserver.New(abs)
	if err != nil {
		return nil, err
	}
	if _, _, err := h.Precompress("main.wasm"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		h.Close()
		return nil, err
	}
	if handlers.byDir == nil {
		handlers.byDir = make(map[string]*inspectorserver.Handler)
	}
	handlers.byDir[abs] = h
	return h, nil
}

// siteDir returns the directory to serve, building it when $INSPECTOR_STATIC_DIR is not set.
func siteDir() (string, error) {
	if dir := os.Getenv(StaticDirEnv); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "main.wasm")); err != nil {
			return "", fmt.Errorf("$%s=%s has no main.wasm (run ./build.sh wasm): %v", StaticDirEnv, dir, err)
		}
		return dir, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	removeStaleSiteDirs()
	dir := filepath.Join(os.TempDir(), siteDirPrefix+strconv.Itoa(os.Getpid()))
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	cmd := exec.Command("bash", filepath.Join(root, "build.sh"), "wasm", dir)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "WASM_SIZE_REPORT=0") // a test needs no size report
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the page (./build.sh wasm %s): %v\n%s", dir, err, out)
	}
	return dir, nil
}

// moduleRoot finds the directory holding go.mod, upwards from the working directory (a test
// runs in its package's directory).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// removeStaleSiteDirs removes page directories built by test processes that have ended.
func removeStaleSiteDirs() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), siteDirPrefix+"*"))
	for _, m := range matches {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(m), siteDirPrefix))
		if err != nil || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(m)
		}
	}
}
