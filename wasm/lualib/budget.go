package lualib

import lua "github.com/yuin/gopher-lua"

// pollEvery is how many units of work (bytes scanned, elements visited) a
// library function does between two looks at the script's budget: often
// enough to notice an expired budget within a few hundred microseconds of
// Go work, seldom enough to cost next to nothing.
const pollEvery = 256

// spender is a budget that counts a library function's work (the engine's
// does): Spend counts units of it and reports whether the script is to
// stop.
type spender interface {
	Spend(units int) bool
}

// poll lets the script's budget stop a library function that loops in Go,
// and counts the units of work done since the last poll. The Lua VM looks
// at the budget (the state's context) before every instruction, but a
// single call such as string.gsub over a long subject, or cjson.encode of
// a big table, is one instruction that can run for seconds: without a look
// from inside, the budgets could not end it, nor count what it did. When
// the budget has run out, poll raises an error; the engine sees its budget
// expired and answers with its usual "script killed" or memory error,
// whatever the error's text. A context that counts no work (not the
// engine's) is only asked whether it is done.
func poll(L *lua.LState, units int) {
	ctx := L.Context()
	if ctx == nil {
		return
	}
	if s, ok := ctx.(spender); ok {
		if s.Spend(units) {
			L.RaiseError("%v", ctx.Err())
		}
		return
	}
	select {
	case <-ctx.Done():
		L.RaiseError("%v", ctx.Err())
	default:
	}
}

// meter counts work done in one library call and polls the budget once per
// pollEvery units of it.
type meter struct {
	L    *lua.LState
	work int
}

// spend records n units of work, polling the budget when due: once for
// every pollEvery units, so that a big step (a megabyte copied at once)
// counts toward the budget as much as many small ones.
func (m *meter) spend(n int) {
	m.work += n
	for m.work >= pollEvery {
		m.work -= pollEvery
		poll(m.L, pollEvery)
	}
}
