package engine

import (
	"math"
	"strings"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/zset"
)

// The sorted-set commands the engine serves from its index (see zsets.go),
// with Redis 7.0's argument checks, in its order and words: every option
// and range is read before the key is looked at, so a syntax error wins
// over WRONGTYPE, as in Redis. A command with the wrong number of arguments
// goes to miniredis, which words that error as Redis does.

// zsetCommand is one command served here, for the command table.
type zsetCommand struct {
	name   string
	run    fixup
	absent bool // miniredis lacks it
}

// zsetCommands are the commands served here; buildCommands puts them in
// the table, and zsetsAfter leaves them alone.
func zsetCommands() []zsetCommand {
	return []zsetCommand{
		{"ZADD", zaddCommand, false},
		{"ZINCRBY", zincrbyCommand, false},
		{"ZREM", zremCommand, false},
		{"ZPOPMIN", zpopCommand(false), false},
		{"ZPOPMAX", zpopCommand(true), false},
		{"ZRANK", zrankCommand(false), false},
		{"ZREVRANK", zrankCommand(true), false},
		{"ZCOUNT", zcountCommand(byScore), false},
		{"ZLEXCOUNT", zcountCommand(byLex), false},
		{"ZRANGE", zrangeCommand(byAuto, false, false), false},
		{"ZREVRANGE", zrangeCommand(byRank, true, false), false},
		{"ZRANGEBYSCORE", zrangeCommand(byScore, false, false), false},
		{"ZREVRANGEBYSCORE", zrangeCommand(byScore, true, false), false},
		{"ZRANGEBYLEX", zrangeCommand(byLex, false, false), false},
		{"ZREVRANGEBYLEX", zrangeCommand(byLex, true, false), false},
		{"ZRANGESTORE", zrangeCommand(byAuto, false, true), true},
		{"ZREMRANGEBYRANK", zremrangeCommand(byRank), false},
		{"ZREMRANGEBYSCORE", zremrangeCommand(byScore), false},
		{"ZREMRANGEBYLEX", zremrangeCommand(byLex), false},
		{"ZDIFF", zdiffCommand(false), true},
		{"ZDIFFSTORE", zdiffCommand(true), true},
	}
}

var errWrongType = resp.ErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value")

const (
	errNotInt        = "ERR value is not an integer or out of range"
	errScoreRange    = "ERR min or max is not a float"
	errLexRange      = "ERR min or max not valid string range item"
	errNaNScore      = "ERR resulting score is not a number (NaN)"
	errSyntax        = "ERR syntax error"
	errNotPositive   = "ERR value is out of range, must be positive"
	errWrongArgCount = "ERR wrong number of arguments for '%s' command"
)

// scoreText prints a stored score as Redis does.
func scoreText(f float64) resp.Reply { return resp.BulkReply(resp.FormatDouble(f)) }

// ---- writes ----------------------------------------------------------------

// zaddOptions are ZADD's flags.
type zaddOptions struct {
	nx, xx, gt, lt, ch, incr bool
}

func zaddCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 4 {
		return e.raw(peer, args)
	}
	var o zaddOptions
	i := 2
flags:
	for ; i < len(args); i++ {
		a := args[i]
		if a == "" || a[0] < 'A' {
			break // a digit, sign or point: the first score (no flag starts so)
		}
		switch ascii.Upper(a) {
		case "NX":
			o.nx = true
		case "XX":
			o.xx = true
		case "GT":
			o.gt = true
		case "LT":
			o.lt = true
		case "CH":
			o.ch = true
		case "INCR":
			o.incr = true
		default:
			break flags
		}
	}
	pairs := len(args) - i
	switch {
	case pairs == 0 || pairs%2 != 0:
		return resp.ErrorReply(errSyntax)
	case o.nx && o.xx:
		return resp.ErrorReply("ERR XX and NX options at the same time are not compatible")
	case o.gt && o.nx || o.lt && o.nx || o.gt && o.lt:
		return resp.ErrorReply("ERR GT, LT, and/or NX options at the same time are not compatible")
	case o.incr && pairs > 2:
		return resp.ErrorReply("ERR INCR option supports a single increment-element pair")
	}
	return e.zadd(peer, args[1], args[i:], o, false)
}

