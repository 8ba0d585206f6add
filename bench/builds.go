package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"echomq.dev/playground/internal/wasmflags"
)

// builds is every program the run compiles before it measures, and the
// commands it used, for the report.
type builds struct {
	inwasm       string // bench/inwasm for js/wasm, "" if it did not build
	native       string // bench/inwasm for this machine, from this tree
	floorsWasm   string // bench/depfloor for js/wasm, "" if it did not build
	floorsNative string // bench/depfloor for this machine
	// bench/shortcuts for js/wasm and for this machine, "" if it did not build
	shortcutsWasm, shortcutsNative string
	commands                       []string

	// The baseline revision (-baseline), built from a git worktree that is
	// removed again once these are built.
	baseRev     string // as given; "" when no baseline is measured
	baseShort   string // the abbreviated commit
	baseSubject string // its first line
	baseWasm    string // its static wasm (with the current wasm/main_js.go if its own lacks ECHOMQ_GLOBAL)
	baseNative  string // bench/inwasm built in the worktree, for this machine

	notes []string
}

// wasmGcflags are the compiler flags ./build.sh gives the playground's
// module, from internal/wasmflags (wasm/gcflags.txt, which says why each is
// there, and the overlay that leaves crypto/tls out), read by buildAll
// before anything is built. The baseline is built with them too, so
// the two modules differ only in their code.
var wasmGcflags []string

