package lualib

import lua "github.com/yuin/gopher-lua"

// pollEvery is how many units of work (bytes scanned, elements visited) a
// library function does between two looks at the script's budget. The
// engine's budget reads its clock once every 1024 looks, so one look per
// 256 units costs next to nothing and still notices an expired budget
// within a few hundred microseconds of Go work.
const pollEvery = 256

// poll lets the script's budget stop a library function that loops in Go.
// The Lua VM looks at the budget (the state's context) before every
// instruction, but a single call such as string.gsub over a long subject,
// or cjson.encode of a big table, is one instruction that can run for
// seconds: without a look from inside, neither the time budget nor the
// memory budget could end it. When the budget has run out, poll raises an
// error; the engine sees its budget expired and answers with its usual
// "script killed" or memory error, whatever the error's text.
func poll(L *lua.LState) {
	ctx := L.Context()
	if ctx == nil {
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
// counts toward the budget's clock as much as many small ones.
func (m *meter) spend(n int) {
	m.work += n
	for m.work >= pollEvery {
		m.work -= pollEvery
		poll(m.L)
	}
}
