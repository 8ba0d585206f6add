package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// calls makes random calls of the JS API, as the bridge writes them
// (wire form, see fromWire): mostly well formed, on a few queues, ids and
// keys, so that they meet each other's keys; some with wrong types,
// numbers JSON has no digits for, text that is not valid, and objects.
type calls struct {
	r      *rand.Rand
	stamps string // the stamps of the last trace, for changed
}

func (c *calls) pick(xs ...string) string { return xs[c.r.IntN(len(xs))] }

func (c *calls) str() string {
	return c.pick(`"q"`, `"q"`, `"emails"`, `"JOB-1"`, `"JOB-2"`, `"JOB-007"`, `"job-3"`, `"{}"`, `"{\"to\":\"a@b\"}"`, `""`,
		`"caf\u00e9"`, `"\ud83d\ude00"`, `"<&>\u2028"`, `"\b\f\u0000"`, `"JOB-\ud800"`, `"30000"`, `"abc"`, `"-5"`, fmt.Sprintf(`"%s"`, strings.Repeat("p", c.r.IntN(3000))))
}

func (c *calls) num() string {
	return c.pick(`1`, `0`, `-0`, `2`, `30000`, `1.5`, `-5`, `1e21`, `25`, `10000`, `10001`, `1800000000000`, `{"n":"NaN"}`, `{"n":"Infinity"}`)
}

// arg is any argument, of any type.
func (c *calls) arg() string {
	switch c.r.IntN(10) {
	case 0:
		return c.num()
	case 1:
		return c.pick(`null`, `true`, `{"f":"undefined"}`, `{"f":"function"}`, `{"f":"a bigint"}`, `{"o":{"k":"0-0"}}`, `[]`)
	case 2:
		return "[" + c.str() + "," + c.str() + "]"
	}
	return c.str()
}

func (c *calls) command() string {
	key := c.pick(`"k"`, `"h"`, `"z"`, `"emq:{q}:pending"`, `"emq:{q}:active"`, `"emq:{q}:job:JOB-1"`, `"l"`)
	switch c.r.IntN(16) {
	case 0:
		return `["SET",` + key + `,` + c.str() + `]`
	case 1:
		return `["GET",` + key + `]`
	case 2:
		return `["HSET",` + key + `,"f",` + c.str() + `,"payload",` + c.str() + `]`
	case 3:
		return `["HGETALL",` + key + `]`
	case 4:
		return `["ZADD",` + key + `,"` + c.pick("0", "1.5", "-inf", "1e3") + `",` + c.str() + `]`
	case 5:
		return `["ZRANGE",` + key + `,"0","-1","WITHSCORES"]`
	case 6:
		return `["EVAL","` + c.pick(`return {1,'a',{true,false},redis.status_reply('S'),{err='E'}}`, `return string.char(255, 0, 200)`,
			`return {double=1.5}`, `return redis.call('KEYS', '*')`, `local t={} for i=1,600 do t={t} end return t`, `return 3.99`, `return ARGV[1]`) + `","0",` + c.str() + `]`
	case 7:
		return `["HELLO","` + c.pick("2", "3") + `"]`
	case 8:
		return `["RPUSH",` + key + `,` + c.str() + `]`
	case 9:
		return `["DEL",` + key + `]`
	case 10:
		return `["TIME"]`
	case 11:
		return `["INCRBY",` + key + `,"9007199254740993"]`
	case 12:
		return `["SADD",` + key + `,` + c.str() + `]`
	case 13:
		return `["SMEMBERS",` + key + `]`
	case 14:
		return `["PING"]`
	}
	return `["` + c.pick("MULTI", "EXEC", "DBSIZE", "FLUSHALL", "WATCH k", "NOSUCH") + `"]`
}

