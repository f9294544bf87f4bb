#!/usr/bin/env bash
# Builds, serves and tests the pgoutput inspector.
#
#   ./build.sh wasm [DIR]   build the page into static/ (or into DIR, a copy of static/)
#   ./build.sh serve        build, then serve the page on http://localhost:8080 (PORT changes it)
#   ./build.sh dist [DIR]   build the page into DIR (default dist/) for any static host:
#                           precompressed .br/.gz copies, the CSP as a <meta> element
#   ./build.sh test         every test: gofmt, go vet, native tests (browser and PostgreSQL tests
#                           included), GOOS=js tests under Node
#   ./build.sh bench [PKG…] benchmarks, native and GOOS=js (BENCH=regexp, BENCH_COUNT=n)
#   ./build.sh size [REV]   main.wasm's bytes by package and function, against git revision REV
#                           (default main): what the working tree adds
#
# Environment: PORT (serve), GO_TEST_TIMEOUT (test, default 20m per package binary),
# GO_TEST_FLAGS (extra flags for go test, e.g. "-run Browser -v"), WASM_SIZE_REPORT=0 (wasm,
# dist, serve: no size report by package).
set -euo pipefail

cd "$(dirname "$0")"
ROOT=$PWD

# How main.wasm is compiled, besides -trimpath -ldflags="-s -w -buildid=" (docs/performance.md,
# "WASM size"; no build ID: the same source gives the same file, and the ID's 40-odd random
# bytes no longer move the brotli size by about 1 KB). The input readers, the hex view's
# renderer, the components and the value formatter are compiled without inlining: 63 KB less
# main.wasm for parsing, drawing and decoding a little slower, inside their budgets
# (docs/performance.md, "Size tricks"). scripts/wasmsize builds with the same gcflags.
WASM_GCFLAGS=(-gcflags=pgoutput-inspector/input=-l -gcflags=pgoutput-inspector/hexview/render=-l
	-gcflags=pgoutput-inspector/web/ui=-l -gcflags=pgoutput-inspector/decoder/pgvalue=-l)

# Packages that build for GOOS=js (the ones that go into main.wasm, and export.wasm's
# internal/dump); tested under Node too.
JS_PACKAGES=(decoder input internal/export internal/dumpjob internal/dump internal/guide hexview web)
# CSS files that live beside their package and are served from static/ under their base name.
PACKAGE_CSS=(hexview/hexview.css)

say() { printf '\n==> %s\n' "$*" >&2; }
die() { printf '\nbuild.sh: %s\n' "$*" >&2; exit 1; }

go_root() { go env GOROOT; }

# js_package_patterns prints ./P/... for each of JS_PACKAGES that exists and has Go files.
js_package_patterns() {
	local p
	for p in "${JS_PACKAGES[@]}"; do
		if [ -n "$(find "$p" -name '*.go' -print -quit 2>/dev/null)" ]; then
			echo "./$p/..."
		fi
	done
}

# node_options prints NODE_OPTIONS for the GOOS=js tests: $NODE_OPTIONS plus a --require of
# every testdata/vecty_node.js in the GOOS=js packages. vecty stops a program at start-up
# unless there is a global document; those files give Node one (when it has none) for tests
# that only build vecty trees.
node_options() {
	local opts=${NODE_OPTIONS:-} f
	while IFS= read -r f; do
		opts+=" --require=$ROOT/$f"
	done < <(find "${JS_PACKAGES[@]}" -path '*/testdata/vecty_node.js' 2>/dev/null | sort)
	echo "${opts# }"
}

