#!/usr/bin/env bash
# build.sh: the one entry point of the EchoMQ Playground.
#
#   ./build.sh [build]                  build the site into static/
#   ./build.sh serve [-port N | -addr HOST:PORT] [-csp=false]
#                                       build, then serve static/ (default 127.0.0.1:8080)
#   ./build.sh test                     build, then run every check and test suite
#   ./build.sh bench [ARGS...]          build, then run the benchmarks (go run ./bench)
#   ./build.sh fuzz [TIME]              run every Go fuzz target for TIME each (default 1m)
#
# Works from any directory. As root, test and bench install what they miss
# (redis-server, nodejs, gcc; test also chromium, redis-tools and tcl) with apt-get; otherwise they
# say what to install.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
ROOT="$(pwd -P)"
STATIC="$ROOT/static"
# The build flags of the browser module (load_wasm_flags fills it):
# wasm/gcflags.txt's lines and the overlay that leaves crypto/tls out, from
# internal/wasmflags, which the benchmark and Redis's suite read too.
WASM_GCFLAGS=()

# The units of Redis's suite ./build.sh test runs against the wasm module
# (all of them run natively): the ones that take seconds there. The whole
# suite took 51 minutes in wasm on a loaded machine, 39 of them in
# type/string, zset and scripting, where every move of the engine's clock
# visits every key (see internal/suite).
SUITE_WASM_UNITS="type/incr,keyspace,dump,info-command,multi,expire,functions,introspection,bitops,bitfield,type/stream-cgroups"

# The most the browser module may weigh, brotli-compressed, as
# ./web/cmd/compress writes static/echomq.wasm.br; ./build.sh test fails
# past it.
WASM_SIZE_LINE=2100000

# ---- output helpers ------------------------------------------------------

STEPS_PASSED=0
CURRENT_STEP=""

# section NAME: closes the previous step as passed and announces the next.
section() {
	if [[ -n "$CURRENT_STEP" ]]; then
		STEPS_PASSED=$((STEPS_PASSED + 1))
	fi
	CURRENT_STEP="$1"
	printf '\n==> %s\n' "$1"
}

# finish VERB: closes the last step and prints the summary: which verb
# succeeded, then the count of steps (not of tests; the test runners above
# print their own counts).
finish() {
	if [[ -n "$CURRENT_STEP" ]]; then
		STEPS_PASSED=$((STEPS_PASSED + 1))
		CURRENT_STEP=""
	fi
	printf '\n==> build.sh %s: OK\n' "$1"
	printf 'steps: %d passed, 0 failed\n' "$STEPS_PASSED"
}

on_exit() {
	local rc=$?
	if [[ $rc -ne 0 && -n "$CURRENT_STEP" ]]; then
		printf '\n==> build.sh FAILED at step "%s" (exit %d)\n' "$CURRENT_STEP" "$rc" >&2
		printf 'steps: %d passed, 1 failed\n' "$STEPS_PASSED" >&2
	fi
}
trap on_exit EXIT

die() {
	printf 'build.sh: %s\n' "$*" >&2
	exit 1
}

in_git_checkout() {
	git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1
}

# ---- tools ---------------------------------------------------------------

