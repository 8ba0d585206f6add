package engine

import "testing"

// TestFunctionFlush: FUNCTION FLUSH, which Redis's own test suite sends
// before every group of tests, answers OK with either mode and refuses
// anything else in Redis 7.0's words.
func TestFunctionFlush(t *testing.T) {
	e := MustNew()
	do(t, e, "OK", "FUNCTION", "FLUSH")
	do(t, e, "OK", "FUNCTION", "FLUSH", "async")
	do(t, e, "OK", "function", "flush", "SYNC")
	do(t, e, "(error) ERR FUNCTION FLUSH only supports SYNC|ASYNC option", "FUNCTION", "FLUSH", "x")
	do(t, e, "(error) ERR unknown subcommand or wrong number of arguments for 'FLuSH'. Try FUNCTION HELP.", "FUNCTION", "FLuSH", "a", "b")
	do(t, e, "(error) ERR unknown subcommand 'foo'. Try FUNCTION HELP.", "FUNCTION", "foo")
	do(t, e, "(error) ERR wrong number of arguments for 'function' command", "FUNCTION")
}