// zincrbyCommand is ZADD key INCR incr member, which is how Redis runs it.
func zincrbyCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 4 {
		return e.raw(peer, args)
	}
	return e.zadd(peer, args[1], args[2:], zaddOptions{incr: true}, true)
}

// zadd adds the score/member pairs to key, as Redis's zaddGenericCommand
// does: every score is read first, so a bad one writes nothing.
func (e *Engine) zadd(peer *server.Peer, key string, pairs []string, o zaddOptions, zincrby bool) resp.Reply {
	var one [1]float64
	scores := one[:0]
	if len(pairs) > 2 {
		scores = make([]float64, 0, len(pairs)/2)
	}
	for j := 0; j < len(pairs); j += 2 {
		f, ok := parseScore(pairs[j])
		if !ok {
			return resp.ErrorReply(errNotFloat)
		}
		scores = append(scores, f)
	}
	db := e.dbOf[peer]
	ent, st := e.zentryOf(db, key, true)
	switch st {
	case zWrongType:
		return errWrongType
	case zMissing:
		if o.xx {
			if o.incr {
				return resp.NilReply()
			}
			return resp.IntReply(0)
		}
		ent = e.newZentry(db, key)
	}
	mdb := e.db(db)
	// miniredis makes the key's map with the first member, which ent is
	// tied to at once (node reads it); a set that existed keeps its map,
	// which ent knows already.
	adopt := st == zMissing
	added, updated, processed := 0, 0, 0
	var last float64
	for j, score := range scores {
		member := pairs[2*j+1]
		if n := ent.node(member); n != nil {
			cur := n.Score
			if o.nx {
				continue
			}
			if o.incr {
				score += cur
				if math.IsNaN(score) {
					return resp.ErrorReply(errNaNScore)
				}
			}
			if o.lt && score >= cur || o.gt && score <= cur {
				continue
			}
			processed++
			last = score
			if score != cur { // -0 and 0 are equal: no update
				updated++
				zstore(mdb, key, ent, n, member, score)
			}
			continue
		}
		if o.xx {
			continue
		}
		if !ent.skiplist && (ent.set.Len()+1 > zsetListpackEntries || len(member) > zsetListpackValue) {
			ent.skiplist = true
		}
		zstore(mdb, key, ent, nil, member, score)
		if adopt {
			e.zadopt(db, mdb, key, ent)
			adopt = false
		}
		added++
		processed++
		last = score
	}
	if o.incr {
		if processed == 0 {
			return resp.NilReply()
		}
		return scoreText(last)
	}
	if o.ch {
		return resp.IntReply(int64(added + updated))
	}
	return resp.IntReply(int64(added))
}

// zstore writes one member's score to miniredis's map and to the index:
// n is the member's node when it is in the set, nil when it is new. A
// listpack keeps a score as text and reads "-0" back as the integer 0, so a
// set Redis holds as a listpack never has a score of -0; a skiplist keeps
// the double as it is.
func zstore(mdb *miniredis.RedisDB, key string, ent *zentry, n *zset.Node, member string, score float64) {
	if score == 0 && !ent.skiplist {
		score = 0
	}
	mdb.ZAdd(key, score, member)
	if n != nil {
		ent.set.Rescore(n, score)
	} else {
		ent.set.Insert(member, score)
	}
}

// zadopt ties ent to the map key holds after the engine wrote it, which is
// a new map when the write created the key, and drops it if the key is gone.
func (e *Engine) zadopt(db int, mdb *miniredis.RedisDB, key string, ent *zentry) {
	live, err := mdb.SortedSet(key)
	if err != nil {
		if ks := e.zsets[key]; ks != nil {
			ks[db] = nil
		}
		return
	}
	ent.src, ent.checked = live, e.zgen
}

func zremCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 3 {
		return e.raw(peer, args)
	}
	db := e.dbOf[peer]
	ent, st := e.zentryOf(db, args[1], true)
	switch st {
	case zWrongType:
		return errWrongType
	case zMissing:
		return resp.IntReply(0)
	}
	mdb := e.db(db)
	n := 0
	for _, m := range args[2:] {
		if node := ent.node(m); node != nil {
			ent.set.RemoveNode(node)
			mdb.ZRem(args[1], m)
			n++
		}
	}
	e.zremoved(db, mdb, args[1], ent)
	return resp.IntReply(int64(n))
}

// zremove takes the nodes out of the set, in miniredis and in the index.
func (e *Engine) zremove(db int, key string, ent *zentry, nodes []*zset.Node) {
	mdb := e.db(db)
	for _, n := range nodes {
		mdb.ZRem(key, n.Member)
		ent.set.RemoveNode(n)
	}
	e.zremoved(db, mdb, key, ent)
}

// zremoved follows removals from key: miniredis keeps a set's map while it
// has members, and deletes the key with its last, so only an emptied set
// has anything for zadopt to tie again (a claim's ZPOPMIN then reads
// miniredis's keyspace once less).
func (e *Engine) zremoved(db int, mdb *miniredis.RedisDB, key string, ent *zentry) {
	if ent.set.Len() == 0 {
		e.zadopt(db, mdb, key, ent)
	}
}

// zpopCommand is ZPOPMIN (max false) and ZPOPMAX.
func zpopCommand(max bool) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		switch {
		case len(args) < 2:
			return e.raw(peer, args)
		case len(args) > 3:
			return resp.ErrorReply(errSyntax)
		}
		count := int64(1)
		if len(args) == 3 {
			n, ok := parseRedisInt(args[2])
			if !ok || n < 0 {
				return resp.ErrorReply(errNotPositive)
			}
			count = n
		}
		db := e.dbOf[peer]
		ent, st := e.zentryOf(db, args[1], true)
		switch st {
		case zWrongType:
			return errWrongType
		case zMissing:
			return resp.ArrayReply()
		}
		if count == 0 {
			return resp.ArrayReply()
		}
		k := int(min(count, int64(ent.set.Len())))
		out := make([]resp.Reply, 0, 2*k)
		var one [1]*zset.Node
		nodes := one[:0]
		n := ent.set.First()
		if max {
			n = ent.set.Last()
		}
		for len(nodes) < k {
			nodes = append(nodes, n)
			out = append(out, resp.BulkReply(n.Member), scoreText(n.Score))
			if max {
				n = n.Prev()
			} else {
				n = n.Next()
			}
		}
		e.zremove(db, args[1], ent, nodes)
		return resp.ArrayReply(out...)
	}
}

func zrankCommand(rev bool) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) != 3 {
			return e.raw(peer, args)
		}
		ent, st := e.zentryOf(e.dbOf[peer], args[1], true)
		switch st {
		case zWrongType:
			return errWrongType
		case zMissing:
			return resp.NilReply()
		}
		n := ent.node(args[2])
		if n == nil {
			return resp.NilReply()
		}
		r := ent.set.Rank(n)
		if rev {
			r = ent.set.Len() - 1 - r
		}
		return resp.IntReply(int64(r))
	}
}

// ---- ranges ------------------------------------------------------------------

// How a range is given.
const (
	byAuto = iota // ZRANGE: by rank unless BYSCORE or BYLEX says otherwise
	byRank
	byScore
	byLex
)

// zspan is a parsed range: ranks, scores or members.
type zspan struct {
	by          int
	start, stop int64 // byRank

	min, max     float64 // byScore
	minEx, maxEx bool

	lmin, lmax string // byLex
	// lminAll is "-" (below every member), lmaxAll "+"; "+" as a min or
	// "-" as a max is a bound past every member on the other side.
	lminKind, lmaxKind int
}

// Kinds of lexical bound.
const (
	lexValue = iota
	lexBottom
	lexTop
)