# need_tools CMD...: makes sure each command exists. As root, installs the
# Debian packages for the missing ones (one apt-get update, one install);
# otherwise prints what to install and fails.
need_tools() {
	local cmd pkgs=() missing=()
	for cmd in "$@"; do
		command -v "$cmd" >/dev/null 2>&1 && continue
		missing+=("$cmd")
		case "$cmd" in
		redis-server) pkgs+=(redis-server) ;;
		redis-cli) pkgs+=(redis-tools) ;; # the cluster test makes its cluster with it
		node) pkgs+=(nodejs) ;;
		gcc) pkgs+=(gcc) ;; # the race detector needs cgo
		chromium) pkgs+=(chromium) ;; # the browser tests (web/browser)
		tclsh) pkgs+=(tcl) ;; # Redis's own test suite (internal/suite)
		*) pkgs+=("$cmd") ;;
		esac
	done
	[[ ${#pkgs[@]} -eq 0 ]] && return 0
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
		section "install ${pkgs[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update
		apt-get install -y "${pkgs[@]}"
	else
		die "missing ${missing[*]}; install the Debian packages: sudo apt-get install -y ${pkgs[*]}"
	fi
}

wasm_exec_dir() {
	local goroot
	goroot="$(go env GOROOT)"
	if [[ -f "$goroot/lib/wasm/wasm_exec.js" ]]; then
		echo "$goroot/lib/wasm"
	elif [[ -f "$goroot/misc/wasm/wasm_exec.js" ]]; then
		echo "$goroot/misc/wasm" # Go 1.23 and older
	else
		die "wasm_exec.js not found under $goroot/lib/wasm or $goroot/misc/wasm"
	fi
}

# ---- steps ---------------------------------------------------------------

# load_wasm_flags: the browser module's build flags into WASM_GCFLAGS, from
# internal/wasmflags (which also writes the overlay, per machine, into
# .cache).
load_wasm_flags() {
	local out
	out="$(go run ./internal/wasmflags/print -root "$ROOT")" ||
		die "go run ./internal/wasmflags/print failed: the browser module's flags are unknown"
	mapfile -t WASM_GCFLAGS <<<"$out"
	[[ ${#WASM_GCFLAGS[@]} -gt 1 ]] || die "internal/wasmflags gave no flags"
}

templ_generate() {
	go tool templ generate -path "$ROOT/web" -log-level warn
}

# templ_fresh: regenerates the templ output and fails if that changed any
# committed *_templ.go (someone edited a .templ and did not regenerate).
templ_fresh() {
	templ_generate
	if in_git_checkout; then
		if ! git -C "$ROOT" diff --exit-code --stat -- '*_templ.go'; then
			die "generated *_templ.go files are stale: run ./build.sh build and commit them"
		fi
	else
		echo "(not a git checkout: generated files not compared)"
	fi
}

# no_templ_in_wasm: the browser build must not link the page renderer,
# nor the bundler that makes the page's scripts (esbuild).
no_templ_in_wasm() {
	local bad
	bad="$(GOOS=js GOARCH=wasm go list -deps ./wasm/... |
		grep -E '^(echomq\.dev/playground/web(/|$)|github\.com/a-h/templ(/|$)|github\.com/evanw/esbuild(/|$))' || true)"
	if [[ -n "$bad" ]]; then
		die "./wasm must not depend on the web side; it imports: $bad"
	fi
}

do_build() {
	section "go mod download"
	go mod download

	section "templ generate"
	templ_generate

	section "check that ./wasm does not import web/, templ or esbuild"
	no_templ_in_wasm

	section "build static/echomq.wasm"
	mkdir -p "$STATIC"
	load_wasm_flags
	# WASM_GCFLAGS keeps inlining out where it costs size, not speed (see
	# wasm/gcflags.txt), and crypto/tls out (see wasm/notls).
	GOOS=js GOARCH=wasm go build -trimpath "${WASM_GCFLAGS[@]}" -ldflags='-s -w' -o "$STATIC/echomq.wasm" ./wasm

	section "copy wasm_exec.js"
	cp "$(wasm_exec_dir)/wasm_exec.js" "$STATIC/wasm_exec.js"

	section "render pages"
	# ECHOMQ_SITE_URL (https://course.example/echomq/), where the site will
	# be served, gives each widget an oEmbed description.
	go run ./web/cmd/render -out "$STATIC" -assets "$ROOT/web/assets" -wasm "$STATIC/echomq.wasm" \
		${ECHOMQ_SITE_URL:+-site-url "$ECHOMQ_SITE_URL"}

	section "precompress (gzip, brotli)"
	go run ./web/cmd/compress -dir "$STATIC"
}

do_test() {
	need_tools redis-server redis-cli node gcc chromium tclsh
	# Fidelity tests start redis-server themselves, and the browser tests
	# chromium; in CI a missing one is a failure, not a skip (nor a replay
	# of the recorded replies), and they learn which it is from CI. The
	# js/wasm step below cannot start processes: there the fidelity,
	# differential and Lua-library suites replay the replies recorded in
	# their testdata.
	export CI="${CI:-}"
	# The browser tests (web/browser, in the go test -race step) load the
	# site built here.
	export ECHOMQ_STATIC="$STATIC"

	do_build

	# The size line (issue 25): what a learner on a slow link downloads
	# before the engine can answer. The raw size is printed beside it.
	section "wasm size line (at most $WASM_SIZE_LINE B brotli)"
	local br raw
	br=$(stat -c %s "$STATIC/echomq.wasm.br")
	raw=$(stat -c %s "$STATIC/echomq.wasm")
	printf 'static/echomq.wasm: %d B brotli (%d B raw), line %d B, room %d B\n' "$br" "$raw" "$WASM_SIZE_LINE" $((WASM_SIZE_LINE - br))
	if ((br > WASM_SIZE_LINE)); then
		die "the module is $br B brotli, past the size line of $WASM_SIZE_LINE B"
	fi

	# The module the RESP listener serves (wasm/listen.mjs: the suite's wasm
	# target, wasm/listen.test.mjs): the site's, with the listener's
	# exports (-tags wire), which the site's module leaves out.
	section "build .cache/wire/echomq.wasm (-tags wire)"
	mkdir -p "$ROOT/.cache/wire"
	GOOS=js GOARCH=wasm go build -trimpath -tags wire "${WASM_GCFLAGS[@]}" -ldflags='-s -w' -o "$ROOT/.cache/wire/echomq.wasm" ./wasm
	cp "$(wasm_exec_dir)/wasm_exec.js" "$ROOT/.cache/wire/wasm_exec.js"
	export ECHOMQ_WIRE_WASM="$ROOT/.cache/wire/echomq.wasm"

	section "gofmt"
	local files=() unformatted
	if in_git_checkout; then
		while IFS= read -r -d '' f; do
			if [[ -f "$f" ]]; then files+=("$f"); fi
		done < <(git -C "$ROOT" ls-files -z --cached --others --exclude-standard -- '*.go')
	else
		while IFS= read -r -d '' f; do
			files+=("$f")
		done < <(find . -name '*.go' -not -path './static/*' -print0)
	fi
	if [[ ${#files[@]} -gt 0 ]]; then
		unformatted="$(gofmt -l "${files[@]}")"
		if [[ -n "$unformatted" ]]; then
			printf 'not gofmt-ed (run gofmt -w on them):\n%s\n' "$unformatted" >&2
			exit 1
		fi
	fi
	echo "${#files[@]} files formatted"

	section "go vet (host)"
	go vet ./...

	section "go vet (js/wasm)"
	GOOS=js GOARCH=wasm go vet ./wasm/...

	section "templ output is fresh"
	templ_fresh

	section "command cards are fresh"
	go run ./web/cmd/cards -check "$ROOT/web/page/cards.json"

	# -timeout: go test's default of 10 minutes a package is what the
	# fidelity and browser packages took on a machine with a load average
	# of 22 (both were stopped at 10m0s, passing); no test asserts a time.
	section "go test -race (host)"
	CGO_ENABLED=1 go test -race -count=1 -timeout 45m ./...

	# Each fuzz target for a moment beyond its seed corpus (which go test
	# above ran): enough to catch a target that fails at once, in CI too.
	# ./build.sh fuzz runs them longer.
	section "fuzz targets, ${FUZZ_TEST_TIME:-2s} each"
	run_fuzz "${FUZZ_TEST_TIME:-2s}"

	section "go test (js/wasm under Node)"
	GOOS=js GOARCH=wasm go test -count=1 -timeout 45m "${WASM_GCFLAGS[@]}" -exec "$(wasm_exec_dir)/go_js_wasm_exec" ./wasm/...

	# (web/assets/test/*.test.mjs run inside go test, in web/page.)
	section "node --test wasm/*.test.mjs"
	local mjs=()
	shopt -s nullglob
	mjs=(wasm/*.test.mjs)
	shopt -u nullglob
	[[ ${#mjs[@]} -gt 0 ]] || die "no wasm/*.test.mjs: the JS contract tests are missing"
	node --test "${mjs[@]}"

	# Redis 7.0.15's own test suite, from $ECHOMQ_REDIS_TESTS, or else
	# ../shared/redis-7.0.15-tests beside the checkout or
	# /work/shared/redis-7.0.15-tests (where none holds it the step says
	# NOT RUN and goes on: it is reference data, not a package): every unit
	# against the engine natively, and the units of SUITE_WASM_UNITS against
	# the module just built (with the listener, .cache/wire, under Node); a test the
	# record (internal/suite/testdata) has as passing that fails now fails
	# the step. The whole suite in wasm takes far longer than CI should (see
	# internal/suite); `go test ./internal/suite -suite -update -targets
	# redis,native,wasm` runs it all and rewrites the record.
	section "Redis's own test suite against the engine (internal/suite)"
	go test -count=1 -timeout 60m ./internal/suite -run '^TestSuite$' -suite \
		-targets native,wasm -wasm-units "$SUITE_WASM_UNITS"

	finish test
}

do_serve() {
	local args=()
	while [[ $# -gt 0 ]]; do
		case "$1" in
		-port | --port)
			[[ $# -ge 2 ]] || die "$1 needs a port number"
			[[ "$2" =~ ^[0-9]+$ ]] || die "$1: not a port number: $2"
			args+=(-addr "127.0.0.1:$2")
			shift 2
			;;
		-port=* | --port=*)
			[[ "${1#*=}" =~ ^[0-9]+$ ]] || die "not a port number: ${1#*=}"
			args+=(-addr "127.0.0.1:${1#*=}")
			shift
			;;
		*)
			args+=("$1") # -addr, -csp=false, -quiet: the server checks them
			shift
			;;
		esac
	done
	do_build
	section "serve static/"
	# A built binary, exec'd: the server gets this script's pid and its
	# signals (go run would leave the server behind on SIGTERM).
	mkdir -p "$ROOT/.cache/bin"
	go build -o "$ROOT/.cache/bin/serve" ./web/cmd/serve
	CURRENT_STEP=""
	exec "$ROOT/.cache/bin/serve" -dir "$STATIC" "${args[@]}"
}

do_bench() {
	[[ -d "$ROOT/bench" ]] || die "bench/ does not exist yet: there are no benchmarks to run"
	need_tools redis-server node
	do_build
	section "go run ./bench"
	go run ./bench "$@"
	finish bench
}

# fuzz_targets: every native fuzz target of the module, one "package
# target" a line. They are listed by go test itself, so a target added
# anywhere runs without being named here.
fuzz_targets() {
	local line names=()
	go test -list '^Fuzz' ./... | while IFS= read -r line; do
		case "$line" in
		Fuzz*) names+=("$line") ;;
		ok*)
			# "ok  <package>  <time>" closes the names its binary listed.
			for name in "${names[@]}"; do
				printf '%s %s\n' "$(awk '{print $2}' <<<"$line")" "$name"
			done
			names=()
			;;
		esac
	done
}

# run_fuzz TIME: runs each fuzz target for TIME (go test's -fuzztime: 30s,
# 1m, 5000x). A failing input is written to the target's
# testdata/fuzz/<Name>/ by go test, where it stays as a regression case
# once committed (with its fix).
run_fuzz() {
	local time="$1" targets pkg name count=0 log
	targets="$(fuzz_targets)"
	[[ -n "$targets" ]] || die "go test -list found no fuzz targets"
	log="$(mktemp)"
	while read -r pkg name; do
		printf -- '--- %s %s (%s)\n' "$pkg" "$name" "$time"
		fuzz_one "$pkg" "$name" "$time" "$log"
		count=$((count + 1))
	done <<<"$targets"
	rm -f "$log"
	echo "$count fuzz targets ran for $time each"
}

# fuzz_one PKG NAME TIME LOG: fuzzes one target for TIME. Go's fuzzing
# coordinator can end a -fuzztime run with a bare "context deadline
# exceeded" when a worker is slow to stop at the deadline (golang/go#51484;
# FuzzFromDump met it on a loaded machine), having found nothing. Such a
# run is not a failure once the target's corpus replays clean; one that
# wrote a failing input, or failed otherwise, is (and stops the build).
fuzz_one() {
	local pkg="$1" name="$2" time="$3" log="$4"
	if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$time" "$pkg" 2>&1 | tee "$log"; then
		return 0
	fi
	if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written to' "$log"; then
		echo "build.sh: $name ended on Go's fuzz deadline race with nothing found; replaying its corpus"
		go test -count=1 -run "^${name}\$" "$pkg" && return 0
	fi
	die "fuzz target $name in $pkg failed; its input is in that package's testdata/fuzz/$name/"
}

do_fuzz() {
	local time="${1:-1m}"
	section "go mod download"
	go mod download
	section "fuzz targets, $time each"
	run_fuzz "$time"
	finish fuzz
}

usage() {
	sed -n '2,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

verb="${1:-build}"
[[ $# -gt 0 ]] && shift
case "$verb" in
build)
	[[ $# -eq 0 ]] || die "build takes no arguments"
	do_build
	finish build
	;;
serve) do_serve "$@" ;;
test)
	[[ $# -eq 0 ]] || die "test takes no arguments"
	do_test
	;;
bench) do_bench "$@" ;;
fuzz)
	[[ $# -le 1 ]] || die "fuzz takes one argument, the time per target (30s, 1m, 1000x)"
	do_fuzz "$@"
	;;
-h | --help | help) usage ;;
*)
	usage >&2
	die "unknown verb: $verb"
	;;
esac
