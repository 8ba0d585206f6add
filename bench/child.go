package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"echomq.dev/playground/bench/loop"
	"echomq.dev/playground/internal/childout"
)

// child is one measuring process the bench keeps for the whole run:
// bench/wasm_bench.mjs under Node, or bench/inwasm (under Node as wasm, or
// natively). It starts, fills its queues and warms up once, then measures
// one round each time it is asked (a line on its stdin), between the
// bench's other rounds, and sits idle otherwise. Both programs speak the
// same JSON lines: "ready", "round" per round, "end".
type child struct {
	name    string            // for messages and notes
	keys    map[string]string // the target names it reports → row keys
	command string            // the command line, for the report
	ready   childEvent
	end     childEvent
	ok      bool // started, and no round has failed

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr childout.Buffer // exec copies into it while an error message may read it
}

// childEvent is one line a child prints. wasm_bench.mjs fills Node, V8,
// Targets and Floors; bench/inwasm fills Go and Platform.
type childEvent struct {
	Event    string `json:"event"`
	Node     string `json:"node"`
	V8       string `json:"v8"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	Targets  []struct {
		Global  string  `json:"global"`
		StartMs float64 `json:"startMs"`
		Version string  `json:"version"`
	} `json:"targets"`
	Cells  []loop.CellReport `json:"cells"`
	Floors []struct {
		Target  string    `json:"target"`
		Call    string    `json:"call"`
		Samples []float64 `json:"samples"`
	} `json:"floors"`
	Exited []string `json:"exited"`
}

// startChild runs argv in dir (with env added to this process's) and
// waits until the child is filled and warm. Its cells go into set.
func startChild(name, dir string, argv, env []string, keys map[string]string, set cellSet) (*child, error) {
	c := &child{name: name, keys: keys, command: strings.Join(argv, " ")}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return c, fmt.Errorf("%s: %w", argv[0], err)
	}
	c.cmd = exec.Command(argv[0], argv[1:]...)
	c.cmd.Dir = dir
	c.cmd.Env = append(os.Environ(), env...)
	c.cmd.Stderr = &c.stderr
	c.cmd.WaitDelay = 5 * time.Second
	stdin, err := c.cmd.StdinPipe()
	if err != nil {
		return c, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return c, err
	}
	c.stdin, c.out = stdin, bufio.NewReaderSize(stdout, 1<<20)
	if err := c.cmd.Start(); err != nil {
		return c, fmt.Errorf("%s: %w", c.command, err)
	}
	if c.ready, err = c.next("ready"); err != nil {
		c.stop()
		return c, err
	}
	for _, oc := range c.ready.Cells {
		key := keys[oc.Target]
		if key == "" {
			c.stop()
			return c, fmt.Errorf("%s measures an unknown target %q", name, oc.Target)
		}
		set.get(key, oc.Depth).warmup = oc.WarmupOps
	}
	c.ok = true
	return c, nil
}

// round asks the child for one round and adds its samples to set.
func (c *child) round(set cellSet) error {
	if _, err := io.WriteString(c.stdin, "round\n"); err != nil {
		return fmt.Errorf("%s: %w\n%s", c.name, err, c.stderr.String())
	}
	ev, err := c.next("round")
	if err != nil {
		return err
	}
	if len(ev.Exited) > 0 {
		return fmt.Errorf("the Go program behind globalThis.%s exited during the round", ev.Exited[0])
	}
	for _, oc := range ev.Cells {
		key := c.keys[oc.Target]
		if key == "" {
			return fmt.Errorf("%s measured %q, which it did not announce", c.name, oc.Target)
		}
		if oc.FinalDepth != oc.Depth {
			return fmt.Errorf("%s: %s at depth %d: %d pending after the round", c.name, oc.Target, oc.Depth, oc.FinalDepth)
		}
		set.get(key, oc.Depth).add(oc.Enqueue, oc.Claim, oc.RoundTrip)
	}
	return nil
}

// finish ends the rounds (EOF on stdin), reads the "end" event and waits
// for the child to exit.
func (c *child) finish() error {
	if c.cmd == nil || c.cmd.Process == nil || c.cmd.ProcessState != nil {
		return nil
	}
	c.stdin.Close()
	ev, err := c.next("end")
	if werr := c.cmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("%s: %w\n%s", c.name, werr, c.stderr.String())
	}
	c.end = ev
	return err
}

// stop ends the child, a process this run started, if it still runs.
func (c *child) stop() {
	if c == nil || c.cmd == nil || c.cmd.Process == nil || c.cmd.ProcessState != nil {
		return
	}
	c.stdin.Close()
	c.cmd.Process.Kill()
	c.cmd.Wait()
}

// next reads the next event and checks it is the one expected.
func (c *child) next(want string) (childEvent, error) {
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		// The child's own explanation, when it gave one, is the useful part.
		if why := strings.TrimSpace(c.stderr.String()); why != "" {
			return childEvent{}, fmt.Errorf("%s stopped before %q: %s", c.name, want, why)
		}
		return childEvent{}, fmt.Errorf("%s: waiting for %q: %v", c.name, want, err)
	}
	var ev childEvent
	if err := json.Unmarshal(line, &ev); err != nil {
		return childEvent{}, fmt.Errorf("%s printed something that is not an event: %v", c.name, err)
	}
	if ev.Event != want {
		return childEvent{}, fmt.Errorf("%s sent %q, want %q", c.name, ev.Event, want)
	}
	return ev, nil
}