// parseScoreBound reads a score range bound as zslParseRange does: "(" for
// an exclusive bound, then strtod over the rest as C sees it (up to a
// NUL), which may have leading space, may overflow to infinity, and must
// not be NaN.
func parseScoreBound(s string) (float64, bool, bool) {
	ex := strings.HasPrefix(s, "(")
	if ex {
		s = s[1:]
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	i := 0
	for i < len(s) && lualib.IsSpace(s[i]) {
		i++
	}
	if i == len(s) {
		// strtod reads nothing and leaves its end at the start: at the
		// string's end only if there was nothing, not even white space.
		return 0, ex, len(s) == 0
	}
	if lualib.IsSpace(s[len(s)-1]) {
		return 0, ex, false
	}
	f, ok := lualib.StringToNumber(s[i:])
	if !ok || math.IsNaN(f) {
		return 0, ex, false
	}
	return f, ex, true
}

// parseLexBound reads a lexical range bound as zslParseLexRangeItem does.
func parseLexBound(s string) (string, int, bool, bool) {
	if s == "" {
		return "", 0, false, false
	}
	switch s[0] {
	case '+', '-':
		if len(s) > 1 && s[1] != 0 {
			return "", 0, false, false
		}
		if s[0] == '+' {
			return "", lexTop, true, true
		}
		return "", lexBottom, true, true
	case '(':
		return s[1:], lexValue, true, true
	case '[':
		return s[1:], lexValue, false, true
	}
	return "", 0, false, false
}

// parseSpan reads the range lo..hi (already in min, max order) as by says.
func parseSpan(by int, lo, hi string) (zspan, *resp.Reply) {
	sp := zspan{by: by}
	var ok1, ok2 bool
	switch by {
	case byRank:
		sp.start, ok1 = parseRedisInt(lo)
		sp.stop, ok2 = parseRedisInt(hi)
		if !ok1 || !ok2 {
			r := resp.ErrorReply(errNotInt)
			return sp, &r
		}
	case byScore:
		sp.min, sp.minEx, ok1 = parseScoreBound(lo)
		sp.max, sp.maxEx, ok2 = parseScoreBound(hi)
		if !ok1 || !ok2 {
			r := resp.ErrorReply(errScoreRange)
			return sp, &r
		}
	case byLex:
		sp.lmin, sp.lminKind, sp.minEx, ok1 = parseLexBound(lo)
		sp.lmax, sp.lmaxKind, sp.maxEx, ok2 = parseLexBound(hi)
		if !ok1 || !ok2 {
			r := resp.ErrorReply(errLexRange)
			return sp, &r
		}
	}
	return sp, nil
}

// lexCompare compares a member with a lexical bound.
func lexCompare(m string, kind int, bound string) int {
	switch kind {
	case lexBottom:
		return 1
	case lexTop:
		return -1
	}
	return strings.Compare(m, bound)
}

func (sp *zspan) aboveMin(n *zset.Node) bool {
	if sp.by == byScore {
		if sp.minEx {
			return n.Score > sp.min
		}
		return n.Score >= sp.min
	}
	c := lexCompare(n.Member, sp.lminKind, sp.lmin)
	return c > 0 || c == 0 && !sp.minEx
}

func (sp *zspan) belowMax(n *zset.Node) bool {
	if sp.by == byScore {
		if sp.maxEx {
			return n.Score < sp.max
		}
		return n.Score <= sp.max
	}
	c := lexCompare(n.Member, sp.lmaxKind, sp.lmax)
	return c < 0 || c == 0 && !sp.maxEx
}

// empty reports a range no member can be in, as zslIsInRange and
// zslIsInLexRange decide before they look for one.
func (sp *zspan) empty() bool {
	if sp.by == byScore {
		return sp.min > sp.max || sp.min == sp.max && (sp.minEx || sp.maxEx)
	}
	c := 0
	switch {
	case sp.lminKind == sp.lmaxKind && sp.lminKind != lexValue:
		c = 0
	case sp.lminKind == lexTop || sp.lmaxKind == lexBottom:
		c = 1
	case sp.lminKind == lexBottom || sp.lmaxKind == lexTop:
		c = -1
	default:
		c = strings.Compare(sp.lmin, sp.lmax)
	}
	return c > 0 || c == 0 && (sp.minEx || sp.maxEx)
}

// first is the lowest member in the range, or nil; last the highest.
// Scores are ordered in every set. Members are ordered only among equal
// scores: Redis walks a listpack from its start (or end) to find a lexical
// bound, and the engine does the same for a set Redis would hold as one;
// in a skiplist Redis's search depends on its random levels, and so does
// ours, which is why Redis leaves lexical ranges over mixed scores undefined.
func (sp *zspan) first(ent *zentry) *zset.Node { return sp.edge(ent, false) }

func (sp *zspan) last(ent *zentry) *zset.Node { return sp.edge(ent, true) }

// edge is first, or with top last: the same walk from the other end, the
// two bounds trading places.
func (sp *zspan) edge(ent *zentry, top bool) *zset.Node {
	s := ent.set
	if sp.empty() || s.Len() == 0 || !sp.aboveMin(s.Last()) || !sp.belowMax(s.First()) {
		return nil
	}
	near, far := sp.aboveMin, sp.belowMax // the bound walked to, and the other
	start, step, search := s.First(), (*zset.Node).Next, s.FirstNotBefore
	if top {
		near, far = sp.belowMax, sp.aboveMin
		start, step, search = s.Last(), (*zset.Node).Prev, s.LastNotAfter
	}
	var n *zset.Node
	if sp.by == byLex && !ent.skiplist {
		for n = start; n != nil && !near(n); n = step(n) {
		}
	} else {
		n, _ = search(func(n *zset.Node) bool { return !near(n) })
	}
	if n == nil || !far(n) {
		return nil
	}
	return n
}

// ranks turns a rank range into the first rank and a count, as
// genericZrangebyrankCommand does; count 0 is an empty range.
func (sp *zspan) ranks(length int64) (start, count int64) {
	start, end := sp.start, sp.stop
	if start < 0 {
		start += length
	}
	if end < 0 {
		end += length
	}
	if start < 0 {
		start = 0
	}
	if start > end || start >= length {
		return 0, 0
	}
	if end >= length {
		end = length - 1
	}
	return start, end - start + 1
}

// nodes lists the members of the range in order (reversed for rev), after
// skipping offset of them and taking at most limit (negative: all).
func (sp *zspan) nodes(ent *zentry, rev bool, offset, limit int64) []*zset.Node {
	s := ent.set
	var out []*zset.Node
	if sp.by == byRank {
		start, count := sp.ranks(int64(s.Len()))
		if count == 0 {
			return nil
		}
		out = make([]*zset.Node, 0, count)
		var n *zset.Node
		if rev {
			n = s.At(s.Len() - 1 - int(start))
		} else {
			n = s.At(int(start))
		}
		for ; count > 0 && n != nil; count-- {
			out = append(out, n)
			if rev {
				n = n.Prev()
			} else {
				n = n.Next()
			}
		}
		return out
	}
	if offset < 0 || offset > 0 && offset >= int64(s.Len()) {
		return nil // Redis walks a negative offset off the end
	}
	var n *zset.Node
	if rev {
		n = sp.last(ent)
	} else {
		n = sp.first(ent)
	}
	step := func(n *zset.Node) *zset.Node {
		if rev {
			return n.Prev()
		}
		return n.Next()
	}
	for ; n != nil && offset > 0; offset-- {
		n = step(n)
	}
	for ; n != nil && limit != 0; limit-- {
		if rev && !sp.aboveMin(n) || !rev && !sp.belowMax(n) {
			break
		}
		out = append(out, n)
		n = step(n)
	}
	return out
}

// storeForm gives a command's name, lower-case for its errors, and where
// its own arguments start: after the name, or, in a store form
// (ZRANGESTORE, ZDIFFSTORE), after the destination key too.
func storeForm(args []string, store bool) (string, int) {
	if store {
		return ascii.Lower(args[0]), 2
	}
	return ascii.Lower(args[0]), 1
}

// zrangeCommand serves ZRANGE (by byAuto) and its older forms, and
// ZRANGESTORE (store).
func zrangeCommand(by int, rev, store bool) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		name, first := storeForm(args, store) // first: the source key
		if len(args) < first+3 {
			if store { // ZRANGESTORE, which miniredis lacks
				return resp.Errorf(errWrongArgCount, name)
			}
			return e.raw(peer, args)
		}
		kind, reverse := by, rev
		withScores := false
		offset, limit := int64(0), int64(-1)
		for j := first + 3; j < len(args); j++ {
			switch opt := ascii.Upper(args[j]); {
			case !store && opt == "WITHSCORES":
				withScores = true
			case opt == "LIMIT" && len(args)-j-1 >= 2:
				var ok1, ok2 bool
				offset, ok1 = parseRedisInt(args[j+1])
				limit, ok2 = parseRedisInt(args[j+2])
				if !ok1 || !ok2 {
					return resp.ErrorReply(errNotInt)
				}
				j += 2
			case by == byAuto && opt == "REV" && !reverse:
				reverse = true
			case by == byAuto && opt == "BYLEX" && kind == byAuto:
				kind = byLex
			case by == byAuto && opt == "BYSCORE" && kind == byAuto:
				kind = byScore
			default:
				return resp.ErrorReply(errSyntax)
			}
		}
		if kind == byAuto {
			kind = byRank
		}
		if limit != -1 && kind == byRank {
			return resp.ErrorReply("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")
		}
		if withScores && kind == byLex {
			return resp.ErrorReply("ERR syntax error, WITHSCORES not supported in combination with BYLEX")
		}
		lo, hi := args[first+1], args[first+2]
		if reverse && kind != byRank {
			lo, hi = hi, lo // given as max, min
		}
		sp, errRep := parseSpan(kind, lo, hi)
		if errRep != nil {
			return *errRep
		}
		db := e.dbOf[peer]
		ent, st := e.zentryOf(db, args[first], true)
		var nodes []*zset.Node
		switch st {
		case zWrongType:
			return errWrongType
		case zFound:
			nodes = sp.nodes(ent, reverse, offset, limit)
		}
		if store {
			return e.zstoreRange(db, args[1], nodes)
		}
		return nodesReply(nodes, withScores)
	}
}

