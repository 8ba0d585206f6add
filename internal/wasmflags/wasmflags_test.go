package wasmflags

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const root = "../.." // go test runs in internal/wasmflags

// goJS runs the go command for js/wasm in the checkout.
func goJS(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestOverlayLeavesCryptoOut holds the overlay to what it is for: with it,
// the browser module links none of the certificate and key code that
// crypto/tls drags in, and without it, it does (so the test can fail, and
// shows the overlay is why).
func TestOverlayLeavesCryptoOut(t *testing.T) {
	path, err := WriteOverlay(root)
	if err != nil {
		t.Fatal(err)
	}
	heavy := []string{"crypto/x509", "crypto/ecdsa", "crypto/rsa", "crypto/internal/fips140/mlkem", "encoding/asn1"}
	with := strings.Fields(goJS(t, "list", "-overlay="+path, "-deps", "./wasm"))
	without := strings.Fields(goJS(t, "list", "-deps", "./wasm"))
	if !slices.Contains(with, "crypto/tls") {
		t.Errorf("with the overlay the module no longer imports crypto/tls at all: the stub is not needed, or the list changed shape")
	}
	for _, p := range heavy {
		if slices.Contains(with, p) {
			t.Errorf("with the overlay the module still links %s", p)
		}
		if !slices.Contains(without, p) {
			t.Errorf("without the overlay the module does not link %s: is the overlay still needed?", p)
		}
	}
}

// TestStubCoversItsImporters compiles, for js/wasm and with the overlay,
// every package of the module's graph that imports crypto/tls: a
// dependency that starts using more of crypto/tls than wasm/notls declares
// fails here by name, not later in a build of the site.
func TestStubCoversItsImporters(t *testing.T) {
	path, err := WriteOverlay(root)
	if err != nil {
		t.Fatal(err)
	}
	var importers []string
	for line := range strings.Lines(goJS(t, "list", "-overlay="+path, "-deps", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./wasm")) {
		f := strings.Fields(line)
		if len(f) > 1 && slices.Contains(f[1:], "crypto/tls") {
			importers = append(importers, f[0])
		}
	}
	if len(importers) == 0 {
		t.Fatal("no package of the module imports crypto/tls")
	}
	t.Logf("importers of crypto/tls: %v", importers)
	goJS(t, append([]string{"build", "-overlay=" + path}, importers...)...)
}

// TestFlags: gcflags.txt's flags come first, in order, and the overlay's
// flag last, naming a file that exists.
func TestFlags(t *testing.T) {
	gc, err := Gcflags(root)
	if err != nil {
		t.Fatal(err)
	}
	all, err := Flags(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(gc) < 2 || !slices.Equal(all[:len(gc)], gc) || len(all) != len(gc)+1 {
		t.Fatalf("Flags = %q, want gcflags.txt's %q and the overlay", all, gc)
	}
	o, ok := strings.CutPrefix(all[len(gc)], "-overlay=")
	if !ok || !filepath.IsAbs(o) {
		t.Fatalf("last flag %q is not -overlay= with an absolute path", all[len(gc)])
	}
	if _, err := os.Stat(o); err != nil {
		t.Fatal(err)
	}
}

// hotPath are the packages a command's path runs: the round trip's
// enqueue and claim (go test ./wasm/api -bench 'RoundTrip$' -cpuprofile)
// spend their time in them, beside the runtime. Team decision (issue 25):
// they keep inlining, so no flag of gcflags.txt may turn it off for them.
// gopher-lua and miniredis are on a script's path too and keep their -l,
// each with its measurement in gcflags.txt (inlining gopher-lua costs 71 KB
// brotli for a round trip that did not measurably move; the engine serves
// the lesson's hot commands itself, past miniredis).
var hotPath = []string{
	"strings", "strconv", "bytes", "math", "slices", "bufio", "sync",
	"echomq.dev/playground/wasm/engine",
	"echomq.dev/playground/wasm/api",
	"echomq.dev/playground/wasm/emq",
	"echomq.dev/playground/wasm/resp",
	"echomq.dev/playground/wasm/zset",
	"echomq.dev/playground/wasm/lualib",
	"echomq.dev/playground/lua",
}

// TestNoHotPathFlag fails when gcflags.txt turns inlining off for a package
// of hotPath, directly or through a pattern (pkg/..., all=).
func TestNoHotPathFlag(t *testing.T) {
	flags, err := Gcflags(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range flags {
		spec, ok := strings.CutPrefix(f, "-gcflags=")
		if !ok {
			continue
		}
		pattern, value, ok := strings.Cut(spec, "=")
		if !ok || !slices.Contains(strings.Fields(value), "-l") {
			continue
		}
		for _, p := range hotPath {
			if matches(pattern, p) {
				t.Errorf("%s turns inlining off for %s, which a command's path runs", f, p)
			}
		}
	}
}

// matches reports whether go build's package pattern names pkg: a path,
// path/... (the path and everything below it), or all.
func matches(pattern, pkg string) bool {
	if pattern == "all" {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pattern == pkg
}
