package engine

import (
	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/luarun"
	"echomq.dev/playground/wasm/resp"
)

// maxReplyDepth bounds the conversion of nested tables, so a table that
// contains itself ends instead of recursing forever. Redis 7.0 stops where
// its Lua C stack runs out: for a plain `return t` that is 7995 arrays deep,
// with the error "reached lua stack limit" as the innermost element.
const maxReplyDepth = 7995

// luaToReply converts what a script returns into a reply, by Redis's rules:
// a number becomes an integer (truncated), a string a bulk string, true the
// integer 1, false and nil a null (with redis.setresp(3), booleans become
// RESP3 booleans); a table with an err or ok string field an error or status
// reply, with a double, map, set, big_number or verbatim_string field the
// RESP3 reply of that kind, and any other table an array of its elements
// from index 1 up to the first nil. The reply is RESP3-shaped; forProtocol
// lowers it for a RESP2 client.
//
// It walks the tables with a stack of its own, not by recursion: in
// WebAssembly every Go call is a call on the browser's stack, which is
// small, and a reply nested a few thousand tables deep (which Redis sends
// as it is) would overflow it with a JavaScript RangeError that leaves the
// Go program stuck. ok is false when the script's budget ran out during
// the walk: a table that holds itself twice, {t, t}, doubles the reply at
// every level, and Redis would spend its memory on it until it ends.
//
// The reply is written into rep, which the caller keeps: a reply made here
// would be one more allocation per script run, since the places of the
// work list point into it.
func luaToReply(v glua.LValue, resp3 bool, b *budget, rep *resp.Reply) bool {
	t, ok := v.(*glua.LTable)
	if !ok {
		*rep = scalarReply(v, resp3)
		return true
	}
	var buf [16]pendingReply
	work := append(buf[:0], pendingReply{rep, t, 0})
	for n := 0; len(work) > 0; n++ {
		if n&63 == 63 && b.spent() {
			return false
		}
		p := work[len(work)-1]
		work = work[:len(work)-1]
		if t, ok := p.v.(*glua.LTable); ok {
			work = p.table(t, resp3, work)
		} else {
			*p.to = scalarReply(p.v, resp3)
		}
	}
	return true
}

// pendingReply is one Lua value luaToReply has still to convert, and the
// place in the reply it goes.
type pendingReply struct {
	to    *resp.Reply
	v     glua.LValue
	depth int // how many tables hold it
}

// scalarReply converts a value that is not a table.
func scalarReply(v glua.LValue, resp3 bool) resp.Reply {
	switch v := v.(type) {
	case glua.LNumber:
		return resp.IntReply(lualib.CInt64(float64(v)))
	case glua.LString:
		return resp.BulkReply(string(v))
	case glua.LBool:
		switch {
		case resp3 && bool(v):
			return resp.Reply{Kind: resp.Bool, Int: 1}
		case resp3:
			return resp.Reply{Kind: resp.Bool}
		case bool(v):
			return resp.IntReply(1)
		}
	}
	return resp.NilReply()
}

// table converts a table into p's place. Its elements get places of their
// own in the reply, and are added to work to be converted in turn.
func (p pendingReply) table(v *glua.LTable, resp3 bool, work []pendingReply) []pendingReply {
	if e, ok := v.RawGetString("err").(glua.LString); ok {
		if e == "" {
			*p.to = resp.ErrorReply("ERR ") // an empty error still gets a code
		} else {
			*p.to = resp.ErrorReply(luarun.OneLine(string(e)))
		}
		return work
	}
	if s, ok := v.RawGetString("ok").(glua.LString); ok {
		*p.to = resp.StatusReply(luarun.OneLine(string(s)))
		return work
	}
	if p.depth >= maxReplyDepth {
		*p.to = resp.ErrorReply("ERR reached lua stack limit")
		return work
	}
	if d, ok := v.RawGetString("double").(glua.LNumber); ok {
		*p.to = resp.Reply{Kind: resp.Double, Str: resp.FormatDouble(float64(d))}
		return work
	}
	if m, ok := v.RawGetString("map").(*glua.LTable); ok {
		pairs := lualib.Pairs(m)
		elems := make([]resp.Reply, 2*len(pairs))
		for i, kv := range pairs {
			work = append(work, pendingReply{&elems[2*i], kv[0], p.depth + 1}, pendingReply{&elems[2*i+1], kv[1], p.depth + 1})
		}
		*p.to = resp.Reply{Kind: resp.Map, Elems: nilIfEmpty(elems)}
		return work
	}
	if set, ok := v.RawGetString("set").(*glua.LTable); ok {
		members := lualib.Pairs(set)
		elems := make([]resp.Reply, len(members))
		for i, kv := range members {
			work = append(work, pendingReply{&elems[i], kv[0], p.depth + 1})
		}
		*p.to = resp.Reply{Kind: resp.Set, Elems: nilIfEmpty(elems)}
		return work
	}
	if n, ok := v.RawGetString("big_number").(glua.LString); ok {
		*p.to = resp.Reply{Kind: resp.BigNumber, Str: string(n)}
		return work
	}
	if vs, ok := v.RawGetString("verbatim_string").(*glua.LTable); ok {
		format, _ := vs.RawGetString("format").(glua.LString)
		text, _ := vs.RawGetString("string").(glua.LString)
		*p.to = resp.Reply{Kind: resp.Verbatim, Format: string(format), Str: string(text)}
		return work
	}
	n := 0
	for v.RawGetInt(n+1) != glua.LNil {
		n++
	}
	var elems []resp.Reply
	if n > 0 {
		elems = make([]resp.Reply, n)
		// Pushed last to first, so the first element is converted first.
		for i := n - 1; i >= 0; i-- {
			work = append(work, pendingReply{&elems[i], v.RawGetInt(i + 1), p.depth + 1})
		}
	}
	*p.to = resp.ArrayReply(elems...)
	return work
}

