package stream

import (
	"math"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// Keyspace is what the commands need of the server: the stream at a key
// (wrongType when the key holds another type), a new one made at a key,
// the clock (Unix ms) and the node settings.
type Keyspace interface {
	Lookup(key string) (s *Stream, wrongType bool)
	Create(key string) *Stream
	Now() int64
	Config() Config
}

const (
	errWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value"
	errSyntax    = "ERR syntax error"
	errNotInt    = "ERR value is not an integer or out of range"
)

func errReply(s string) resp.Reply { return resp.ErrorReply(s) }

// Commands lists the command names Run serves.
var Commands = []string{"XADD", "XRANGE", "XREVRANGE", "XLEN", "XDEL", "XTRIM", "XREAD", "XREADGROUP",
	"XGROUP", "XACK", "XPENDING", "XCLAIM", "XAUTOCLAIM", "XINFO", "XSETID"}

// Run serves one X command whose arity has been checked. args[0] is the
// name, in upper case.
func Run(ks Keyspace, args []string) resp.Reply {
	switch args[0] {
	case "XADD":
		return xadd(ks, args)
	case "XRANGE":
		return xrange(ks, args, false)
	case "XREVRANGE":
		return xrange(ks, args, true)
	case "XLEN":
		s, wrong := ks.Lookup(args[1])
		if wrong {
			return errReply(errWrongType)
		}
		if s == nil {
			return resp.IntReply(0)
		}
		return resp.IntReply(s.length)
	case "XDEL":
		return xdel(ks, args)
	case "XTRIM":
		return xtrim(ks, args)
	case "XREAD", "XREADGROUP":
		return xread(ks, args)
	case "XGROUP":
		return xgroup(ks, args)
	case "XACK":
		return xack(ks, args)
	case "XPENDING":
		return xpending(ks, args)
	case "XCLAIM":
		return xclaim(ks, args)
	case "XAUTOCLAIM":
		return xautoclaim(ks, args)
	case "XINFO":
		return xinfo(ks, args)
	case "XSETID":
		return xsetid(ks, args)
	}
	return errReply("ERR unknown command")
}

// parseLL is getLongLongFromObject: a whole signed 64-bit integer.
func parseLL(s string) (int64, bool) {
	return string2ll(s)
}

func idReply(id ID) resp.Reply { return resp.BulkReply(id.String()) }

func entryReply(e Entry) resp.Reply {
	f := make([]resp.Reply, len(e.Fields))
	for i, v := range e.Fields {
		f[i] = resp.BulkReply(v)
	}
	return resp.ArrayReply(idReply(e.ID), resp.ArrayReply(f...))
}

// trimArgs is what streamParseAddOrTrimArgsOrReply reads.
type trimArgs struct {
	byLen, byID bool
	maxlen      int64
	minid       ID
	approx      bool
	limit       int64
	noMkStream  bool
	idGiven     bool
	id          parsed
}

// parseTrim reads the options of XADD (xadd) or XTRIM from args[2]; for
// XADD it answers the ID's position.
func parseTrim(cfg Config, args []string, xadd bool) (trimArgs, int, string) {
	var t trimArgs
	limitGiven := false
	i := 2
	for ; i < len(args); i++ {
		more := len(args) - 1 - i
		opt := args[i]
		switch {
		case xadd && opt == "*":
			goto done
		case strings.EqualFold(opt, "MAXLEN") && more > 0, strings.EqualFold(opt, "MINID") && more > 0:
			if t.byLen || t.byID {
				return t, 0, "ERR syntax error, MAXLEN and MINID options at the same time are not compatible"
			}
			t.approx = false
			if next := args[i+1]; more >= 2 && (next == "~" || next == "=") {
				t.approx = next == "~"
				i++
			}
			if strings.EqualFold(opt, "MAXLEN") {
				n, ok := parseLL(args[i+1])
				if !ok {
					return t, 0, errNotInt
				}
				if n < 0 {
					return t, 0, "ERR The MAXLEN argument must be >= 0."
				}
				t.maxlen, t.byLen = n, true
			} else {
				p, ok := ParseID(args[i+1], 0, true, false)
				if !ok {
					return t, 0, ErrInvalidID
				}
				t.minid, t.byID = p.id, true
			}
			i++
		case strings.EqualFold(opt, "LIMIT") && more > 0:
			n, ok := parseLL(args[i+1])
			if !ok {
				return t, 0, errNotInt
			}
			if n < 0 {
				return t, 0, "ERR The LIMIT argument must be >= 0."
			}
			t.limit, limitGiven = n, true
			i++
		case xadd && strings.EqualFold(opt, "NOMKSTREAM"):
			t.noMkStream = true
		case xadd:
			p, ok := ParseID(opt, 0, true, true)
			if !ok {
				return t, 0, ErrInvalidID
			}
			t.id, t.idGiven = p, true
			goto done
		default:
			return t, 0, errSyntax
		}
	}
done:
	if t.limit != 0 && !t.byLen && !t.byID {
		return t, 0, "ERR syntax error, LIMIT cannot be used without specifying a trimming strategy"
	}
	if !xadd && !t.byLen && !t.byID {
		return t, 0, "ERR syntax error, XTRIM must be called with a trimming strategy"
	}
	if limitGiven {
		if !t.approx {
			return t, 0, "ERR syntax error, LIMIT cannot be used without the special ~ option"
		}
	} else if t.approx {
		t.limit = 100 * cfg.NodeMaxEntries
		if t.limit <= 0 || t.limit > 10000 {
			t.limit = 10000
		}
	} else {
		t.limit = 0
	}
	return t, i, ""
}

func (t *trimArgs) run(s *Stream) int64 {
	if !t.byLen && !t.byID {
		return 0
	}
	return s.trim(t.maxlen, t.minid, t.byLen, t.approx, t.limit)
}

func xadd(ks Keyspace, args []string) resp.Reply {
	t, idpos, msg := parseTrim(ks.Config(), args, true)
	if msg != "" {
		return errReply(msg)
	}
	fields := args[idpos+1:]
	if len(fields) < 2 || len(fields)%2 == 1 {
		return errReply("ERR wrong number of arguments for 'xadd' command")
	}
	if t.idGiven && t.id.seqGiven && t.id.id.IsZero() {
		return errReply("ERR The ID specified in XADD must be greater than 0-0")
	}
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	if s == nil {
		if t.noMkStream {
			return resp.NilReply()
		}
		s = ks.Create(args[1])
	}
	if s.last == MaxID {
		return errReply("ERR The stream has exhausted the last possible ID, unable to add more items")
	}
	var id ID
	switch {
	case !t.idGiven:
		if ms := uint64(ks.Now()); ms > s.last.Ms {
			id = ID{ms, 0}
		} else {
			id, _ = s.last.Next()
		}
	case t.id.seqGiven:
		id = t.id.id
	case s.last.Ms == t.id.id.Ms:
		if s.last.Seq == math.MaxUint64 {
			// Redis 7.0 means errTopItem here, but its errno is not set
			// on this path, and it answers the other error it knows.
			return errReply("ERR Elements are too large to be stored")
		}
		id = ID{s.last.Ms, s.last.Seq + 1}
	default:
		id = t.id.id
	}
	if id.Cmp(s.last) <= 0 {
		return errReply(errTopItem)
	}
	s.appendEntry(ks.Config(), id, append([]string(nil), fields...))
	t.run(s)
	s.Version++
	return idReply(id)
}

const errTopItem = "ERR The ID specified in XADD is equal or smaller than the target stream top item"

func xrange(ks Keyspace, args []string, rev bool) resp.Reply {
	startArg, endArg := args[2], args[3]
	if rev {
		startArg, endArg = endArg, startArg
	}
	start, ex, ok := parseInterval(startArg, 0)
	if !ok {
		return errReply(ErrInvalidID)
	}
	if ex {
		if start, ok = start.Next(); !ok {
			return errReply("ERR invalid start ID for the interval")
		}
	}
	end, ex, ok := parseInterval(endArg, math.MaxUint64)
	if !ok {
		return errReply(ErrInvalidID)
	}
	if ex {
		if end, ok = end.Prev(); !ok {
			return errReply("ERR invalid end ID for the interval")
		}
	}
	count := int64(-1)
	for j := 4; j < len(args); j++ {
		if strings.EqualFold(args[j], "COUNT") && j+1 < len(args) {
			n, ok := parseLL(args[j+1])
			if !ok {
				return errReply(errNotInt)
			}
			count = max(n, 0)
			j++
		} else {
			return errReply(errSyntax)
		}
	}
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	if s == nil {
		return resp.ArrayReply()
	}
	if count == 0 {
		return resp.NilArrayReply()
	}
	out := []resp.Reply{}
	s.Range(start, end, rev, func(e Entry) bool {
		out = append(out, entryReply(e))
		return count < 0 || int64(len(out)) < count
	})
	return resp.ArrayReply(out...)
}

func xdel(ks Keyspace, args []string) resp.Reply {
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	if s == nil {
		return resp.IntReply(0)
	}
	ids := make([]ID, 0, len(args)-2)
	for _, a := range args[2:] {
		p, ok := ParseID(a, 0, true, false)
		if !ok {
			return errReply(ErrInvalidID)
		}
		ids = append(ids, p.id)
	}
	var n int64
	firstGone := false
	for _, id := range ids {
		if s.remove(id) {
			if id == s.first {
				firstGone = true
			}
			if id.Cmp(s.maxDeleted) > 0 {
				s.maxDeleted = id
			}
			n++
		}
	}
	if firstGone {
		s.first, _ = s.edge(true)
	}
	if n > 0 {
		s.Version++
	}
	return resp.IntReply(n)
}

func xtrim(ks Keyspace, args []string) resp.Reply {
	t, _, msg := parseTrim(ks.Config(), args, false)
	if msg != "" {
		return errReply(msg)
	}
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	if s == nil {
		return resp.IntReply(0)
	}
	n := t.run(s)
	if n > 0 {
		s.Version++
	}
	return resp.IntReply(n)
}

func xack(ks Keyspace, args []string) resp.Reply {
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	var g *Group
	if s != nil {
		g = s.group(args[2])
	}
	if g == nil {
		return resp.IntReply(0)
	}
	ids := make([]ID, 0, len(args)-3)
	for _, a := range args[3:] {
		p, ok := ParseID(a, 0, true, false)
		if !ok {
			return errReply(ErrInvalidID)
		}
		ids = append(ids, p.id)
	}
	var n int64
	for _, id := range ids {
		if i, ok := pelFind(g.pel, id); ok {
			g.unpend(g.pel[i])
			n++
		}
	}
	return resp.IntReply(n)
}

func xsetid(ks Keyspace, args []string) resp.Reply {
	p, ok := ParseID(args[2], 0, true, false)
	if !ok {
		return errReply(ErrInvalidID)
	}
	id := p.id
	added := int64(-1)
	var maxDel ID
	for i := 3; i < len(args); i++ {
		more := len(args) - 1 - i
		switch {
		case strings.EqualFold(args[i], "ENTRIESADDED") && more > 0:
			n, ok := parseLL(args[i+1])
			if !ok {
				return errReply(errNotInt)
			}
			if n < 0 {
				return errReply("ERR entries_added must be positive")
			}
			added = n
			i++
		case strings.EqualFold(args[i], "MAXDELETEDID") && more > 0:
			q, ok := ParseID(args[i+1], 0, true, false)
			if !ok {
				return errReply(ErrInvalidID)
			}
			if id.Cmp(q.id) < 0 {
				return errReply("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id")
			}
			maxDel = q.id
			i++
		default:
			return errReply(errSyntax)
		}
	}
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	if s == nil {
		return errReply("ERR no such key")
	}
	if s.length > 0 {
		if id.Cmp(s.lastValid()) < 0 {
			return errReply("ERR The ID specified in XSETID is smaller than the target stream top item")
		}
		if added != -1 && s.length > added {
			return errReply("ERR The entries_added specified in XSETID is smaller than the target stream length")
		}
	}
	if id.Cmp(s.maxDeleted) < 0 {
		return errReply("ERR The ID specified in XSETID is smaller than current max_deleted_entry_id")
	}
	s.last = id
	if added != -1 {
		s.added = uint64(added)
	}
	if !maxDel.IsZero() {
		s.maxDeleted = maxDel
	}
	s.Version++
	return resp.OK()
}

func intStr(n int64) string { return strconv.FormatInt(n, 10) }
