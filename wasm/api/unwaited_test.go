package api

import (
	"strings"
	"testing"
)

// A blocking command at the console answers at once: with its element
// when there is one, and with Redis's timeout answer and a note when there
// is none, since no other client could write while it waited.
func TestCliBlockingCommandAnswersAndNotesTheWaitItSkipped(t *testing.T) {
	p := New()
	call(t, p, "cli", "RPUSH l a")
	if got := call(t, p, "cli", "BLPOP l 5"); got["text"] != "1) \"l\"\n2) \"a\"" || got["note"] != nil {
		t.Errorf("BLPOP with an element = %v, want it popped with no note", got)
	}
	got := call(t, p, "cli", "BLPOP l 1.5")
	note, _ := got["note"].(string)
	if got["text"] != "(nil)" || !strings.Contains(note, "1500 ms") || !strings.Contains(note, "the wait was not waited") {
		t.Errorf("BLPOP of an empty list = %v, want (nil) and a note of the 1500 ms not waited", got)
	}
	if got := call(t, p, "cli", "BLPOP l 0"); !strings.Contains(got["text"].(string), "wait forever") || got["note"] != nil {
		t.Errorf("BLPOP l 0 = %v, want the error that it would wait for ever", got)
	}
	if got := call(t, p, "cli", "WAIT 0 0"); got["text"] != "(integer) 0" || got["note"] != nil {
		t.Errorf("WAIT 0 0 = %v", got)
	}
}
