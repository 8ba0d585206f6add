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
	"echomq.dev/playground/internal/wasmflags"
)

// A Target is a kind of server the suite runs against. Each unit gets a
// fresh server of its own, so that no unit sees what another left behind
// (a script cache, a client in a transaction) and units can run side by
// side.
type Target interface {
	// Name is how the records and reports call it: "redis", "native",
	// "wasm".
	Name() string
	// Start starts a server.
	Start() (*Server, error)
}

// Server is one server a target started.
type Server struct {
	Addr string // "127.0.0.1:port"
	Stop func()
	// Stalled is closed when the server says a request has not finished
	// within its bound (the listeners' -stall); nil for Redis.
	Stalled <-chan struct{}
}

// Stall is the bound the engine's listeners are given: a request the
// engine has not answered in this time never will be. The slowest single
// command of a passing test takes well under a second natively.
const Stall = 30 * time.Second

// Redis is a real redis-server (internal/redisserver).
type Redis struct{}

func (Redis) Name() string { return "redis" }

func (Redis) Start() (*Server, error) {
	s, err := redisserver.Launch()
	if err != nil {
		return nil, err
	}
	return &Server{Addr: s.Addr(), Stop: s.Stop}, nil
}

// Native is the engine built for the host, served by internal/listen.
type Native struct {
	Bin string // the built listener (see BuildListener)
}

func (Native) Name() string { return "native" }

func (n Native) Start() (*Server, error) {
	return startListener(exec.Command(n.Bin, "-addr", "127.0.0.1:0", "-stall", Stall.String()))
}

// Wasm is the WebAssembly module as the site ships it, served by
// wasm/listen.mjs under Node.
type Wasm struct {
	Script string // wasm/listen.mjs
	Module string // the built echomq.wasm
	Exec   string // the wasm_exec.js that goes with it
}

func (Wasm) Name() string { return "wasm" }

func (w Wasm) Start() (*Server, error) {
	return startListener(exec.Command("node", w.Script, "--wasm", w.Module, "--wasm-exec", w.Exec, "--addr", "127.0.0.1:0",
		"--stall", fmt.Sprint(int(2*Stall.Seconds()))))
}

// readyTimeout bounds how long a listener may take to say it listens (a
// wasm module compiles first, on a busy machine).
const readyTimeout = 60 * time.Second

// startListener runs a listener that prints "listening on HOST:PORT" when
// it accepts connections, and "stalled: ..." on stderr when a request
// does not finish.
func startListener(cmd *exec.Cmd) (*Server, error) {
	cmd.Env = withSuiteBudget(os.Environ())
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errOut, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	cmd.SysProcAttr = groupAttr()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
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
	errs := &childout.Buffer{Limit: 64 << 10}
	stalled := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(errOut)
		said := false
		for sc.Scan() {
			fmt.Fprintln(errs, sc.Text())
			if strings.HasPrefix(sc.Text(), "stalled: ") && !said {
				close(stalled)
				said = true
			}
		}
		cmd.Wait()
		close(exited)
	}()
	select {
	case a := <-addr:
		return &Server{Addr: a, Stop: stop, Stalled: stalled}, nil
	case <-exited:
		return nil, fmt.Errorf("suite: %s exited before it listened: %s", cmd.Path, errs.String())
	case <-time.After(readyTimeout):
		stop()
		return nil, fmt.Errorf("suite: %s did not listen within %v: %s", cmd.Path, readyTimeout, errs.String())
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
// internal/wasmflags) into dir, with the RESP listener's exports (-tags
// wire, see wasm/wire_js.go), and returns it with the wasm_exec.js of the
// Go that built it.
func BuildModule(root, dir string) (module, wasmExec string, err error) {
	flags, err := wasmflags.Flags(root)
	if err != nil {
		return "", "", err
	}
	module = filepath.Join(dir, "echomq.wasm")
	args := append([]string{"build", "-trimpath", "-tags=wire"}, flags...)
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

// warm is a target that keeps one server started ahead, so that a unit
// does not wait for its server to start (the wasm module takes seconds to
// compile, which for 21 units added minutes).
type warm struct {
	Target
	mu    sync.Mutex
	ready chan started
}

type started struct {
	srv *Server
	err error
}

// Warm returns t with a server always starting ahead, and a function that
// stops the one left over.
func Warm(t Target) (Target, func()) {
	w := &warm{Target: t}
	w.prepare()
	return w, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if s := <-w.ready; s.err == nil {
			s.srv.Stop()
		}
	}
}

// prepare starts the next server; w.mu must be held or w not yet shared.
func (w *warm) prepare() {
	ready := make(chan started, 1)
	w.ready = ready
	go func() {
		srv, err := w.Target.Start()
		ready <- started{srv, err}
	}()
}

func (w *warm) Start() (*Server, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := <-w.ready
	w.prepare()
	return s.srv, s.err
}

// suiteBudget is the work budget of the engines the suite runs against
// (ECHOMQ_WORK_BUDGET): 25 million units, the budget the pass lists were
// recorded with, which a runaway test spends in about a second natively.
// The engine's own, engine.WorkBudget (what a real Redis does in 5 s),
// takes tens of seconds natively and minutes in wasm, past Stall. A budget
// already in the environment is kept.
const suiteBudget = "25000000"

// withSuiteBudget is env with ECHOMQ_WORK_BUDGET set to suiteBudget, unless
// env sets it already.
func withSuiteBudget(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "ECHOMQ_WORK_BUDGET=") {
			return env
		}
	}
	return append(env, "ECHOMQ_WORK_BUDGET="+suiteBudget)
}