// goBuild compiles pkg in dir into out, for js/wasm when wasm is set, with
// the flags ./build.sh gives the playground's module.
func goBuild(dir, pkg, out string, wasm bool) (string, error) {
	args := append([]string{"build", "-trimpath"}, wasmGcflags...)
	cmd := exec.Command("go", append(args, "-ldflags=-s -w", "-o", out, pkg)...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	shown := "go build -trimpath '" + strings.Join(wasmGcflags, "' '") + "' -ldflags='-s -w' -o " + out + " " + pkg
	if wasm {
		cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
		shown = "GOOS=js GOARCH=wasm " + shown
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		return shown, fmt.Errorf("%s: %v: %s", shown, err, strings.TrimSpace(string(b)))
	}
	return shown, nil
}

// buildAll compiles bench/inwasm (for js/wasm and natively) and, when a
// baseline revision is asked for, that revision's static wasm and its
// native bench/inwasm. What does not build is left out with a note.
func buildAll(cfg config, tmp string, logf func(string, ...any)) *builds {
	b := &builds{}
	flags, err := wasmflags.Flags(cfg.root)
	if err != nil {
		b.notes = append(b.notes, "internal/wasmflags: "+err.Error()+"; the modules are built without its flags")
	}
	wasmGcflags = flags
	in := func(dir, cmd string) string {
		if dir == cfg.root {
			return cmd
		}
		return "(cd " + dir + " && " + cmd + ")"
	}
	// build compiles one of this tree's programs into tmp/name; what does
	// not build is logged, and noted when note says what goes unmeasured.
	build := func(pkg, name string, wasm bool, into *string, note string) {
		out := filepath.Join(tmp, name)
		cmd, err := goBuild(cfg.root, pkg, out, wasm)
		b.commands = append(b.commands, cmd)
		if err != nil {
			if note != "" {
				b.notes = append(b.notes, note+": not measured, "+pkg[2:]+" did not build: "+firstLine(err.Error()))
			}
			logf("%v", err)
			return
		}
		*into = out
	}
	logf("building bench/inwasm and bench/depfloor for js/wasm and natively")
	build("./bench/inwasm", "inwasm.wasm", true, &b.inwasm, "the rows measured inside wasm")
	build("./bench/inwasm", "native", false, &b.native, "")
	const floors = "the floors under the targets"
	build("./bench/depfloor", "depfloor.wasm", true, &b.floorsWasm, floors+", in wasm")
	build("./bench/depfloor", "depfloor", false, &b.floorsNative, floors+", natively")
	const shortcuts = "what each shortcut buys"
	build("./bench/shortcuts", "shortcuts.wasm", true, &b.shortcutsWasm, shortcuts+", in wasm")
	build("./bench/shortcuts", "shortcuts", false, &b.shortcutsNative, shortcuts+", natively")

	if cfg.baseline == "" {
		return b
	}
	b.baseRev = cfg.baseline
	fail := func(what string, err error) *builds {
		b.notes = append(b.notes, fmt.Sprintf("baseline %s: %s: %s", cfg.baseline, what, firstLine(err.Error())))
		logf("baseline: %s: %v", what, err)
		return b
	}
	full, err := git(cfg.root, "rev-parse", "--verify", cfg.baseline+"^{commit}")
	if err != nil {
		return fail("not a commit of this repository", err)
	}
	b.baseShort, _ = git(cfg.root, "rev-parse", "--short", full)
	b.baseSubject, _ = git(cfg.root, "log", "-1", "--format=%s", full)
	dir := filepath.Join(tmp, "base")
	logf("baseline %s: git worktree at %s", b.baseShort, dir)
	if _, err := git(cfg.root, "worktree", "add", "--detach", dir, full); err != nil {
		return fail("git worktree add", err)
	}
	b.commands = append(b.commands, "git worktree add --detach "+dir+" "+cfg.baseline)
	defer func() {
		b.commands = append(b.commands, "git worktree remove --force "+dir)
		if _, err := git(cfg.root, "worktree", "remove", "--force", dir); err != nil {
			logf("baseline: git worktree remove: %v", err)
			os.RemoveAll(dir)
			git(cfg.root, "worktree", "prune")
		}
	}()

	// Both modules must live in one Node process, which ECHOMQ_GLOBAL
	// allows. A baseline whose bridge predates it gets the current one
	// (the bridge is not what is compared); a later baseline keeps its
	// own, which fits its API where the current bridge may not.
	baseBridge := filepath.Join(dir, "wasm", "main_js.go")
	if own, err := os.ReadFile(baseBridge); err != nil || !strings.Contains(string(own), "ECHOMQ_GLOBAL") {
		if err := copyFile(filepath.Join(cfg.root, "wasm", "main_js.go"), baseBridge); err != nil {
			return fail("copy wasm/main_js.go", err)
		}
		b.commands = append(b.commands, "cp wasm/main_js.go "+baseBridge)
	}
	// buildBase builds pkg in the baseline's worktree into tmp/name.
	buildBase := func(what, pkg, name string, wasm bool) (string, error) {
		logf("baseline %s: building %s", b.baseShort, what)
		out := filepath.Join(tmp, name)
		cmd, err := goBuild(dir, pkg, out, wasm)
		b.commands = append(b.commands, in(dir, cmd))
		return out, err
	}
	out, err := buildBase("its static wasm", "./wasm", "base.wasm", true)
	if err != nil {
		return fail("its static wasm did not build", err)
	}
	b.baseWasm = out

	// The measuring program is the current one; it builds against the
	// baseline's packages.
	for _, pkg := range []string{"loop", "stock", "inwasm"} {
		if err := copyGoFiles(filepath.Join(cfg.root, "bench", pkg), filepath.Join(dir, "bench", pkg)); err != nil {
			return fail("copy bench/"+pkg, err)
		}
	}
	b.commands = append(b.commands, "cp -r bench/loop bench/stock bench/inwasm "+filepath.Join(dir, "bench")+"/")
	out, err = buildBase("bench/inwasm natively against it", "./bench/inwasm", "base-native", false)
	if err != nil {
		return fail("bench/inwasm did not build against it, so its native engine is not measured", err)
	}
	b.baseNative = out
	return b
}

// git runs git in dir and returns its trimmed output.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return strings.TrimSpace(string(out)), nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// copyGoFiles copies the .go files of one package directory.
func copyGoFiles(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	names, err := filepath.Glob(filepath.Join(from, "*.go"))
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := copyFile(n, filepath.Join(to, filepath.Base(n))); err != nil {
			return err
		}
	}
	return nil
}
