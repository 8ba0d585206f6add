package engine

import (
	"fmt"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/cli"
	"echomq.dev/playground/wasm/resp"
)

// The fixups' tests compare the engine with replies recorded from a real
// redis-server 7.0 (recorder_test.go writes them with -update), so they
// need no server and run under js/wasm too. Each fixups_*.go has a test
// file of its own with its cases; each case is a few commands sent in
// order on one connection of a fresh server, and every reply counts, so a
// case can read back what a command left in the keyspace.

// recordedCase is one case: what it shows, and the commands.
type recordedCase struct {
	desc string
	cmds [][]string
}

// redisCase is a case, its commands written as a learner types them at
// redis-cli ("" is an empty argument, "\x00" a NUL byte).
func redisCase(desc string, cmds ...string) recordedCase {
	rc := recordedCase{desc: desc}
	for _, line := range cmds {
		args, err := cli.Split(line)
		if err != nil || len(args) == 0 {
			panic(fmt.Sprintf("%s: the line %q does not split: %v", desc, line, err))
		}
		rc.cmds = append(rc.cmds, args)
	}
	return rc
}

// recordedFiles are the cases by the file of fixups they test; each is
// recorded into testdata/<name>.replies (internal/redisdiff's recording,
// as every suite that holds the engine to redis-server keeps its replies).
var recordedFiles = []struct {
	name  string
	cases []recordedCase
}{
	{"fixups_commands", commandsCases},
	{"fixups_hash", hashCases},
	{"fixups_set", setCases},
	{"fixups_float", floatCases},
	{"fixups_zset", zsetCases},
	{"fixups_resp3", resp3Cases},
}

// recording is the file of name's cases: one take, name, of one exchange
// per case, keyed by caseKey.
func recording(name string) *redisdiff.Recording {
	return redisdiff.NewRecording("testdata/" + name + ".replies")
}

// caseKey names a case in its recording.
func caseKey(rc recordedCase) string { return redisdiff.Key([]string{rc.desc, rc.input()}) }

// input is a case's commands as the recording keeps them: arguments
// joined by NUL, commands by newlines.
func (rc recordedCase) input() string {
	lines := make([]string, len(rc.cmds))
	for i, cmd := range rc.cmds {
		lines[i] = strings.Join(cmd, "\x00")
	}
	return strings.Join(lines, "\n")
}

// notCompared stands for HELLO's reply, which names the server.
var notCompared = resp.StatusReply("(HELLO's reply is not compared)")

// runCase sends a case's commands on do and returns the replies as one.
func runCase(rc recordedCase, do func(args ...string) (resp.Reply, error)) (resp.Reply, error) {
	out := make([]resp.Reply, len(rc.cmds))
	for i, cmd := range rc.cmds {
		r, err := do(cmd...)
		if err != nil {
			return resp.Reply{}, err
		}
		if strings.EqualFold(cmd[0], "HELLO") {
			r = notCompared
		}
		out[i] = r
	}
	return resp.ArrayReply(out...), nil
}

// checkRecorded runs name's cases on a fresh engine each and compares
// every reply with Redis's.
func checkRecorded(t *testing.T, name string, cases []recordedCase) {
	t.Helper()
	rec := recording(name)
	xs, err := rec.Take(name)
	if err != nil {
		t.Fatalf("%v (record it: go test -run TestRecordFixupReplies -update ./wasm/engine, with redis-server on PATH)", err)
	}
	recorded := map[string]string{}
	for _, x := range xs {
		recorded[x.Key] = x.Reply
	}
	for _, rc := range cases {
		t.Run(rc.desc, func(t *testing.T) {
			g, ok := recorded[caseKey(rc)]
			if !ok {
				t.Fatalf("not in %s: record it with go test -run TestRecordFixupReplies -update", rec.Path())
			}
			got, _ := runCase(rc, MustNew().Do)
			if redisdiff.Matches(g, got) {
				return
			}
			want, _ := redisdiff.Recorded(g)
			for i, cmd := range rc.cmds {
				if i < len(want.Elems) && !got.Elems[i].Equal(want.Elems[i]) {
					t.Errorf("%s\n  here: %s\n redis: %s", strings.Join(cmd, " "), got.Elems[i], want.Elems[i])
				}
			}
		})
	}
}