# build_wasm [DIR [SITE_FLAG…]]: wasm_exec.js, the package CSS files, main.wasm and export.wasm into DIR
# (default static), then scripts/site with SITE_FLAGs: the precompressed .br/.gz copies the
# server sends (and, for dist, the <meta> elements a static host needs in index.html). A DIR
# other than static/ first gets a copy of static/ (index.html, boot.js, style.css…). Every
# command checks its own status ("|| return"): callers may run this where set -e is off.
build_wasm() {
	local out=${1:-static}
	shift || true
	if [ "$(cd "$out" 2>/dev/null && pwd)" != "$ROOT/static" ]; then
		mkdir -p "$out" || return
		cp -R static/. "$out/" || return
	fi
	cp "$(go_root)/lib/wasm/wasm_exec.js" "$out/wasm_exec.js" || return
	local css
	for css in "${PACKAGE_CSS[@]}"; do
		if [ -f "$css" ]; then
			cp "$css" "$out/$(basename "$css")" || return
		else
			# index.html links it; an empty file keeps the page free of 404s until it exists.
			printf '/* %s: not written yet */\n' "$css" >"$out/$(basename "$css")" || return
		fi
	done
	# go build leaves an up-to-date main.wasm alone, and wasmpack below wants the linker's output
	# (the link itself comes from the build cache).
	rm -f "$out/main.wasm" || return
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w -buildid=" "${WASM_GCFLAGS[@]}" -o "$out/main.wasm" ./wasm || return
	# The runtime's findfunctab written by a start function instead of 39,000 data segments, and
	# data segments separated by short runs of zeros joined: the same memory, 0.36 MB smaller
	# raw and 55 KB smaller with brotli; every function's PC-to-line table replaced by one that
	# gives line 0, 68.7 KB less with brotli, and its PC-to-file table dropped, 26.9 KB less
	# (a panic's trace names each function, at "?:0"); the tables still used then moved
	# together to pctab's start and the old tables' bytes left unwritten, and so the file names
	# and compilation units (filetab, cutab) that only a PC-to-file table leads to, 11.7 KB raw
	# and 2.7 KB brotli less (docs/performance.md, "Size tricks").
	go run ./scripts/wasmpack "$out/main.wasm" || return
	# The export worker's program (the command line tool's dump writers, which main.wasm does not
	# hold), fetched by static/export-worker.js on the page's first dump export only; packed the
	# same way.
	rm -f "$out/export.wasm" || return
	GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w -buildid=" "${WASM_GCFLAGS[@]}" -o "$out/export.wasm" ./wasm/export || return
	go run ./scripts/wasmpack "$out/export.wasm" || return
	# The field guide's text, which the page fetches when the guide is first opened.
	go run ./scripts/guide -asset "$out/guide.txt" || return
	# The HTML of the guide's pages, rendered from it (the page inserts them as it shows them).
	go run ./scripts/guideview "$out" || return
	# Prints main.wasm's and export.wasm's sizes: raw, brotli (quality 11: some seconds) and gzip.
	go run ./scripts/site "$@" "$out" || return
	if [ "${WASM_SIZE_REPORT:-1}" != 0 ]; then
		# The largest packages, and every package whose size changed since this checkout's
		# previous build: a second link, with names and the linker's dependency list.
		go run ./scripts/wasmsize -since-last -brief -packages 10 ./wasm "${WASM_GCFLAGS[@]}" || return
	fi
}

# ensure_chromium installs Debian's chromium when running as root, or says how to.
ensure_chromium() {
	if [ -x /usr/bin/chromium ]; then
		return
	fi
	local cmd="apt-get update && apt-get install -y chromium"
	if [ "$(id -u)" -ne 0 ]; then
		die "the browser tests need Chromium (/usr/bin/chromium). Install it with:
    sudo sh -c '$cmd'"
	fi
	say "installing Chromium: $cmd"
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
}

# ensure_firefox installs Debian's firefox-esr when running as root, or says how to: the page
# tests run in Firefox too.
ensure_firefox() {
	if [ -x /usr/bin/firefox-esr ]; then
		return
	fi
	local cmd="apt-get update && apt-get install -y firefox-esr"
	if [ "$(id -u)" -ne 0 ]; then
		die "the browser tests need Firefox (/usr/bin/firefox-esr). Install it with:
    sudo sh -c '$cmd'"
	fi
	say "installing Firefox: $cmd"
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y firefox-esr
}

