package engine

import (
	"strings"
	"testing"
)

// TestRepliesRedisLeavesOpenAreNoticed holds LastUndefined to each place
// where Redis's own answer depends on its internals or on chance, and to
// silence everywhere the answer is defined: a note that fired on every
// reply would teach a learner to ignore it.
func TestRepliesRedisLeavesOpenAreNoticed(t *testing.T) {
	long := strings.Repeat("v", 65)
	cases := []struct {
		name  string
		setup [][]string
		cmd   []string
		want  Undefined
	}{
		{"a set of strings is a hash table", [][]string{{"SADD", "s", "a", "b"}}, []string{"SMEMBERS", "s"}, UndefinedOrder},
		{"a set of integers is an intset, in order", [][]string{{"SADD", "s", "3", "1", "2"}}, []string{"SMEMBERS", "s"}, 0},
		{"one member has one order", [][]string{{"SADD", "s", "a"}}, []string{"SMEMBERS", "s"}, 0},
		{"SSCAN's page of a hash-table set", [][]string{{"SADD", "s", "a", "b", "c"}}, []string{"SSCAN", "s", "0"}, UndefinedOrder},
		{"SUNION of strings", [][]string{{"SADD", "a", "x"}, {"SADD", "b", "y"}}, []string{"SUNION", "a", "b"}, UndefinedOrder},
		{"SUNION of intsets", [][]string{{"SADD", "a", "1"}, {"SADD", "b", "2"}}, []string{"SUNION", "a", "b"}, 0},
		{"a job row is a listpack, in insertion order", [][]string{{"HSET", "h", "state", "pending", "attempts", "0", "payload", "{}"}}, []string{"HGETALL", "h"}, 0},
		{"a hash with a long value is a hash table", [][]string{{"HSET", "h", "a", long, "b", "1"}}, []string{"HKEYS", "h"}, UndefinedOrder},
		{"HGETALL of a hash table", [][]string{{"HSET", "h", "a", long, "b", "1"}}, []string{"HGETALL", "h"}, UndefinedOrder},
		{"HGETALL of a hash table, under RESP3", [][]string{{"HELLO", "3"}, {"HSET", "h", "a", long, "b", "1"}}, []string{"HGETALL", "h"}, UndefinedOrder},
		{"KEYS of two keys", [][]string{{"SET", "a", "1"}, {"SET", "b", "1"}}, []string{"KEYS", "*"}, UndefinedOrder},
		{"KEYS of one key", [][]string{{"SET", "a", "1"}}, []string{"KEYS", "*"}, 0},
		{"SCAN of two keys", [][]string{{"SET", "a", "1"}, {"SET", "b", "1"}}, []string{"SCAN", "0"}, UndefinedOrder},
		{"SRANDMEMBER of two", [][]string{{"SADD", "s", "1", "2"}}, []string{"SRANDMEMBER", "s"}, UndefinedPick},
		{"SRANDMEMBER of one", [][]string{{"SADD", "s", "1"}}, []string{"SRANDMEMBER", "s"}, 0},
		{"SPOP of two leaves one", [][]string{{"SADD", "s", "1", "2"}}, []string{"SPOP", "s"}, UndefinedPick},
		{"HRANDFIELD", [][]string{{"HSET", "h", "a", "1", "b", "2"}}, []string{"HRANDFIELD", "h"}, UndefinedPick},
		{"ZRANDMEMBER", [][]string{{"ZADD", "z", "1", "a", "2", "b"}}, []string{"ZRANDMEMBER", "z"}, UndefinedPick},
		{"RANDOMKEY of two", [][]string{{"SET", "a", "1"}, {"SET", "b", "1"}}, []string{"RANDOMKEY"}, UndefinedPick},
		{"RANDOMKEY of one", [][]string{{"SET", "a", "1"}}, []string{"RANDOMKEY"}, 0},
		{"a sorted set is ordered", [][]string{{"ZADD", "z", "1", "a", "1", "b"}}, []string{"ZRANGE", "z", "0", "-1"}, 0},
		{"an error says nothing", nil, []string{"SMEMBERS"}, 0},
		{"a script's SMEMBERS", [][]string{{"SADD", "s", "a", "b"}}, []string{"EVAL", "return redis.call('SMEMBERS', KEYS[1])", "1", "s"}, UndefinedOrder},
		{"a script that walks a table keyed by tables into its reply", nil,
			[]string{"EVAL", "local t = {} for k, v in pairs({[{}] = 'a', [{}] = 'b'}) do t[#t + 1] = v end return t", "0"}, UndefinedWalk},
		{"a script that walks one keyed by functions with next into a string", nil,
			[]string{"EVAL", "local t, s = {[tostring] = 'a', [type] = 'b'}, '' local k, v = next(t) s = s .. v return s", "0"}, UndefinedWalk},
		{"a script that walks one to sum it", nil,
			[]string{"EVAL", "local n = 0 for _, v in pairs({[{}] = 1, [{}] = 2}) do n = n + v end return n", "0"}, 0},
		{"a script that walks one and writes", nil,
			[]string{"EVAL", "for _, v in pairs({[{}] = 'a', [{}] = 'b'}) do redis.call('RPUSH', KEYS[1], v) end return 1", "1", "l"}, UndefinedWalk},
		{"a walk of string keys is Lua 5.1's, modelled", nil,
			[]string{"EVAL", "local t = {} for k in pairs({a = 1, b = 2, c = 3, d = 4}) do t[#t + 1] = k end return t", "0"}, 0},
		{"a walk of number keys outside the array part", nil,
			[]string{"EVAL", "local t, o = {1, 2, 3}, {} t[10] = 10 t[5] = 5 for k in pairs(t) do o[#o + 1] = k end return o", "0"}, UndefinedWalk},
		{"next over string keys is Lua 5.1's, modelled", nil,
			[]string{"EVAL", "local t, r, k = {a = 1, b = 2, c = 3, d = 4}, {} k = next(t) while k do r[#r + 1] = k k = next(t, k) end return r", "0"}, 0},
		{"the lesson's enqueue", nil,
			[]string{"EVAL", "redis.call('HSET', KEYS[1], 'state', 'pending') redis.call('RPUSH', KEYS[2], ARGV[1]) return 1", "2", "emq:{q}:job:JOB-1", "emq:{q}:pending", "JOB-1"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := MustNew()
			for _, s := range c.setup {
				e.Do(s...)
			}
			r, _ := e.Do(c.cmd...)
			if got := e.LastUndefined(); got != c.want {
				t.Fatalf("%q -> %v: LastUndefined %b, want %b", c.cmd, r, got, c.want)
			}
			// The next command starts afresh.
			e.Do("PING")
			if got := e.LastUndefined(); got != 0 {
				t.Fatalf("PING after %q: LastUndefined %b, want 0", c.cmd, got)
			}
		})
	}
}
