package suite

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"echomq.dev/playground/internal/childout"
	"echomq.dev/playground/internal/redisserver"
)

// A Target is a kind of server the suite runs against. Each unit gets a
// fresh server of its own, so that no unit sees what another left behind
// (a script cache, a client in a transaction) and units can run side by
// side.
type Target interface {
	// Name is how the records and reports call it: "redis", "native",
	// "wasm".
	Name() string
	// Start starts a server and returns its address and how to stop it.
	Start() (addr string, stop func(), err error)
}

// Redis is a real redis-server (internal/redisserver).
type Redis struct{}

func (Redis) Name() string { return "redis" }

func (Redis) Start() (string, func(), error) {
	s, err := redisserver.Launch()
	if err != nil {
		return "", nil, err
	}
	return s.Addr(), s.Stop, nil
}

// Native is the engine built for the host, served by internal/listen.
type Native struct {
	Bin string // the built listener (see BuildListener)
}

func (Native) Name() string { return "native" }

func (n Native) Start() (string, func(), error) {
	return startListener(exec.Command(n.Bin, "-addr", "127.0.0.1:0"))
}

// Wasm is the WebAssembly module as the site ships it, served by
// wasm/listen.mjs under Node.
type Wasm struct {
	Script string // wasm/listen.mjs
	Module string // the built echomq.wasm
	Exec   string // the wasm_exec.js that goes with it
}

func (Wasm) Name() string { return "wasm" }

func (w Wasm) Start() (string, func(), error) {
	return startListener(exec.Command("node", w.Script, "--wasm", w.Module, "--wasm-exec", w.Exec, "--addr", "127.0.0.1:0"))
}

// readyTimeout bounds how long a listener may take to say it listens (a
// wasm module compiles first, on a busy machine).
const readyTimeout = 60 * time.Second

// startListener runs a listener that prints "listening on HOST:PORT" when
// it accepts connections, and returns that address.
func startListener(cmd *exec.Cmd) (string, func(), error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	errs := &childout.Buffer{Limit: 64 << 10}
	cmd.Stderr = errs
	cmd.SysProcAttr = groupAttr()
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			killGroup(cmd.Process.Pid)
			<-exited
		})
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				addr <- a
				break
			}
		}
		io.Copy(io.Discard, out)
	}()
	select {
	case a := <-addr:
		return a, stop, nil
	case <-exited:
		return "", nil, fmt.Errorf("suite: %s exited before it listened: %s", cmd.Path, errs.String())
	case <-time.After(readyTimeout):
		stop()
		return "", nil, fmt.Errorf("suite: %s did not listen within %v: %s", cmd.Path, readyTimeout, errs.String())
	}
}

// BuildListener builds internal/listen into dir and returns the binary.
// root is the repository's root.
func BuildListener(root, dir string) (string, error) {
	bin := filepath.Join(dir, "listen")
	cmd := exec.Command("go", "build", "-o", bin, "./internal/listen")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("suite: go build ./internal/listen: %v\n%s", err, out)
	}
	return bin, nil
}

// BuildModule builds the WebAssembly module as build.sh does (the flags of
// wasm/gcflags.txt) into dir, and returns it with the wasm_exec.js of the
// Go that built it.
func BuildModule(root, dir string) (module, wasmExec string, err error) {
	flags, err := os.ReadFile(filepath.Join(root, "wasm", "gcflags.txt"))
	if err != nil {
		return "", "", err
	}
	module = filepath.Join(dir, "echomq.wasm")
	args := []string{"build", "-trimpath"}
	for line := range strings.Lines(string(flags)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			args = append(args, line)
		}
	}
	args = append(args, "-ldflags=-s -w", "-o", module, "./wasm")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("suite: building the wasm module: %v\n%s", err, out)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", "", err
	}
	return module, filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"), nil
}
