package api

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// The console's method, as the console widget calls it: one typed line in,
// the arguments sent, the reply, and the text redis-cli would print.

func TestCliRunsALineAndPrintsWhatRedisCliPrints(t *testing.T) {
	p := New()
	got := call(t, p, "cli", "ZADD emq:{q}:pending 0 JOB-9")
	want := map[string]any{
		"args":  []any{"ZADD", "emq:{q}:pending", "0", "JOB-9"},
		"reply": map[string]any{"type": "int", "value": "1"},
		"text":  "(integer) 1",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	// The handles see the console's write: it is one keyspace.
	snap := call(t, p, "snapshot", "q")
	if pending := snap["pending"].([]any); len(pending) != 1 || pending[0].(map[string]any)["id"] != "JOB-9" {
		t.Fatalf("snapshot after the console's ZADD: %v", snap)
	}
	// In this order: the later lines read what the earlier ones wrote.
	for _, tc := range []struct{ line, text string }{
		{`ZRANGE emq:{q}:pending 0 -1`, `1) "JOB-9"`},
		{`HGET emq:{q}:job:JOB-9 state`, `(nil)`},
		{`SET greeting "hi\tthere"`, `OK`},
		{`GET greeting`, `"hi\tthere"`},
		{`EVAL "return {1,{2}}" 0`, "1) (integer) 1\n2) 1) (integer) 2"},
		{`EVAL "return redis.call('GET', KEYS[1])" 1 greeting`, `"hi\tthere"`},
		{`INCR greeting`, `(error) ERR value is not an integer or out of range`},
	} {
		line, text := tc.line, tc.text
		if got := call(t, p, "cli", line); got["text"] != text {
			t.Errorf("cli(%q) text = %q, want %q (%v)", line, got["text"], text, got)
		}
	}
}

func TestCliRefusesWhatRedisCliRefuses(t *testing.T) {
	p := New()
	for _, line := range []string{`SET "a"b`, `GET 'x`, `ECHO "unfinished\"`} {
		got := call(t, p, "cli", line)
		want := map[string]any{"error": "syntax", "message": "Invalid argument(s)"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("cli(%q) = %v, want %v", line, got, want)
		}
	}
	if got := call(t, p, "exec", []any{"DBSIZE"}); got["value"] != "0" {
		t.Errorf("a refused line reached the keyspace: DBSIZE = %v", got)
	}
}

func TestCliBlankLineSendsNothing(t *testing.T) {
	for _, line := range []string{"", "   ", "\t"} {
		got := call(t, New(), "cli", line)
		want := map[string]any{"args": []any{}, "text": ""}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("cli(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestCliTakesOneStringLine(t *testing.T) {
	p := New()
	for _, tc := range []struct {
		args []any
		want string
	}{
		{nil, "cli(line) takes 1 argument, got 0"},
		{[]any{"PING", "PING"}, "cli(line) takes 1 argument, got 2"},
		{[]any{[]any{"PING"}}, "line must be a string, got an array"},
		{[]any{Foreign("undefined")}, "line must be a string, got undefined"},
	} {
		got := call(t, p, "cli", tc.args...)
		if got["error"] != "args" || got["message"] != tc.want {
			t.Errorf("cli%v = %v, want {error: args, message: %q}", tc.args, got, tc.want)
		}
	}
}

// HELLO 3 at the console is the console's business: exec and the handles
// keep their own RESP2 connections, and a reset brings the console back.
func TestCliHasItsOwnConnection(t *testing.T) {
	p := New()
	call(t, p, "cli", "HSET h f v")
	if got := call(t, p, "cli", "HELLO 3"); got["reply"].(map[string]any)["type"] != "map" {
		t.Fatalf("HELLO 3: %v", got)
	}
	if got := call(t, p, "cli", "HGETALL h"); got["text"] != `1# "f" => "v"` {
		t.Errorf("console after HELLO 3: %v", got)
	}
	if got := call(t, p, "exec", []any{"HGETALL", "h"}); got["type"] != "array" {
		t.Errorf("exec after the console's HELLO 3: %v", got)
	}
	if got := call(t, p, "enqueue", "q", "JOB-1", "{}"); got["verdict"] != "enqueued" {
		t.Errorf("enqueue after the console's HELLO 3: %v", got)
	}
	call(t, p, "exec", []any{"HELLO", "3"})
	call(t, p, "cli", "HELLO 2")
	if got := call(t, p, "cli", "HGETALL h"); got["text"] != "1) \"f\"\n2) \"v\"" {
		t.Errorf("console after exec's HELLO 3 and its own HELLO 2: %v", got)
	}
	call(t, p, "cli", "HELLO 3")
	call(t, p, "reset")
	call(t, p, "cli", "HSET h f v")
	if got := call(t, p, "cli", "HGETALL h"); got["text"] != "1) \"f\"\n2) \"v\"" {
		t.Errorf("console after reset: %v", got)
	}
}

// A runaway script typed at the console comes back within about a second
// as Redis's SCRIPT KILL error, with a note in plain words, and what it
// wrote before it was stopped stays.
func TestCliRunawayScriptIsStoppedWithANote(t *testing.T) {
	p := New()
	start := time.Now()
	got := call(t, p, "cli", `EVAL "redis.call('SET', 'written', 'yes') while true do end" 0`)
	t.Logf("the runaway script stopped after %v", time.Since(start)) // the budget's own tests judge it
	text, _ := got["text"].(string)
	if !strings.HasPrefix(text, "(error) ERR Script killed by user with SCRIPT KILL... script: ") || !strings.HasSuffix(text, ", on @user_script:1.") {
		t.Errorf("text = %q", text)
	}
	note, _ := got["note"].(string)
	for _, words := range []string{"The playground stopped this script once it had done 25 million steps of work", "SCRIPT KILL", "nothing is rolled back"} {
		if !strings.Contains(note, words) {
			t.Errorf("note %q does not say %q", note, words)
		}
	}
	if got := call(t, p, "cli", "GET written"); got["text"] != `"yes"` {
		t.Errorf("the script's write was lost: %v", got)
	}
	if got := call(t, p, "cli", "PING"); got["text"] != "PONG" {
		t.Errorf("the console stopped answering: %v", got)
	}
}

func TestCliNoNoteForAScriptThatOnlySaysItWasKilled(t *testing.T) {
	got := call(t, New(), "cli", `EVAL "return redis.error_reply('ERR Script killed by user with SCRIPT KILL...')" 0`)
	if _, ok := got["note"]; ok || got["text"] != "(error) ERR Script killed by user with SCRIPT KILL..." {
		t.Errorf("got %v", got)
	}
}

// TestHelpIsRedisCliStyle: `help <command>` prints what redis-cli's help
// does (the syntax, summary, since and group) for the lesson's commands,
// sends nothing, and names the card to open.
func TestHelpIsRedisCliStyle(t *testing.T) {
	p := New()
	got := call(t, p, "cli", "help zpopmin")
	want := "\n  ZPOPMIN key [count]\n  summary: Removes and returns the members with the lowest scores in a sorted set.\n  since: 5.0.0\n  group: sorted-set\n"
	if got["text"] != want || got["command"] != "ZPOPMIN" || len(got["args"].([]any)) != 0 {
		t.Errorf("help zpopmin = %#v, want text %q", got, want)
	}
	if got := call(t, p, "cli", "HELP script load"); got["command"] != "SCRIPT LOAD" {
		t.Errorf("HELP script load = %v", got)
	}
	if got := call(t, p, "cli", "help nosuch"); got["text"] != "" || !strings.Contains(got["note"].(string), "ZPOPMIN") {
		t.Errorf("help nosuch = %v", got)
	}
	// COMMAND DOCS reaches the engine, which answers in Redis 7.0's shape.
	got = call(t, p, "cli", "COMMAND DOCS time")
	if want := "1) \"time\"\n2) 1) \"summary\"\n   2) \"Reads the server's clock.\"\n   3) \"since\"\n   4) \"2.6.0\"\n   5) \"group\"\n   6) \"server\"\n   7) \"complexity\"\n   8) \"O(1)\""; got["text"] != want {
		t.Errorf("COMMAND DOCS time printed\n%s\nwant\n%s", got["text"], want)
	}
}