// call is one request: [method, args].
func (c *calls) call() string {
	queue := c.pick(`"q"`, `"q"`, `"emails"`, `""`, `"a b"`)
	var method, args string
	switch c.r.IntN(22) {
	case 0, 1, 2:
		method, args = "enqueue", "["+queue+","+c.pick(`"JOB-1"`, `"JOB-2"`, `"JOB-3"`, `"JOB-007"`, `"x"`)+","+c.str()+"]"
	case 3, 4, 5:
		method, args = "claim", "["+queue+","+c.pick(`30000`, `"1000"`, `0`, `"abc"`, `1e21`, `1.5`, `null`)+"]"
	case 6, 7:
		method, args = "exec", "["+c.command()+c.pick("", "", `,"worker-A"`, `,"worker-B"`)+"]"
	case 8:
		method, args = "cli", "["+c.pick(`"ZADD emq:{q}:pending 0 JOB-9"`, `"HGETALL emq:{q}:job:JOB-1"`, `"GET 'x"`, `"   "`, `"help ZADD"`, `"HELLO 3"`, `"EVAL \"return {1,{2}}\" 0"`, `"SET k \"caf\\xc3\\xa9\""`)+"]"
	case 9:
		method, args = "snapshot", "["+queue+c.pick("", ",25", ",1", ",null")+"]"
	case 10:
		method, args = "trace", "["+c.pick(`"enqueue"`, `"claim"`, `"return redis.call('GET', KEYS[1])"`, `"return 1 +"`)+`,["emq:{q}:job:JOB-1","emq:{q}:pending"],["JOB-1",`+c.str()+"]]"
	case 11:
		method, args = "changed", "["+c.pick(c.stamps, `{"o":{"k":"0-0"}}`, `"stamps"`)+"]"
	case 12:
		method, args = "entries", `[["emq:{q}:pending","emq:{q}:job:JOB-1","k","h","z","none"]]`
	case 13:
		method, args = "enqueueMany", "["+queue+","+c.pick("1", "3", "0")+","+c.str()+"]"
	case 14:
		method, args = "claimMany", "["+queue+",30000,"+c.pick("1", "2", "5")+"]"
	case 15:
		method, args = c.pick("pause", "resume"), "["+queue+"]"
	case 16:
		method, args = c.pick("setNow", "advance"), "["+c.num()+"]"
	case 17:
		method, args = c.pick("now", "scripts", "reset", "reset"), "[]"
	case 18:
		inner := c.call()
		var v []json.RawMessage
		json.Unmarshal([]byte(inner), &v)
		method, args = "call", "["+c.pick(`"embed-1"`, `"embed-2"`)+","+string(v[0])+","+string(v[1])+"]"
	case 19:
		method, args = "drop", "["+c.pick(`"embed-1"`, `"embed-2"`, `""`)+"]"
	default:
		// Anything, any number of arguments.
		var list []string
		for n := c.r.IntN(4); n > 0; n-- {
			list = append(list, c.arg())
		}
		method, args = c.pick(served...), "["+strings.Join(list, ",")+"]"
	}
	return fmt.Sprintf(`[%q,%s]`, method, args)
}

// elapsed is the one field that differs by itself: how long a bulk call
// took.
var elapsed = regexp.MustCompile(`"ms":[-+.0-9e]+`)

// TestReferenceAnswersAsTheShortcuts runs the same random calls through a
// module as the page runs it and one made with Options{Reference: true},
// which takes the plain path wherever package api has a shortcut (the
// request reader's reuse of values, results written straight as text,
// the lease's text, the highest id seen), and requires the same result,
// byte for byte, call after call.
func TestReferenceAnswersAsTheShortcuts(t *testing.T) {
	const seed, n = 23, 3000
	fast, plain := NewModule(), NewModule(Options{Reference: true})
	c := &calls{r: rand.New(rand.NewPCG(seed, seed)), stamps: `{"o":{}}`}
	for i := range n {
		req := c.call()
		got := elapsed.ReplaceAll(fast.Serve(nil, []byte(req)), []byte(`"ms":0`))
		want := elapsed.ReplaceAll(plain.Serve(nil, []byte(req)), []byte(`"ms":0`))
		if !bytes.Equal(got, want) {
			t.Fatalf("call %d of seed %d, %.300s:\nshortcuts %.600s\nreference %.600s", i, seed, req, got, want)
		}
		var out struct{ Stamps json.RawMessage }
		if json.Unmarshal(got, &out) == nil && len(out.Stamps) > 0 {
			c.stamps = `{"o":` + string(out.Stamps) + `}`
		}
	}
}
