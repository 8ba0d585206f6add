package emq_test

// Helpers shared by the tests of this package. They are written so that a
// test reads like a redis-cli transcript: mustDo(t, c, "ZADD", k, "0", id),
// wantReply(t, c, resp.IntReply(1), "EXISTS", k).

import (
	"crypto/sha1"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

// newEngine is a fresh in-memory server, clock at engine.Start.
func newEngine(t testing.TB) *engine.Engine {
	t.Helper()
	return engine.MustNew()
}

// server is one kind of connection a table runs over.
type server struct {
	name string
	open func(t *testing.T) emq.Conn
}

// servers are the two connections every promise is held against: the
// engine the browser runs and the Redis 7 it must behave like.
var servers = []server{
	{"engine", func(t *testing.T) emq.Conn { return newEngine(t) }},
	{"redis", func(t *testing.T) emq.Conn { return startRedis(t) }},
}

// mustDo sends one command and fails the test on a broken connection. A
// Redis error reply is returned like any reply.
func mustDo(t testing.TB, c emq.Conn, args ...string) resp.Reply {
	t.Helper()
	r, err := c.Do(args...)
	if err != nil {
		t.Fatalf("%s: %v", showCommand(args), err)
	}
	return r
}

// wantReply sends one command and checks its reply.
func wantReply(t testing.TB, c emq.Conn, want resp.Reply, args ...string) {
	t.Helper()
	if got := mustDo(t, c, args...); !got.Equal(want) {
		t.Errorf("%s\n got: %v\nwant: %v", showCommand(args), got, want)
	}
}

// showCommand prints a command as redis-cli would echo it, long arguments
// (a script's source, a 1 MiB payload) shortened.
func showCommand(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = short(a)
	}
	return strings.Join(parts, " ")
}

// short quotes s, cut to a readable length with its size and a digest
// noted, so that two long values that differ past the cut still print
// differently.
func short(s string) string {
	const max = 60
	if len(s) <= max {
		return strconv.Quote(s)
	}
	sum := sha1.Sum([]byte(s))
	return fmt.Sprintf("%s...(%d bytes, sha1 %x)", strconv.Quote(s[:max]), len(s), sum[:4])
}

// refusal unwraps a handle's error into the Refusal it must be.
func refusal(t testing.TB, err error) *emq.Refusal {
	t.Helper()
	var r *emq.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("error = %v (%T), want an *emq.Refusal", err, err)
	}
	return r
}

// strs is the bulk strings of an array reply, in order.
func strs(t testing.TB, r resp.Reply) []string {
	t.Helper()
	s, ok := r.Strings()
	if !ok {
		t.Fatalf("reply %v is not an array of bulk strings", r)
	}
	return s
}

// Keyspace dumps. A dump is what any client can read back with KEYS *,
// TYPE and the type's read command; it is the same code for the engine and
// for a real server, so two dumps compare like for like.

// keyDump is one key. Hashes are maps: the order of a hash's fields is
// judged by the fidelity suite (FIDELITY.md, "Hash order", and its
// hash/small-order case), not here.
type keyDump struct {
	Type string
	Str  string
	Hash map[string]string
	ZSet []member // in ZRANGE order, scores printed as Redis 7 prints them
	List []string // list in order; set sorted
	PTTL int64
}

type member struct{ Member, Score string }

type dump map[string]keyDump

// pipeliner is the optional batch call of redisnet.Client: the dump of a
// real server costs three round trips instead of three per key.
type pipeliner interface {
	Pipeline(cmds [][]string) ([]resp.Reply, error)
}

func doAll(t testing.TB, c emq.Conn, cmds [][]string) []resp.Reply {
	t.Helper()
	if p, ok := c.(pipeliner); ok {
		rs, err := p.Pipeline(cmds)
		if err != nil {
			t.Fatalf("pipeline of %d commands: %v", len(cmds), err)
		}
		return rs
	}
	rs := make([]resp.Reply, len(cmds))
	for i, cmd := range cmds {
		rs[i] = mustDo(t, c, cmd...)
	}
	return rs
}

