package engine

import (
	"math"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/resp"
)

// maxReplyDepth bounds the conversion of nested tables, so a table that
// contains itself ends instead of recursing forever. Redis 7.0 stops where
// its Lua C stack runs out: for a plain `return t` that is 7995 arrays deep,
// with the error "reached lua stack limit" as the innermost element.
const maxReplyDepth = 7995

// luaToReply converts what a script returns into a reply, by Redis's rules:
// a number becomes an integer (truncated), a string a bulk string, true the
// integer 1, false and nil a null; a table with an err or ok string field an
// error or status reply, and any other table an array of its elements from
// index 1 up to the first nil.
func luaToReply(v glua.LValue, depth int) resp.Reply {
	switch v := v.(type) {
	case glua.LNumber:
		return resp.IntReply(truncate(float64(v)))
	case glua.LString:
		return resp.BulkReply(string(v))
	case glua.LBool:
		if v {
			return resp.IntReply(1)
		}
		return resp.NilReply()
	case *glua.LTable:
		if e, ok := v.RawGetString("err").(glua.LString); ok {
			return resp.ErrorReply(oneLine(string(e)))
		}
		if s, ok := v.RawGetString("ok").(glua.LString); ok {
			return resp.StatusReply(oneLine(string(s)))
		}
		if depth >= maxReplyDepth {
			return resp.ErrorReply("ERR reached lua stack limit")
		}
		var elems []resp.Reply
		for i := 1; ; i++ {
			e := v.RawGetInt(i)
			if e == glua.LNil {
				break
			}
			elems = append(elems, luaToReply(e, depth+1))
		}
		return resp.ArrayReply(elems...)
	}
	return resp.NilReply()
}

// truncate converts a Lua number to an integer reply the way Redis's C cast
// does on x86-64: toward zero, with NaN and out-of-range values becoming
// the minimum int64 (so `return 1/0` replies -9223372036854775808).
func truncate(f float64) int64 {
	if math.IsNaN(f) || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
		return math.MinInt64
	}
	return int64(f)
}

// replyToLua converts a command's reply into the value redis.call returns:
// an integer becomes a number, a bulk string a string, a null false, an
// array a table, a status {ok=...} and an error (inside an array) {err=...}.
func replyToLua(L *glua.LState, r resp.Reply) glua.LValue {
	switch r.Kind {
	case resp.Int:
		return glua.LNumber(r.Int)
	case resp.Bulk:
		return glua.LString(r.Str)
	case resp.Status:
		t := L.CreateTable(0, 1)
		t.RawSetString("ok", glua.LString(r.Str))
		return t
	case resp.Error:
		t := L.CreateTable(0, 1)
		t.RawSetString("err", glua.LString(r.Str))
		return t
	case resp.Array:
		t := L.CreateTable(len(r.Elems), 0)
		for i, e := range r.Elems {
			t.RawSetInt(i+1, replyToLua(L, e))
		}
		return t
	}
	return glua.LFalse
}

// formatArgNumber turns a Lua number passed to redis.call into the argument
// Redis 7.0 sends: "%.17g", so 1e3 becomes "1000" and 0.1 becomes
// "0.10000000000000001".
func formatArgNumber(f float64) string { return resp.FormatDouble(f) }
