package redisdiff

// The random runs' framework: a seeded source, so that a seed names a run
// and a failure can be replayed with it, and the generator of the course's
// two operations fed hostile input, which both the fidelity suite (by
// EVAL) and the handles' differential run (through emq.Jobs) draw from.

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"echomq.dev/playground/lua"
)

// Rand is a random run's source.
type Rand struct{ *rand.Rand }

// NewRand is the source of seed.
func NewRand(seed uint64) *Rand { return NewRandPCG(seed, seed^0x9e3779b97f4a7c15) }

// NewRandPCG is the source of a PCG with both its seeds given.
func NewRandPCG(seed1, seed2 uint64) *Rand { return &Rand{rand.New(rand.NewPCG(seed1, seed2))} }

// Pick is one of list.
func Pick[T any](r *Rand, list ...T) T { return list[r.IntN(len(list))] }

// QueueOp is one operation on a queue: an enqueue or a claim (or a SCRIPT
// FLUSH between them), as a client would send it.
type QueueOp struct {
	Kind    string // enqueue, claim, script-flush
	SHA     bool   // by EVALSHA (falling back to EVAL on NOSCRIPT, as a client does)
	RESP3   bool   // on the RESP3 connections
	Queue   string
	ID      string
	Payload string
	Lease   string
	Short   bool // leave out the last argument
}

func (o QueueOp) String() string {
	how := "EVAL"
	if o.SHA {
		how = "EVALSHA"
	}
	cut := ""
	if o.Short {
		cut = ", last argument left out"
	}
	if o.RESP3 {
		how += " over RESP3"
	}
	switch o.Kind {
	case "enqueue":
		return fmt.Sprintf("enqueue by %s (queue %s, id %s, payload %s%s)", how, Short(o.Queue), Short(o.ID), Short(o.Payload), cut)
	case "claim":
		return fmt.Sprintf("claim by %s (queue %s, lease %s%s)", how, Short(o.Queue), Short(o.Lease), cut)
	}
	return o.Kind
}

// QueueKeys are the course's keys of queue.
func QueueKeys(queue string) (base, pending, active string) {
	k := "emq:{" + queue + "}:"
	return k + "job:", k + "pending", k + "active"
}

// Command is the EVAL (or, with sha, EVALSHA) the operation sends.
func (o QueueOp) Command(sha bool) []string {
	base, pending, active := QueueKeys(o.Queue)
	var s *lua.Script
	var keys, argv []string
	switch o.Kind {
	case "enqueue":
		s, keys, argv = lua.Enqueue(), []string{base + o.ID, pending}, []string{o.ID, o.Payload}
	case "claim":
		s, keys, argv = lua.Claim(), []string{pending, active}, []string{base, o.Lease}
	default:
		panic(o.Kind)
	}
	if o.Short {
		argv = argv[:len(argv)-1]
	}
	head := []string{"EVAL", s.Source}
	if sha {
		head = []string{"EVALSHA", s.SHA}
	}
	return append(append(append(head, strconv.Itoa(len(keys))), keys...), argv...)
}

// QueueGen makes a reproducible sequence of hostile operations.
type QueueGen struct {
	*Rand
	queues []string
	seen   []string // ids enqueued since the last Forget, for duplicates
	// MaxPayload, when set, cuts the rare large payloads (up to 1 MiB) to
	// that many bytes, for a run whose recording keeps every reply whole.
	// The sequence of draws is the same.
	MaxPayload int
}

// NewQueueGen is the generator of seed over queues.
func NewQueueGen(seed uint64, queues ...string) *QueueGen {
	return &QueueGen{Rand: NewRand(seed), queues: queues}
}

// Forget drops the ids seen so far, once both keyspaces are flushed.
func (g *QueueGen) Forget() { g.seen = nil }

// Queue is one of the generator's queues.
func (g *QueueGen) Queue() string { return Pick(g.Rand, g.queues...) }

// Next is the next operation.
func (g *QueueGen) Next() QueueOp {
	o := QueueOp{Queue: g.Queue(), SHA: g.IntN(2) == 0, RESP3: g.IntN(2) == 0}
	switch n := g.IntN(100); {
	case n < 2:
		return QueueOp{Kind: "script-flush"}
	case n < 36:
		o.Kind, o.ID, o.Payload = "enqueue", g.freshID(), g.payload()
		g.seen = append(g.seen, o.ID)
	case n < 46:
		o.Kind, o.Payload = "enqueue", g.payload()
		if len(g.seen) > 0 {
			o.ID = Pick(g.Rand, g.seen...)
		} else {
			o.ID = "JOB00000"
		}
	case n < 74:
		o.Kind, o.Lease = "claim", g.goodLease()
	case n < 97:
		o.Kind, o.Lease = "claim", Pick(g.Rand, HostileLeases...)
	default:
		o.Kind, o.Short = Pick(g.Rand, "enqueue", "claim"), true
		o.ID, o.Payload, o.Lease = g.freshID(), g.payload(), g.goodLease()
	}
	return o
}

// HostileLeases are leases that must all be refused before any write:
// e-notation, other bases, spaces, signs, leading zeros, fractions, words,
// a 16th digit, nothing at all.
var HostileLeases = []string{
	"1e3", "1E3", "0x10", " 5", "5 ", "+5", "05", "5.0", "-0", "0", "-5", "inf", "nan", "-inf",
	"1234567890123456", "", "1_000", "٣", "5\x00", "\x005", "1e+3", "0b11", "１",
}

func (g *QueueGen) goodLease() string {
	switch g.IntN(8) {
	case 0:
		return "1"
	case 1:
		return "999999999999999" // 15 digits: the longest a lease may be
	case 2:
		return strconv.FormatInt(1+g.Int64N(999999999999999), 10)
	}
	return strconv.Itoa(1 + g.IntN(600000))
}

func (g *QueueGen) freshID() string {
	var prefix string
	switch g.IntN(10) {
	case 0:
		prefix = Pick(g.Rand, "", "job", "JO", "J", " JOB", "\x00JOB", "\xffJOB", "ジョブ", "Job", "XJOB")
	default:
		prefix = "JOB"
	}
	core := strconv.Itoa(g.IntN(100000))
	switch g.IntN(8) {
	case 0:
		core += "\x00"
	case 1:
		core += "\xff\xfe"
	case 2:
		core += "\xc3\x28" // not UTF-8
	case 3:
		core = "-" + Pick(g.Rand, "é", "🚀", "队列", "ünïcödé") + core
	case 4:
		core = ""
	}
	return prefix + core
}

func (g *QueueGen) payload() string {
	var n int
	switch k := g.IntN(200); {
	case k == 0:
		n = Pick(g.Rand, 64<<10, 300<<10, 1<<20) // sparingly: up to 1 MiB
		if g.MaxPayload > 0 {
			n = min(n, g.MaxPayload)
		}
	case k < 20:
		return ""
	case k < 50:
		return Pick(g.Rand, `{"to":"ünïcödé"}`, "🚀 队列", "line\r\nbreak", "\x00", "1e3", "nil")
	case k < 70:
		n = 1000 + g.IntN(7000)
	default:
		n = g.IntN(48)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.IntN(256))
	}
	return string(b)
}
