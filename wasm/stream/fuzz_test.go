package stream

import (
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/rdb"
)

// FuzzParseID holds the ID parser to the plain path: strconv's reading of
// the same numbers. Whatever parses must print back as an ID that parses
// to itself; a part written as strconv writes a number must read as that
// number; and a part strconv refuses may parse only by strtoull's leniency
// (spaces, a sign, leading zeros).
func FuzzParseID(f *testing.F) {
	for _, s := range []string{"0-0", "1-1", "5", "5-*", "*", "-", "+", "1-", "-1", "1--1", " 1-2", "+1-2", "01-02",
		"18446744073709551615-18446744073709551615", "18446744073709551616-0", "1-18446744073709551616",
		"9223372036854775808", "-9223372036854775809-1", "1-\x002", "\t\n1-1", "1-*x", "(5-1", strings.Repeat("1", 130)} {
		f.Add(s, true, true)
		f.Add(s, false, false)
	}
	f.Fuzz(func(t *testing.T, s string, strict, autoSeq bool) {
		p, ok := ParseID(s, 7, strict, autoSeq)
		if !ok {
			return
		}
		if p.seqGiven {
			q, ok := ParseID(p.id.String(), 7, true, false)
			if !ok || q.id != p.id {
				t.Fatalf("%q parsed as %v, which reads back as %v, %v", s, p.id, q.id, ok)
			}
		}
		if len(s) > 127 {
			t.Fatalf("%q is longer than Redis's buffer", s)
		}
		if i := strings.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		if s == "-" || s == "+" {
			return
		}
		msPart, seqPart, dash := strings.Cut(s, "-")
		checkPart(t, s, msPart, p.id.Ms)
		switch {
		case !dash:
			if p.id.Seq != 7 {
				t.Fatalf("%q: a missing sequence read as %d", s, p.id.Seq)
			}
		case seqPart == "*" && autoSeq:
			if p.seqGiven {
				t.Fatalf("%q: <ms>-* gave a sequence", s)
			}
		default:
			checkPart(t, s, seqPart, p.id.Seq)
		}
	})
}

// checkPart compares one part's reading with strconv's.
func checkPart(t *testing.T, s, part string, got uint64) {
	t.Helper()
	if want, err := strconv.ParseUint(part, 10, 64); err == nil && strconv.FormatUint(want, 10) == part {
		if got != want {
			t.Fatalf("%q: part %q read as %d, strconv reads %d", s, part, got, want)
		}
		return
	}
	trimmed := strings.TrimLeft(part, " \t\n\v\f\r")
	neg := strings.HasPrefix(trimmed, "-")
	trimmed = strings.TrimLeft(trimmed, "+-")
	want, err := strconv.ParseUint(trimmed, 10, 64)
	if err != nil {
		t.Fatalf("%q: part %q parsed (as %d) though strconv refuses %q", s, part, got, trimmed)
	}
	if neg {
		want = -want
	}
	if got != want {
		t.Fatalf("%q: part %q read as %d, want %d", s, part, got, want)
	}
}

// FuzzStreamOps runs appends, deletions and trims that the bytes choose,
// and checks the stream's bookkeeping against a plain recount after each.
func FuzzStreamOps(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 2, 3, 0, 0, 4, 5})
	f.Add([]byte("a stream of some length, to trim and delete from"))
	f.Add([]byte{200, 201, 202, 203, 0, 255, 254, 1, 1, 1, 1, 128, 129, 130})
	f.Fuzz(func(t *testing.T, ops []byte) {
		s := New()
		cfg := Config{NodeMaxEntries: 5, NodeMaxBytes: 300}
		var ms uint64 = 1
		for i, op := range ops {
			switch op % 8 {
			case 0, 1, 2, 3:
				ms += uint64(op / 64)
				id, _ := s.last.Next()
				if ms > s.last.Ms {
					id = ID{ms, 0}
				}
				fields := []string{"f", strings.Repeat("x", int(op))}
				if op%3 == 0 {
					fields = []string{"g", "1", "h", "-5"}
				}
				s.appendEntry(cfg, id, fields)
			case 4:
				s.remove(ID{uint64(op) % (ms + 1), 0})
			case 5:
				s.trim(int64(op/8), ID{}, true, op%2 == 1, 0)
			case 6:
				s.trim(0, ID{uint64(op/8) % (ms + 1), 0}, false, op%2 == 1, int64(op%3)*3)
			default:
				s.trim(int64(op/16), ID{}, true, true, int64(op%4))
			}
			checkStream(t, s, i)
		}
	})
}

