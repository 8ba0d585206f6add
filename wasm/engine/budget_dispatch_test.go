package engine

import (
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/wasm/resp"
)

// TestSlowCommandRunawayStopsAtTheFirstCommandPastItsBudget: a script that
// loops around a slow command is stopped by the first command that ends
// after its budget, not a hundred commands later when the VM next looks at
// the clock. (At depth 100,000 a loop around a slow command ran 9.7 s past
// its 0.9 s budget.) The budget here is shorter than any command, so a
// script that ran a second command was not stopped in time; which command
// ends the budget does not depend on how fast the machine is.
func TestSlowCommandRunawayStopsAtTheFirstCommandPastItsBudget(t *testing.T) {
	e := MustNew()
	for i := range 2000 {
		e.exec("SADD", "big", "member:"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+itoa(i))
	}
	old := scriptLastResort
	scriptLastResort = time.Nanosecond
	defer func() { scriptLastResort = old }()
	r := e.exec("EVAL", `local n = 0
while true do
  redis.call('SMEMBERS', KEYS[1])
  n = n + 1
  redis.call('SET', 'calls', n)
end`, "1", "big")
	if !strings.HasPrefix(r.Str, "ERR Script killed by user with SCRIPT KILL...") {
		t.Fatalf("the runaway answered %v, not the budget's error", r)
	}
	if got := e.exec("GET", "calls"); got.Kind != resp.Nil {
		t.Errorf("the script ran on after the command that ended its budget: calls = %q", got.Str)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