// nilIfEmpty keeps an empty map or set's elements nil, as appending to
// nothing left them.
func nilIfEmpty(elems []resp.Reply) []resp.Reply {
	if len(elems) == 0 {
		return nil
	}
	return elems
}

// replyToLua converts a command's reply into the value redis.call returns:
// an integer becomes a number, a bulk string a string, a null false (nil
// under RESP3), an array a table, a status {ok=...} and an error (inside an
// array) {err=...}. Under RESP3 a map becomes {map={k=v}}, a set
// {set={m=true}}, a double {double=n}, a boolean true or false, a big
// number {big_number=s} and a verbatim string {verbatim_string={format=,
// string=}}.
func replyToLua(L *glua.LState, r resp.Reply, resp3 bool) glua.LValue {
	wrap := func(field string, v glua.LValue) *glua.LTable {
		t := L.CreateTable(0, 1)
		t.RawSetString(field, v)
		return t
	}
	switch r.Kind {
	case resp.Int:
		return luaInteger(r.Int)
	case resp.Bulk:
		return glua.LString(r.Str)
	case resp.Status:
		return wrap("ok", glua.LString(r.Str))
	case resp.Error:
		return wrap("err", glua.LString(r.Str))
	case resp.Array:
		t := L.CreateTable(len(r.Elems), 0)
		for i, e := range r.Elems {
			t.RawSetInt(i+1, replyToLua(L, e, resp3))
		}
		return t
	case resp.Map:
		m := L.CreateTable(0, len(r.Elems)/2)
		for i := 0; i+1 < len(r.Elems); i += 2 {
			m.RawSet(replyToLua(L, r.Elems[i], resp3), replyToLua(L, r.Elems[i+1], resp3))
		}
		return wrap("map", m)
	case resp.Set:
		m := L.CreateTable(0, len(r.Elems))
		for _, e := range r.Elems {
			m.RawSet(replyToLua(L, e, resp3), glua.LTrue)
		}
		return wrap("set", m)
	case resp.Double:
		f, _ := lualib.StringToNumber(r.Str)
		return wrap("double", glua.LNumber(f))
	case resp.Bool:
		return glua.LBool(r.Int != 0)
	case resp.BigNumber:
		return wrap("big_number", glua.LString(r.Str))
	case resp.Verbatim:
		v := L.CreateTable(0, 2)
		v.RawSetString("format", glua.LString(r.Format))
		v.RawSetString("string", glua.LString(r.Str))
		return wrap("verbatim_string", v)
	case resp.Nil:
		if resp3 {
			return glua.LNil
		}
	}
	return glua.LFalse
}

// smallIntegers are the Lua values of the integers 0 to 255, made once.
// Turning a number into a Lua value allocates, and most integer replies a
// script reads are small (EXISTS, HSET, ZADD, a first HINCRBY); a Lua
// number is a value, so one copy serves every reply.
var smallIntegers = func() (out [256]glua.LValue) {
	for i := range out {
		out[i] = glua.LNumber(i)
	}
	return out
}()

// luaInteger is glua.LNumber(n) as a Lua value, without an allocation for
// a small n.
func luaInteger(n int64) glua.LValue {
	if n >= 0 && n < int64(len(smallIntegers)) {
		return smallIntegers[n]
	}
	return glua.LNumber(n)
}

// formatArgNumber turns a Lua number passed to redis.call into the argument
// Redis 7.0 sends: "%.17g", so 1e3 becomes "1000" and 0.1 becomes
// "0.10000000000000001".
func formatArgNumber(f float64) string { return resp.FormatDouble(f) }