func nodesReply(nodes []*zset.Node, withScores bool) resp.Reply {
	per := 1
	if withScores {
		per = 2
	}
	out := make([]resp.Reply, 0, per*len(nodes))
	for _, n := range nodes {
		out = append(out, resp.BulkReply(n.Member))
		if withScores {
			out = append(out, scoreText(n.Score))
		}
	}
	return resp.ArrayReply(out...)
}

// zstoreRange writes nodes to dst as a new sorted set, replacing whatever
// dst held (and its TTL); no nodes delete dst, as Redis stores no empty set.
func (e *Engine) zstoreRange(db int, dst string, nodes []*zset.Node) resp.Reply {
	type pair struct {
		m string
		s float64
	}
	// Copied first: dst may be the source.
	pairs := make([]pair, len(nodes))
	big := len(nodes) > zsetListpackEntries
	for i, n := range nodes {
		pairs[i] = pair{n.Member, n.Score}
		big = big || len(n.Member) > zsetListpackValue
	}
	mdb := e.db(db)
	mdb.Del(dst)
	if ks := e.zsets[dst]; ks != nil {
		ks[db] = nil
	}
	if len(pairs) == 0 {
		return resp.IntReply(0)
	}
	ent := e.newZentry(db, dst)
	ent.skiplist = big
	for _, p := range pairs {
		zstore(mdb, dst, ent, nil, p.m, p.s) // the members of one set: each new
	}
	e.zadopt(db, mdb, dst, ent)
	return resp.IntReply(int64(len(pairs)))
}