# ensure_node checks for Node.js, which runs the GOOS=js tests.
ensure_node() {
	if command -v node >/dev/null; then
		return
	fi
	local cmd="apt-get update && apt-get install -y nodejs"
	if [ "$(id -u)" -ne 0 ]; then
		die "the GOOS=js tests need Node.js (node). Install it with:
    sudo sh -c '$cmd'"
	fi
	say "installing Node.js: $cmd"
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs
}

cmd_wasm() {
	build_wasm "$@"
}

# cmd_dist [DIR]: the page as a folder any static host can serve (README, "Publishing").
cmd_dist() {
	local out=${1:-dist}
	if [ -d "$out" ] && [ -n "$(ls -A "$out")" ]; then
		# Only an earlier dist is replaced: never a folder of something else.
		[ -f "$out/main.wasm" ] && grep -qs '<meta name="wasm-size"' "$out/index.html" ||
			die "$out is not empty and is not an earlier ./build.sh dist; name an empty or new folder"
		find "$out" -mindepth 1 -delete
	fi
	# index.html gets the Content-Security-Policy and main.wasm's size (for the loading
	# progress) as <meta> elements: a static host sends neither.
	build_wasm "$out" -meta-csp -meta-size
	say "$out is ready: serve it as static files (README.md, Publishing)"
}

cmd_serve() {
	build_wasm
	mkdir -p bin
	go build -o bin/inspector-server ./cmd/inspector-server
	exec bin/inspector-server -dir static
}

# install_hooks links the repository's commit-msg hook (scripts/commitmsg) into this checkout's
# git hooks, unless a hook of another kind is there.
install_hooks() {
	local dir
	dir=$(git rev-parse --git-path hooks 2>/dev/null) || return 0
	mkdir -p "$dir" || return 0
	if [ ! -e "$dir/commit-msg" ] || [ -L "$dir/commit-msg" ]; then
		ln -sf "$ROOT/scripts/commitmsg/commit-msg" "$dir/commit-msg"
	fi
}

