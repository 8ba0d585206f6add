package engine

import (
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	emqlua "echomq.dev/playground/lua"
)

// BenchmarkClaimAtDepth is one claim (and the enqueue that keeps the depth)
// with depth jobs pending: the lesson's "pop the oldest, O(log n)".
func BenchmarkClaimAtDepth(b *testing.B) {
	enq, clm := emqlua.Enqueue(), emqlua.Claim()
	for _, depth := range []int{10, 1000, 10000, 100000} {
		b.Run(strconv.Itoa(depth), func(b *testing.B) {
			e := MustNew()
			base, pending, active := "emq:{q}:job:", "emq:{q}:pending", "emq:{q}:active"
			id := 0
			enqueue := func() {
				id++
				j := "JOB" + strconv.Itoa(id)
				e.exec("EVALSHA", enq.SHA, "2", base+j, pending, j, "payload")
			}
			e.exec("SCRIPT", "LOAD", enq.Source)
			e.exec("SCRIPT", "LOAD", clm.Source)
			for range depth {
				enqueue()
			}
			b.ResetTimer()
			for range b.N {
				if r := e.exec("EVALSHA", clm.SHA, "2", pending, active, base, "30000"); r.IsError() {
					b.Fatal(r)
				}
				enqueue()
			}
		})
	}
}

// BenchmarkPop1000Of10000 is one script popping 1,000 ids of 10,000 pending.
func BenchmarkPop1000Of10000(b *testing.B) {
	for range b.N {
		b.StopTimer()
		e := MustNew()
		args := []string{"ZADD", "p"}
		for i := range 10000 {
			args = append(args, "0", "JOB"+strconv.Itoa(i))
		}
		e.exec(args...)
		b.StartTimer()
		if r := e.exec("EVAL", "for i = 1, 1000 do redis.call('ZPOPMIN', KEYS[1]) end return 1", "1", "p"); r.IsError() {
			b.Fatal(r)
		}
	}
}

// BenchmarkScript100kSets is one script of 100,000 SETs.
func BenchmarkScript100kSets(b *testing.B) {
	e := MustNew()
	for range b.N {
		if r := e.exec("EVAL", "for i = 1, 100000 do redis.call('SET', 'k' .. (i % 100), i) end return 1", "0"); r.IsError() {
			b.Fatal(r)
		}
	}
}

// BenchmarkScriptThroughput is bench's script throughput: one script of
// 5,000 redis.calls on one key (SET k i; HSET k f<i> i and ZADD k i m<i>,
// which grow the key to 5,000 members), and bench's 100,000 SETs of
// distinct keys. The keyspace is emptied between runs, untimed.
func BenchmarkScriptThroughput(b *testing.B) {
	for _, c := range []struct {
		name, script, n string
	}{
		{"SET", "for i = 1, tonumber(ARGV[1]) do redis.call('SET', KEYS[1], i) end return 1", "5000"},
		{"ZADD", "for i = 1, tonumber(ARGV[1]) do redis.call('ZADD', KEYS[1], i, 'm' .. i) end return 1", "5000"},
		{"HSET", "for i = 1, tonumber(ARGV[1]) do redis.call('HSET', KEYS[1], 'f' .. i, i) end return 1", "5000"},
		{"100kSETs", "for i = 1, tonumber(ARGV[1]) do redis.call('SET', KEYS[1] .. i, 'v') end return 1", "100000"},
	} {
		b.Run(c.name, func(b *testing.B) {
			oldWork, oldLast := scriptWork, scriptLastResort
			scriptWork, scriptLastResort = math.MaxUint64, time.Hour // measured here, not stopped
			defer func() { scriptWork, scriptLastResort = oldWork, oldLast }()
			e := MustNew()
			for range b.N {
				b.StopTimer()
				e.exec("FLUSHALL")
				b.StartTimer()
				if r := e.exec("EVAL", c.script, "1", "k", c.n); r.IsError() {
					b.Fatal(r)
				}
			}
		})
	}
}

// BenchmarkMiniredisSetFloor is the part of bench's 100,000 SETs of new
// keys that the engine cannot cut while miniredis keeps the strings:
// miniredis's own direct Set, key by key, with no Lua and no engine in
// between. Each new key is written into four of its maps (keys,
// stringKeys, lru and keyVersion), after three lookups. Next to
// BenchmarkScriptThroughput/100kSETs it says how much of that script is
// the engine's and the VM's, and how much the store's.
func BenchmarkMiniredisSetFloor(b *testing.B) {
	keys := make([]string, 100000)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i+1)
	}
	m := miniredis.NewMiniRedis()
	m.SetTime(time.UnixMilli(Start))
	for range b.N {
		b.StopTimer()
		m.FlushAll()
		db := m.DB(0)
		b.StartTimer()
		for _, k := range keys {
			if err := db.Set(k, "v"); err != nil {
				b.Fatal(err)
			}
		}
	}
}