// spanOf reads what ZCOUNT, ZLEXCOUNT and the ZREMRANGEBY commands share:
// the range in args[2] and args[3] of the sorted set args[1]. When done, r
// is the whole reply: miniredis's to a wrong number of arguments (it words
// that as Redis does), the range's error, WRONGTYPE, or 0 for a key that
// does not exist.
func (e *Engine) spanOf(peer *server.Peer, by int, args []string) (sp zspan, ent *zentry, r resp.Reply, done bool) {
	if len(args) != 4 {
		return sp, nil, e.raw(peer, args), true
	}
	sp, errRep := parseSpan(by, args[2], args[3])
	if errRep != nil {
		return sp, nil, *errRep, true
	}
	ent, st := e.zentryOf(e.dbOf[peer], args[1], true)
	switch st {
	case zWrongType:
		return sp, nil, errWrongType, true
	case zMissing:
		return sp, nil, resp.IntReply(0), true
	}
	return sp, ent, resp.Reply{}, false
}

// zcountCommand is ZCOUNT (byScore) and ZLEXCOUNT (byLex).
func zcountCommand(by int) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		sp, ent, r, done := e.spanOf(peer, by, args)
		if done {
			return r
		}
		first := sp.first(ent)
		if first == nil {
			return resp.IntReply(0)
		}
		if by == byLex && !ent.skiplist {
			// A listpack counts from the first member in range on.
			n := 0
			for x := first; x != nil && sp.belowMax(x); x = x.Next() {
				n++
			}
			return resp.IntReply(int64(n))
		}
		last := sp.last(ent)
		if last == nil {
			return resp.IntReply(0)
		}
		a, b := ent.set.Rank(first), ent.set.Rank(last)
		return resp.IntReply(int64(max(b-a+1, 0)))
	}
}