cmd_test() {
	install_hooks
	ensure_chromium
	ensure_firefox
	ensure_node
	export WASM_SIZE_REPORT=0 # the builds of the tests (and the test's own) need no size report

	local failed=()
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT # log is global: the trap runs after this function has returned
	# step NAME CMD…: runs CMD with its output shown and kept in $log; a failure is remembered
	# and the remaining steps still run, so one run shows every failure.
	step() {
		local name=$1
		shift
		say "$name"
		if ! "$@" 2>&1 | tee -a "$log"; then
			failed+=("$name")
			printf '\nbuild.sh: FAILED: %s\n' "$name" >&2
		fi
	}

	# gofmt lists files that are not formatted; its exit code does not say so.
	gofmt_check() {
		local files
		files=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))
		if [ -n "$files" ]; then
			printf 'not gofmt-formatted:\n%s\n' "$files"
			return 1
		fi
	}
	# Browser tests in these packages skip themselves under GOOS=js (see internal/browsertest);
	# they run in the native step.
	local js_pkgs
	mapfile -t js_pkgs < <(js_package_patterns)

	# The tests report one line per package as each finishes, in the order they finish, and
	# print at once what a test announces (internal/announce: the download of a PostgreSQL
	# build, of an npm package), so a long wait says why (scripts/testlines reads go test
	# -json). With -v in GO_TEST_FLAGS, go test prints everything itself.
	testlines=$(mktemp) # global, like log, for the exit trap
	trap 'rm -f "$log" "$testlines"' EXIT
	step "build scripts/testlines" go build -o "$testlines" ./scripts/testlines
	# go_test [VAR=value…] ARGS…: go test ARGS with the variables set, reported by testlines.
	go_test() {
		local env=()
		while [[ ${1:-} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
			env+=("$1")
			shift
		done
		if [[ " ${GO_TEST_FLAGS:-} " == *" -v "* ]]; then
			env "${env[@]}" go test "$@"
		else
			env "${env[@]}" go test -json "$@" 2>&1 | "$testlines"
		fi
	}

	step "gofmt" gofmt_check
	step "go vet" go vet ./...
	step "go vet (GOOS=js)" env GOOS=js GOARCH=wasm go vet ./wasm/... "${js_pkgs[@]}"
	local failures_before=${#failed[@]}
	step "build static/main.wasm" build_wasm
	# The browser tests serve this directory instead of building a copy of their own; not after
	# a failed build, which may leave an old main.wasm behind (they then build and fail alone).
	if [ ${#failed[@]} -eq "$failures_before" ]; then
		export INSPECTOR_STATIC_DIR=$ROOT/static
	fi
	# shellcheck disable=SC2086 # GO_TEST_FLAGS is a list of flags.
	step "go test (native, with browser and PostgreSQL tests)" \
		go_test -count=1 -timeout "${GO_TEST_TIMEOUT:-20m}" ${GO_TEST_FLAGS:-} ./...
	if [ ${#js_pkgs[@]} -gt 0 ]; then
		# shellcheck disable=SC2086
		step "go test (GOOS=js GOARCH=wasm, under Node)" \
			go_test GOOS=js GOARCH=wasm PATH="$(go_root)/lib/wasm:$PATH" NODE_OPTIONS="$(node_options)" \
			-count=1 -timeout "${GO_TEST_TIMEOUT:-20m}" ${GO_TEST_FLAGS:-} "${js_pkgs[@]}"
	fi

	local passed failures
	passed=$(grep -c '^ok ' "$log" || true)
	failures=$(grep -c '^FAIL[[:space:]]' "$log" || true)
	echo
	if [ ${#failed[@]} -gt 0 ]; then
		local f
		printf 'build.sh test: FAILED:\n'
		for f in "${failed[@]}"; do
			printf '  %s\n' "$f"
		done
		printf 'packages: %d passed, %d failed\n' "$passed" "$failures"
		exit 1
	fi
	printf 'build.sh test: gofmt, go vet, native and GOOS=js tests all passed\n'
	printf 'packages: %d passed, %d failed\n' "$passed" "$failures"
}

cmd_bench() {
	ensure_chromium
	ensure_node
	export WASM_SIZE_REPORT=0
	build_wasm
	export INSPECTOR_STATIC_DIR=$ROOT/static
	local pkgs=("$@")
	if [ ${#pkgs[@]} -eq 0 ]; then
		pkgs=(./...)
	fi
	local flags=(-run '^$' -bench "${BENCH:-.}" -benchmem -count "${BENCH_COUNT:-1}" -timeout 60m)
	say "benchmarks (native)"
	go test "${flags[@]}" "${pkgs[@]}"
	local js_pkgs
	mapfile -t js_pkgs < <(js_package_patterns)
	if [ $# -gt 0 ]; then
		js_pkgs=("$@")
	fi
	if [ ${#js_pkgs[@]} -gt 0 ]; then
		say "benchmarks (GOOS=js GOARCH=wasm, under Node)"
		GOOS=js GOARCH=wasm PATH="$(go_root)/lib/wasm:$PATH" NODE_OPTIONS="$(node_options)" \
			go test "${flags[@]}" "${js_pkgs[@]}"
	fi
}

# cmd_size [REV]: main.wasm by package and its largest functions and data, with what changed
# against git revision REV (default main), built from `git archive REV` in a temporary folder.
cmd_size() {
	go run ./scripts/wasmsize -against "${1:-main}" -top 25 ./wasm "${WASM_GCFLAGS[@]}"
}

usage() {
	sed -n '2,18s/^# \{0,1\}//p' "$0"
}

case "${1:-}" in
wasm | serve | dist | test | bench | size)
	cmd=$1
	shift
	"cmd_$cmd" "$@"
	;;
-h | --help | help)
	usage
	;;
*)
	usage >&2
	exit 2
	;;
esac