func checkStream(t *testing.T, s *Stream, at int) {
	t.Helper()
	var live int64
	prev := ID{}
	first := true
	for i, n := range s.nodes {
		var l, d int64
		for j, e := range n.entries {
			if e.deleted {
				d++
			} else {
				l++
			}
			if (i > 0 || j > 0) && e.id.Cmp(prev) <= 0 {
				t.Fatalf("op %d: entries out of order at node %d", at, i)
			}
			prev = e.id
		}
		if n.entries[0].id != n.master {
			t.Fatalf("op %d: node %d's master is not its first entry", at, i)
		}
		if l != n.live || d != n.dead {
			t.Fatalf("op %d: node %d counts %d live %d dead, holds %d and %d", at, i, n.live, n.dead, l, d)
		}
		live += l
	}
	if live != s.length {
		t.Fatalf("op %d: length %d, %d live entries", at, s.length, live)
	}
	var firstLive ID
	s.Range(ID{}, MaxID, false, func(e Entry) bool {
		if first {
			firstLive, first = e.ID, false
		}
		return true
	})
	if s.length > 0 && s.first != firstLive && s.first.Cmp(firstLive) > 0 {
		t.Fatalf("op %d: recorded first %v is past the first live entry %v", at, s.first, firstLive)
	}
	if got := s.raxNodes(); got < int64(len(s.nodes))+1 || got > 32*int64(len(s.nodes))+1 {
		t.Fatalf("op %d: %d radix tree nodes for %d keys", at, got, len(s.nodes))
	}
}

// FuzzFromDump feeds RESTORE's stream path any payload (given a footer
// that passes, so the bytes reach the parser): nothing may panic, and a
// stream it accepts must DUMP to a payload that restores to the same
// DUMP.
func FuzzFromDump(f *testing.F) {
	s := New()
	for i := 1; i <= 12; i++ {
		fields := []string{"f", strings.Repeat("v", i*7)}
		if i%4 == 0 {
			fields = []string{"a", "1", "b", "-300"}
		}
		s.appendEntry(Config{NodeMaxEntries: 5, NodeMaxBytes: 4096}, ID{uint64(i), 1}, fields)
	}
	s.remove(ID{3, 1})
	s.addGroup("g", ID{5, 1}, 4)
	g := s.group("g")
	c := g.addConsumer("c", 1000)
	for _, id := range []ID{{1, 1}, {2, 1}} {
		n := &nack{id: id, delivered: 900, count: 2}
		g.pel = pelInsert(g.pel, n)
		g.assign(n, c)
	}
	p := rdb.DumpStream(s.Dump())
	f.Add([]byte(p[:len(p)-10]))
	f.Add([]byte(p[:40]))
	f.Fuzz(func(t *testing.T, body []byte) {
		v, err := rdb.Load(withFooter(string(body)))
		if err != nil || v.Stream == nil {
			return
		}
		got, ok := FromDump(v.Stream, len(body) > 0 && body[0] == 15)
		if !ok {
			return
		}
		once := rdb.DumpStream(got.Dump())
		v2, err := rdb.Load(once)
		if err != nil || v2.Stream == nil {
			t.Fatalf("a restored stream's DUMP does not load: %v", err)
		}
		again, ok := FromDump(v2.Stream, false)
		if !ok || rdb.DumpStream(again.Dump()) != once {
			t.Fatalf("a restored stream's DUMP restores differently")
		}
	})
}

// withFooter adds the RDB version and checksum that DUMP ends with.
func withFooter(body string) string {
	b := body + string([]byte{byte(rdb.Version), byte(rdb.Version >> 8)})
	crc := rdb.CRC64(b)
	for i := 0; i < 8; i++ {
		b += string([]byte{byte(crc >> (8 * i))})
	}
	return b
}
