package engine

import (
	"strings"
	"testing"
)

// The blocking front: answered at once with data, Redis's timeout answer
// without (and the timeout kept for the console's note), a refusal for a
// wait that could only end by another client's write.
func TestBlockingCommandsAnswerAtOnceOrSayWhatTheyDidNotWait(t *testing.T) {
	e := MustNew()
	c := e.NewClient()
	run := func(args ...string) (string, int64) {
		r, _ := c.Do(args...)
		return r.String(), c.LastUnwaited()
	}
	for _, tc := range []struct {
		args     []string
		want     string
		unwaited int64
	}{
		{[]string{"RPUSH", "l", "a", "b"}, "(integer) 2", 0},
		{[]string{"BLPOP", "none", "l", "1"}, "1) \"l\"\n2) \"a\"", 0},
		{[]string{"BRPOP", "l", "0"}, "1) \"l\"\n2) \"b\"", 0},
		{[]string{"BLPOP", "l", "0.25"}, "(nil)", 250},
		{[]string{"BLPOP", "l", "0.0001"}, "(nil)", 1}, // rounded up to a millisecond, as Redis does
		{[]string{"BLPOP", "l", "-1"}, "(error) ERR timeout is negative", 0},
		{[]string{"BLPOP", "l", "1e16"}, "(error) ERR timeout is negative", 0}, // past a long long's range
		{[]string{"BLPOP", "l", "x"}, "(error) ERR timeout is not a float or out of range", 0},
		{[]string{"ZADD", "z", "1", "m"}, "(integer) 1", 0},
		{[]string{"BZPOPMIN", "z", "1"}, "1) \"z\"\n2) \"m\"\n3) \"1\"", 0},
		{[]string{"WAIT", "0", "0"}, "(integer) 0", 0},
		{[]string{"WAIT", "1", "20"}, "(integer) 0", 20},
		{[]string{"XREAD", "BLOCK", "30", "STREAMS", "s", "$"}, "(nil)", 30},
	} {
		got, unwaited := run(tc.args...)
		if got != tc.want || unwaited != tc.unwaited {
			t.Errorf("%q = %s (unwaited %d ms), want %s (unwaited %d ms)", tc.args, got, unwaited, tc.want, tc.unwaited)
		}
	}
	if got, _ := run("BLPOP", "l", "0"); !strings.Contains(got, "wait forever") {
		t.Errorf("BLPOP l 0 on an empty list = %s, want the refusal", got)
	}
}

// Inside MULTI Redis never blocks: timeout 0 answers a null at EXEC, and
// BRPOPLPUSH and BLMOVE a null string where the others send a null array.
func TestBlockingCommandsInsideMultiDoNotBlock(t *testing.T) {
	e := MustNew()
	for _, args := range [][]string{{"MULTI"}, {"BLPOP", "l", "0"}, {"BLMOVE", "l", "m", "LEFT", "LEFT", "0"}, {"WAIT", "1", "0"}} {
		e.exec(args...)
	}
	r := e.exec("EXEC")
	if len(r.Elems) != 3 || r.Elems[0].Str != "*" || r.Elems[1].Str != "" || r.Elems[2].Int != 0 {
		t.Errorf("EXEC = %#v, want a null array, a null string and 0", r)
	}
}
