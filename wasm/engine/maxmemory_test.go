package engine

import (
	"strings"
	"testing"
)

// TestPastMaxmemoryDenyoomIsRefused: CONFIG SET maxmemory 1 puts the
// engine past its limit, as it does Redis (whose idle used memory is about
// 1 MB): SET is refused with Redis's OOM error and writes nothing, GET and
// DEL still run, and maxmemory 0 lifts it.
func TestPastMaxmemoryDenyoomIsRefused(t *testing.T) {
	e := MustNew()
	do(t, e, "OK", "SET", "x", "123")
	do(t, e, "OK", "CONFIG", "SET", "maxmemory", "1")
	do(t, e, "(error) "+errOOM, "SET", "x", "1")
	do(t, e, `"123"`, "GET", "x")
	do(t, e, "(error) "+errOOM, "FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return 1 end)")
	do(t, e, "(integer) 1", "DEL", "x")
	if info := e.exec("INFO", "commandstats").Str; !strings.Contains(info, "cmdstat_set:calls=1,usec=0,usec_per_call=0.00,rejected_calls=1,failed_calls=0") {
		t.Errorf("a SET refused for memory is counted as rejected, as Redis counts it: INFO commandstats has\n%s", info)
	}
	do(t, e, "OK", "CONFIG", "SET", "maxmemory", "0")
	do(t, e, "OK", "SET", "x", "1")
	do(t, e, "OK", "CONFIG", "SET", "maxmemory", "100mb")
	do(t, e, "OK", "SET", "x", "2")
	// Reset gives a fresh engine: the limit goes with the configuration.
	do(t, e, "OK", "CONFIG", "SET", "maxmemory", "1")
	e.Reset()
	do(t, e, "OK", "SET", "x", "3")
}

// TestScriptsPastMaxmemory: the rules of Redis 7.0's allow-oom test. A
// script with no shebang may read and is stopped at its first write; one
// that declares flags is refused unless they say allow-oom or no-writes.
func TestScriptsPastMaxmemory(t *testing.T) {
	e := MustNew()
	do(t, e, "OK", "SET", "x", "123")
	do(t, e, "OK", "CONFIG", "SET", "maxmemory", "1")
	got := e.exec("EVAL", "redis.call('set','x',1) return 1", "1", "x").String()
	if want := "(error) " + errOOM; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("a legacy script's first write: %s, want it to start %s", got, want)
	}
	do(t, e, `"123"`, "EVAL", "return redis.call('get','x')", "1", "x")
	do(t, e, "(error) "+errOOM, "EVAL", "#!lua flags=\nreturn 1", "1", "x")
	do(t, e, "(integer) 1", "EVAL", "#!lua flags=allow-oom\nredis.call('set','x',1) return 1", "1", "x")
	do(t, e, "(integer) 1", "EVAL", "#!lua flags=no-writes\nredis.call('get','x') return 1", "1", "x")
	do(t, e, "(integer) 1", "EVAL_RO", "#!lua flags=no-writes\nredis.call('get','x') return 1", "1", "x")
	// Once a script has written, it is let finish.
	do(t, e, "OK", "CONFIG", "SET", "maxmemory", "0")
	do(t, e, `"lib"`, "FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('w', function() return redis.call('set','x','1') end)\n"+
		"redis.register_function{function_name='ro', callback=function() return 'hello' end, flags={'no-writes'}}\n"+
		"redis.register_function{function_name='oom', callback=function() return redis.call('set','x','2') end, flags={'allow-oom'}}")
	do(t, e, "OK", "CONFIG", "SET", "maxmemory", "1")
	do(t, e, "(error) "+errOOM, "FCALL", "w", "1", "x")
	do(t, e, `"hello"`, "FCALL", "ro", "1", "x")
	do(t, e, `"hello"`, "FCALL_RO", "ro", "1", "x")
	do(t, e, "OK", "FCALL", "oom", "1", "x")
	do(t, e, `"2"`, "GET", "x")
}

// TestMultiPastMaxmemory: past the limit a transaction queues nothing,
// and its EXEC is refused as spoilt.
func TestMultiPastMaxmemory(t *testing.T) {
	e := MustNew()
	do(t, e, "OK", "CONFIG", "SET", "maxmemory", "1")
	do(t, e, "OK", "MULTI")
	do(t, e, "(error) "+errOOM, "GET", "x")
	do(t, e, "(error) EXECABORT Transaction discarded because of previous errors.", "EXEC")
}