// dumpKeyspace reads every key of database 0.
func dumpKeyspace(t testing.TB, c emq.Conn) dump {
	t.Helper()
	keys := strs(t, mustDo(t, c, "KEYS", "*"))
	sort.Strings(keys)
	types := make([][]string, len(keys))
	for i, k := range keys {
		types[i] = []string{"TYPE", k}
	}
	typeReplies := doAll(t, c, types)

	var reads [][]string
	for i, k := range keys {
		switch typ := typeReplies[i].Str; typ {
		case "string":
			reads = append(reads, []string{"GET", k})
		case "hash":
			reads = append(reads, []string{"HGETALL", k})
		case "zset":
			reads = append(reads, []string{"ZRANGE", k, "0", "-1", "WITHSCORES"})
		case "list":
			reads = append(reads, []string{"LRANGE", k, "0", "-1"})
		case "set":
			reads = append(reads, []string{"SMEMBERS", k})
		default:
			t.Fatalf("key %s has type %v, which the dump does not read", short(k), typeReplies[i])
		}
		reads = append(reads, []string{"PTTL", k})
	}
	replies := doAll(t, c, reads)

	d := dump{}
	for i, k := range keys {
		v, ttl := replies[2*i], replies[2*i+1]
		kd := keyDump{Type: typeReplies[i].Str, PTTL: ttl.Int}
		switch kd.Type {
		case "string":
			kd.Str = v.Str
		case "hash":
			kv := strs(t, v)
			kd.Hash = map[string]string{}
			for j := 0; j+1 < len(kv); j += 2 {
				kd.Hash[kv[j]] = kv[j+1]
			}
		case "zset":
			kv := strs(t, v)
			for j := 0; j+1 < len(kv); j += 2 {
				kd.ZSet = append(kd.ZSet, member{kv[j], resp.NormalizeScore(kv[j+1])})
			}
		case "list", "set":
			kd.List = strs(t, v)
			if kd.Type == "set" {
				sort.Strings(kd.List)
			}
		}
		d[k] = kd
	}
	return d
}

// diffDumps lists, key by key, where two dumps differ; "" when they agree.
func diffDumps(engineName string, a dump, realName string, b dump) string {
	seen := map[string]bool{}
	var keys []string
	for k := range a {
		seen[k] = true
		keys = append(keys, k)
	}
	for k := range b {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out strings.Builder
	for _, k := range keys {
		x, inA := a[k]
		y, inB := b[k]
		switch {
		case !inA:
			fmt.Fprintf(&out, "  %s: only on %s: %s\n", short(k), realName, y)
		case !inB:
			fmt.Fprintf(&out, "  %s: only on %s: %s\n", short(k), engineName, x)
		case !reflect.DeepEqual(x, y):
			fmt.Fprintf(&out, "  %s:\n    %-6s %s\n    %-6s %s\n", short(k), engineName, x, realName, y)
		}
	}
	return out.String()
}

// String renders a key's value deterministically (hash fields sorted), so
// that equal values print equal and a diff shows what differs.
func (k keyDump) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ", k.Type)
	switch k.Type {
	case "string":
		b.WriteString(short(k.Str))
	case "hash":
		fields := make([]string, 0, len(k.Hash))
		for f := range k.Hash {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		b.WriteString("{")
		for i, f := range fields {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s: %s", short(f), short(k.Hash[f]))
		}
		b.WriteString("}")
	case "zset":
		b.WriteString("[")
		for i, m := range k.ZSet {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%s@%s", short(m.Member), m.Score)
		}
		b.WriteString("]")
	default:
		parts := make([]string, len(k.List))
		for i, s := range k.List {
			parts[i] = short(s)
		}
		fmt.Fprintf(&b, "[%s]", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, " pttl=%d", k.PTTL)
	return b.String()
}
