package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"echomq.dev/playground/wasm/api"
)

// What each of the engine's shortcuts buys (bench/shortcuts): the engine
// as it ships, the reference engine with every cache and fast path off,
// and the engine with each shortcut alone off, under the round trip and
// the 100,000-SET script, in wasm and natively, after the floors.

// shortcutsRun is what bench/shortcuts printed, by platform.
type shortcutsRun struct {
	rows     map[string][]shortcutRow // platform ("native", "wasm") → rows in order
	commands []string
	notes    []string
	elapsed  time.Duration
}

// shortcutRow is one engine's line.
type shortcutRow struct {
	Key       string    `json:"key"`
	RoundTrip []float64 `json:"roundTrip"`
	Sets      []float64 `json:"sets"`
	Errors    []string  `json:"errors"`
}

// shortcutsArgs are bench/shortcuts's bounds: sixteen engines, so each gets
// little; about a minute natively and a few in wasm on an idle machine.
func shortcutsArgs(quick bool) []string {
	if quick {
		return []string{"-runs", "1", "-rounds", "1", "-budget", "150ms", "-max", "300", "-warmup", "50"}
	}
	return []string{"-runs", "3", "-rounds", "2", "-budget", "400ms", "-max", "1000", "-warmup", "200"}
}

// measureShortcuts runs bench/shortcuts in wasm, then natively.
func measureShortcuts(cfg config, bl *builds, logf func(string, ...any)) *shortcutsRun {
	began := time.Now()
	s := &shortcutsRun{rows: map[string][]shortcutRow{}}
	args := shortcutsArgs(cfg.quick)
	type platform struct {
		name string
		argv []string
		env  []string
	}
	var list []platform
	if bl.shortcutsWasm != "" {
		if execPath, err := wasmExecRunner(); err != nil {
			s.notes = append(s.notes, "the shortcuts in wasm: not measured: "+err.Error())
		} else {
			list = append(list, platform{"wasm", append([]string{execPath, bl.shortcutsWasm}, args...), []string{"GOGC=" + strconv.Itoa(api.GCPercent)}})
		}
	}
	if bl.shortcutsNative != "" {
		list = append(list, platform{"native", append([]string{bl.shortcutsNative}, args...), nil})
	}
	for _, pl := range list {
		logf("what each shortcut buys: %s", pl.name)
		shown := strings.Join(pl.argv, " ")
		if len(pl.env) > 0 {
			shown = strings.Join(pl.env, " ") + " " + shown
		}
		s.commands = append(s.commands, shown)
		cmd := exec.Command(pl.argv[0], pl.argv[1:]...)
		cmd.Dir = cfg.root
		cmd.Env = append(os.Environ(), pl.env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var ev struct {
			Event string        `json:"event"`
			Rows  []shortcutRow `json:"rows"`
		}
		if err == nil {
			if jerr := json.Unmarshal(out, &ev); jerr != nil || ev.Event != "shortcuts" {
				err = fmt.Errorf("printed no rows (%v): %.200s", jerr, out)
			}
		} else {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
		}
		if err != nil {
			s.notes = append(s.notes, fmt.Sprintf("the shortcuts, %s: not measured: %s", pl.name, firstLine(err.Error())))
			logf("shortcuts, %s: %v", pl.name, err)
			continue
		}
		s.rows[pl.name] = ev.Rows
	}
	s.elapsed = time.Since(began)
	return s
}

// keys are the engines measured on any platform, in order.
func (s *shortcutsRun) keys() []string {
	var out []string
	seen := map[string]bool{}
	for _, pl := range []string{"native", "wasm"} {
		for _, r := range s.rows[pl] {
			if !seen[r.Key] {
				seen[r.Key] = true
				out = append(out, r.Key)
			}
		}
	}
	return out
}

// median is the median of one engine's samples on a platform (sets: the
// script's, else the round trip's), false without samples.
func (s *shortcutsRun) median(platform, key string, sets bool) (float64, bool) {
	for _, r := range s.rows[platform] {
		if r.Key != key {
			continue
		}
		samples := r.RoundTrip
		if sets {
			samples = r.Sets
		}
		if len(samples) == 0 {
			return 0, false
		}
		return summarize(samples).median, true
	}
	return 0, false
}

// cell is one engine's median on a platform and what it costs against the
// fast engine: "14.2 µs (+3%)".
func (s *shortcutsRun) cell(platform, key string, sets bool) string {
	v, ok := s.median(platform, key, sets)
	if !ok {
		return "—"
	}
	show := us(v)
	if sets {
		show = ms(v)
	}
	fast, ok := s.median(platform, "fast", sets)
	if !ok || key == "fast" || fast == 0 {
		return show
	}
	return fmt.Sprintf("%s (%+.0f%%)", show, (v/fast-1)*100)
}

// shortcutsSection is the report's table of what each shortcut buys.
func (r *report) shortcutsSection(p printer) {
	s := r.shortcuts
	if s == nil || len(s.rows) == 0 && len(s.notes) == 0 {
		return
	}
	p("## What each shortcut buys\n\n")
	p("The engine as it ships against the reference engine (`engine.Options{Reference: true}`: every cache and fast path off, each command answered the plain way; `TestReferenceEngineAgrees` in `wasm/fidelity` holds the two to the same replies and keyspace) and against the engine with each shortcut alone off (`engine.Options{Without: s}`; what each is, `wasm/engine/options.go`). " +
		"The round trip is `emq.Jobs` over the engine at depth 10, no bridge (µs, the median of every sample); the script is one of 100,000 SETs from an empty database (ms, the median of its runs). In brackets, how much slower than the fast engine: what the shortcut buys there. " +
		"Each engine is measured in turns with the others, in `bench/shortcuts`, after the floors.\n\n")
	p("| engine | round trip, native | round trip, wasm | 100,000 SETs, native | 100,000 SETs, wasm |\n|---|---:|---:|---:|---:|\n")
	for _, k := range s.keys() {
		name := "without " + k
		switch k {
		case "fast":
			name = "**fast** (`engine.New()`)"
		case "reference":
			name = "**reference** (every shortcut off)"
		}
		p("| %s | %s | %s | %s | %s |\n", name, s.cell("native", k, false), s.cell("wasm", k, false), s.cell("native", k, true), s.cell("wasm", k, true))
	}
	for _, pl := range []string{"native", "wasm"} {
		for _, row := range s.rows[pl] {
			for _, e := range row.Errors {
				p("\n%s, %s: %s", pl, row.Key, mdEscape(e))
			}
		}
	}
	for _, n := range s.notes {
		p("\n%s\n", mdEscape(n))
	}
	p("\nCommands (%.0f s): `%s`.\n\n", s.elapsed.Seconds(), strings.Join(s.commands, "`, `"))
}