// zremrangeCommand is ZREMRANGEBYRANK, ZREMRANGEBYSCORE and ZREMRANGEBYLEX.
func zremrangeCommand(by int) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		sp, ent, r, done := e.spanOf(peer, by, args)
		if done {
			return r
		}
		nodes := sp.nodes(ent, false, 0, -1)
		e.zremove(e.dbOf[peer], args[1], ent, nodes)
		return resp.IntReply(int64(len(nodes)))
	}
}

// zdiffCommand serves ZDIFF numkeys key [key ...] [WITHSCORES] and (store)
// ZDIFFSTORE destination numkeys key [key ...], which miniredis lacks: the
// members of the first sorted set that are in none of the others, with the
// first set's scores, in the set's order. As in Redis, a plain set stands
// for a sorted set whose scores are all 1. The checks are Redis 7.0's
// zunionInterDiffGenericCommand's, in its order: numkeys, the keys' types,
// then the options.
func zdiffCommand(store bool) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		name, at := storeForm(args, store) // at: numkeys
		if len(args) < at+2 {
			return resp.Errorf(errWrongArgCount, name)
		}
		n, ok := parseRedisInt(args[at])
		switch {
		case !ok:
			return resp.ErrorReply(errNotInt)
		case n < 1:
			return resp.Errorf("ERR at least 1 input key is needed for '%s' command", name)
		case n > int64(len(args)-at-1):
			return resp.ErrorReply(errSyntax)
		}
		keys := args[at+1 : at+1+int(n)]
		db := e.dbOf[peer]
		// The first set in order; each other one as its members' map.
		first := zset.New()
		others := make([]map[string]float64, len(keys))
		for i, k := range keys {
			ent, st := e.zentryOf(db, k, i == 0)
			switch {
			case st == zFound && i == 0:
				first = ent.set
			case st == zFound:
				others[i] = ent.src
			case st == zWrongType:
				// A plain set, or a key of another type (WRONGTYPE).
				r := e.raw(peer, []string{"SMEMBERS", k})
				if r.Kind != resp.Array {
					return r
				}
				others[i] = map[string]float64{}
				for _, m := range r.Elems {
					others[i][m.Str] = 1
				}
				if i == 0 {
					for m := range others[0] {
						first.Insert(m, 1) // a map's members: each once
					}
				}
			}
		}
		withScores := false
		for _, opt := range args[at+1+int(n):] {
			if store || !ascii.EqualFold(opt, "WITHSCORES") {
				return resp.ErrorReply(errSyntax)
			}
			withScores = true
		}
		var nodes []*zset.Node
	members:
		for x := first.First(); x != nil; x = x.Next() {
			for _, other := range others[1:] {
				if _, in := other[x.Member]; in {
					continue members
				}
			}
			nodes = append(nodes, x)
		}
		if store {
			return e.zstoreRange(db, args[1], nodes)
		}
		return nodesReply(nodes, withScores)
	}
}
