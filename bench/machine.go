package main

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// machine is what the figures were measured on.
type machine struct {
	cpu       string
	cores     int
	memory    string
	kernel    string
	goVersion string
	node      string
	redis     string
	chromium  string
	brotli    string
	commit    string
	date      time.Time
	loadStart string
	loadEnd   string
}

func describeMachine(root string) machine {
	m := machine{
		cpu:       cpuModel(),
		cores:     runtime.NumCPU(),
		memory:    memTotal(),
		kernel:    readTrim("/proc/sys/kernel/osrelease"),
		goVersion: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		node:      commandOutput("node", "--version"),
		redis:     commandOutput("redis-server", "--version"),
		chromium:  commandOutput(chromiumBinary(), "--version"),
		brotli:    commandOutput("brotli", "--version"),
		date:      time.Now().UTC(),
		loadStart: loadAverage(),
	}
	if c := commandIn(root, "git", "rev-parse", "--short", "HEAD"); c != "" {
		m.commit = c
		if commandIn(root, "git", "status", "--porcelain", "--untracked-files=no") != "" {
			m.commit += " (with uncommitted changes)"
		}
	}
	return m
}

// cpuModel is the first "model name" of /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown (" + runtime.GOARCH + ")"
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		key, value, ok := strings.Cut(s.Text(), ":")
		if ok && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return "unknown (" + runtime.GOARCH + ")"
}

func memTotal() string {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "MemTotal:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// loadAverage is the 1, 5 and 15 minute load from /proc/loadavg: how busy
// the machine was with other work while we measured.
func loadAverage() string {
	fields := strings.Fields(readTrim("/proc/loadavg"))
	if len(fields) < 3 {
		return "unknown"
	}
	return strings.Join(fields[:3], " ")
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// commandOutput is the first line a command prints, or "" if it cannot run.
func commandOutput(name string, args ...string) string {
	return commandIn("", name, args...)
}

func commandIn(dir, name string, args ...string) string {
	if name == "" {
		return ""
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return firstLine(string(out))
}

// chromiumBinary is the first Chromium found in PATH, or "".
func chromiumBinary() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}
