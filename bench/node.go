package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// nodeRunner drives bench/wasm_bench.mjs: one Node process for the whole
// run, which starts the modules, fills its queues and warms up once, then
// measures one round each time it is asked, between the native rounds.
type nodeRunner struct {
	cfg       config
	wasm      string // static/echomq.wasm
	stockWasm string // "" when the reference did not build
	logf      func(string, ...any)
	info      nodeInfo

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr lockedBuffer
}

// lockedBuffer collects a child's stderr, which exec copies from its own
// goroutine while an error message may be reading it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// nodeInfo is what the Node process reported besides the latency samples.
type nodeInfo struct {
	version string
	v8      string
	command string             // the exact command line
	startMs map[string]float64 // per key: instantiate + start of the module
	floors  map[string]*floorSamples
}

type floorSamples struct {
	call    string
	samples []float64
}

// nodeEvent is one line wasm_bench.mjs prints.
type nodeEvent struct {
	Event   string `json:"event"`
	Node    string `json:"node"`
	V8      string `json:"v8"`
	Targets []struct {
		Global  string  `json:"global"`
		StartMs float64 `json:"startMs"`
	} `json:"targets"`
	Cells []struct {
		Target     string    `json:"target"`
		Depth      int       `json:"depth"`
		PrefillMs  float64   `json:"prefillMs"`
		WarmupOps  int       `json:"warmupOps"`
		FinalDepth int       `json:"finalDepth"`
		Enqueue    []float64 `json:"enqueue"`
		Claim      []float64 `json:"claim"`
		RoundTrip  []float64 `json:"roundTrip"`
	} `json:"cells"`
	Floors []struct {
		Target  string    `json:"target"`
		Call    string    `json:"call"`
		Samples []float64 `json:"samples"`
	} `json:"floors"`
	Exited []string `json:"exited"`
}

// globals maps the name a module publishes to the row it fills.
var globals = map[string]string{"echomq": keyWasm, "stockmq": keyStockWasm}

func (n *nodeRunner) args() []string {
	depths := make([]string, len(n.cfg.depths))
	for i, d := range n.cfg.depths {
		depths[i] = strconv.Itoa(d)
	}
	args := []string{
		filepath.Join(n.cfg.root, "bench", "wasm_bench.mjs"),
		"--wasm-exec", filepath.Join(n.cfg.static, "wasm_exec.js"),
		"--target", "echomq=" + n.wasm,
	}
	if n.stockWasm != "" {
		args = append(args, "--target", "stockmq="+n.stockWasm)
	}
	return append(args,
		"--depths", strings.Join(depths, ","),
		"--budget-ms", strconv.FormatInt(n.cfg.nodeBud.Milliseconds(), 10),
		"--max-samples", strconv.Itoa(n.cfg.nodeMax),
		"--warmup", strconv.Itoa(n.cfg.warmup),
		"--rounds", "stdin",
	)
}

// start launches Node and waits until it has filled its queues and warmed
// up; cells gets one cell per module and depth.
func (n *nodeRunner) start(cells map[string]*cell) error {
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("node is not installed (apt-get install nodejs): %w", err)
	}
	args := n.args()
	n.info.command = "node " + strings.Join(args, " ")
	n.cmd = exec.Command("node", args...)
	n.cmd.Dir = n.cfg.root
	n.cmd.Stderr = &n.stderr
	n.cmd.WaitDelay = 5 * time.Second
	stdin, err := n.cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := n.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	n.stdin, n.out = stdin, bufio.NewReaderSize(stdout, 1<<20)
	began := time.Now()
	if err := n.cmd.Start(); err != nil {
		return fmt.Errorf("%s: %w", n.info.command, err)
	}
	ev, err := n.next("ready")
	if err != nil {
		return err
	}
	n.logf("node: modules started, queues filled and warm in %.1fs", time.Since(began).Seconds())
	n.info.version, n.info.v8 = ev.Node, ev.V8
	n.info.startMs = map[string]float64{}
	n.info.floors = map[string]*floorSamples{}
	for _, t := range ev.Targets {
		n.info.startMs[globals[t.Global]] = t.StartMs
	}
	for _, oc := range ev.Cells {
		key := globals[oc.Target]
		if key == "" {
			return fmt.Errorf("wasm_bench.mjs measures an unknown target %q", oc.Target)
		}
		cells[fmt.Sprintf("%s/%d", key, oc.Depth)] = &cell{
			key: key, depth: oc.Depth, queue: queueName(oc.Depth), warmup: oc.WarmupOps,
		}
	}
	return nil
}

// round asks Node for one round and adds its samples to cells.
func (n *nodeRunner) round(cells map[string]*cell) error {
	if _, err := io.WriteString(n.stdin, "round\n"); err != nil {
		return fmt.Errorf("node: %w\n%s", err, n.stderr.String())
	}
	ev, err := n.next("round")
	if err != nil {
		return err
	}
	if len(ev.Exited) > 0 {
		return fmt.Errorf("the Go program behind globalThis.%s exited during the round", ev.Exited[0])
	}
	for _, oc := range ev.Cells {
		c := cells[fmt.Sprintf("%s/%d", globals[oc.Target], oc.Depth)]
		if c == nil {
			return fmt.Errorf("wasm_bench.mjs measured %s at depth %d, which it did not announce", oc.Target, oc.Depth)
		}
		if oc.FinalDepth != oc.Depth {
			return fmt.Errorf("%s at depth %d: %d pending after the round", c.key, oc.Depth, oc.FinalDepth)
		}
		c.rounds++
		c.enqueue = append(c.enqueue, oc.Enqueue...)
		c.claim = append(c.claim, oc.Claim...)
		c.rt = append(c.rt, oc.RoundTrip...)
	}
	return nil
}

// finish ends the rounds, collects the call-cost samples and waits for
// Node to exit.
func (n *nodeRunner) finish() error {
	if n.cmd == nil || n.cmd.Process == nil {
		return nil
	}
	n.stdin.Close()
	ev, err := n.next("end")
	if werr := n.cmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("node: %w\n%s", werr, n.stderr.String())
	}
	if err != nil {
		return err
	}
	for _, f := range ev.Floors {
		n.info.floors[globals[f.Target]] = &floorSamples{call: f.Call, samples: f.Samples}
	}
	return nil
}

// stop ends Node, the process this run started, if it is still running.
func (n *nodeRunner) stop() {
	if n.cmd == nil || n.cmd.Process == nil || n.cmd.ProcessState != nil {
		return
	}
	n.stdin.Close()
	n.cmd.Process.Kill()
	n.cmd.Wait()
}

// next reads the next event and checks it is the one expected.
func (n *nodeRunner) next(want string) (nodeEvent, error) {
	line, err := n.out.ReadBytes('\n')
	if err != nil {
		// Node's own explanation, when it gave one, is the useful part.
		if why := firstLine(n.stderr.String()); why != "" {
			return nodeEvent{}, fmt.Errorf("node stopped before %q: %s\n%s", want, why, n.stderr.String())
		}
		return nodeEvent{}, fmt.Errorf("node: waiting for %q: %v", want, err)
	}
	var ev nodeEvent
	if err := json.Unmarshal(line, &ev); err != nil {
		return nodeEvent{}, fmt.Errorf("wasm_bench.mjs printed something that is not an event: %v", err)
	}
	if ev.Event != want {
		return nodeEvent{}, fmt.Errorf("wasm_bench.mjs sent %q, want %q", ev.Event, want)
	}
	return ev, nil
}
