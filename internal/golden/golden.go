// Package golden keeps replies recorded from a real redis-server in a
// testdata file, so that a test can compare the playground with Redis 7.0
// without a server: on any machine, and under js/wasm, where no server can
// run. A package's recorder runs its cases on redis-server (with -update)
// and writes the file; its ordinary test reads the file back.
//
// The file is text a reviewer can read in a diff: per case, a "# desc"
// line, then each of the case's inputs quoted on a line of its own, then
// the reply's RESP bytes quoted. A reply longer than MaxReply is kept as
// its SHA-256 only.
package golden

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// MaxReply is the longest reply a file keeps whole, in RESP bytes.
const MaxReply = 16 << 10

// Entry is one recorded case.
type Entry struct {
	Desc   string
	Inputs []string   // what the case sent, in the caller's own encoding
	Reply  resp.Reply // what redis-server answered (zero when Sum is set)
	Sum    string     // "sha256:..." for a reply too long to keep
}

// Key is what a case is found by: its description and inputs.
func Key(desc string, inputs ...string) string {
	return desc + "\x00" + strings.Join(inputs, "\x00")
}

// Key is the entry's Key.
func (e Entry) Key() string { return Key(e.Desc, e.Inputs...) }

// Matches reports whether r is the recorded reply.
func (e Entry) Matches(r resp.Reply) bool {
	if e.Sum != "" {
		return digest(r) == e.Sum
	}
	return r.Equal(e.Reply)
}

func digest(r resp.Reply) string {
	return fmt.Sprintf("sha256:%x", sha256.Sum256(resp.Append(nil, r)))
}

// Read reads the entries of the file at path, each with the given number
// of inputs, by Key.
func Read(path string, inputs int) (map[string]Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	out := map[string]Entry{}
	per := inputs + 2
	for i := 0; i+per-1 < len(lines); i += per {
		if !strings.HasPrefix(lines[i], "# ") {
			return nil, fmt.Errorf("%s:%d: want a # line", path, i+1)
		}
		e := Entry{Desc: lines[i][2:], Inputs: make([]string, inputs)}
		for j := range e.Inputs {
			if e.Inputs[j], err = strconv.Unquote(lines[i+1+j]); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, i+2+j, err)
			}
		}
		raw, err := strconv.Unquote(lines[i+per-1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+per, err)
		}
		if strings.HasPrefix(raw, "sha256:") {
			e.Sum = raw
		} else if e.Reply, err = resp.Parse([]byte(raw)); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+per, err)
		}
		out[e.Key()] = e
	}
	return out, nil
}

// Write writes entries to the file at path, in their order.
func Write(path string, entries []Entry) error {
	var b strings.Builder
	for _, e := range entries {
		raw := string(resp.Append(nil, e.Reply))
		if len(raw) > MaxReply {
			raw = digest(e.Reply)
		}
		b.WriteString("# " + e.Desc + "\n")
		for _, in := range e.Inputs {
			b.WriteString(strconv.Quote(in) + "\n")
		}
		b.WriteString(strconv.Quote(raw) + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
