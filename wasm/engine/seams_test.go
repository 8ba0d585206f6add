package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"echomq.dev/playground/wasm/resp"
)

// The seams: what the engine relies on in miniredis and gopher-lua beyond
// their documented behaviour, each tested here against the dependency
// itself, so that an upgrade that changes one fails in a test named for
// it, never in a learner's reply. README's "Seams" lists them all.

// requiredVersion is the version go.mod requires of module, read from
// go.mod, which decides what every build uses (a test binary records no
// dependencies in its build info).
func requiredVersion(t *testing.T, module string) string {
	t.Helper()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == module {
			return f[1]
		}
	}
	t.Fatalf("go.mod does not require %s", module)
	return ""
}

// TestMiniredisIsTheVersionTheSeamsWereWrittenFor fails on an upgrade of
// miniredis, so that someone runs this file's seams against the new
// release, and reads the code they name, before the engine serves on it.
// Change seamMiniredis only after that review.
func TestMiniredisIsTheVersionTheSeamsWereWrittenFor(t *testing.T) {
	if got := requiredVersion(t, "github.com/alicebob/miniredis/v2"); got != seamMiniredis {
		t.Fatalf("go.mod requires miniredis %s, but the engine's seams into it were written against %s: review README's Seams against the new release (these tests first), then update seamMiniredis", got, seamMiniredis)
	}
}

// dispatcher is a bare miniredis driven as the engine drives it: Dispatch
// on a peer whose RESP goes to a buffer.
type dispatcher struct {
	m    *miniredis.Miniredis
	srv  *server.Server
	out  bytes.Buffer
	peer *server.Peer
}

func newDispatcher(t *testing.T) *dispatcher {
	t.Helper()
	d := &dispatcher{m: miniredis.NewMiniRedis()}
	conn, err := d.m.Dial()
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	t.Cleanup(d.m.Close)
	d.srv = d.m.Server()
	d.peer = server.NewPeer(bufio.NewWriter(&d.out))
	return d
}

func (d *dispatcher) do(t *testing.T, args ...string) resp.Reply {
	t.Helper()
	d.out.Reset()
	d.srv.Dispatch(d.peer, args)
	d.peer.Flush()
	r, err := resp.Parse(d.out.Bytes())
	if err != nil {
		t.Fatalf("%v: unreadable reply %q: %v", args, d.out.String(), err)
	}
	return r
}

// TestSeamDispatchWritesOneReplyThroughThePeer: Dispatch runs one command
// for a peer and writes its reply, and only it, to the peer's writer,
// which Flush empties: raw's one path to miniredis (engine.go).
func TestSeamDispatchWritesOneReplyThroughThePeer(t *testing.T) {
	d := newDispatcher(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"SET", "k", "v"}, "+OK\r\n"},
		{[]string{"GET", "k"}, "$1\r\nv\r\n"},
		{[]string{"NOPE"}, "-ERR unknown command `NOPE`, with args beginning with: \r\n"},
	} {
		d.out.Reset()
		d.srv.Dispatch(d.peer, tc.args)
		d.peer.Flush()
		if got := d.out.String(); got != tc.want {
			t.Errorf("%v wrote %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestSeamSortedSetReturnsTheLiveMap: RedisDB.SortedSet hands out the map
// miniredis keeps the set in, not a copy: the commands' writes show in it
// at once, and it stays the key's map until the key is made again, which
// makes a new one. The sorted-set index (zsets.go) ties each entry to its
// map by pointer (sameMap) and reads members' scores there.
func TestSeamSortedSetReturnsTheLiveMap(t *testing.T) {
	d := newDispatcher(t)
	d.do(t, "ZADD", "z", "1", "a")
	live, err := d.m.DB(0).SortedSet("z")
	if err != nil {
		t.Fatal(err)
	}
	d.do(t, "ZADD", "z", "2", "b", "5", "a")
	d.do(t, "ZREM", "z", "b")
	d.do(t, "ZADD", "z", "3", "c")
	if got := len(live); got != 2 || live["a"] != 5 || live["c"] != 3 {
		t.Errorf("the map SortedSet gave holds %v after ZADD and ZREM, want the live set {a: 5, c: 3}", live)
	}
	again, _ := d.m.DB(0).SortedSet("z")
	if !sameMap(live, again) {
		t.Error("a second SortedSet of the same set gave another map")
	}
	d.do(t, "DEL", "z")
	d.do(t, "ZADD", "z", "1", "a")
	remade, _ := d.m.DB(0).SortedSet("z")
	if sameMap(live, remade) {
		t.Error("a set deleted and made again kept its old map: the index could not tell it was made again")
	}
	d.do(t, "SET", "s", "x")
	if _, err := d.m.DB(0).SortedSet("s"); !errors.Is(err, miniredis.ErrWrongType) {
		t.Errorf("SortedSet of a string: %v, want ErrWrongType", err)
	}
	if _, err := d.m.DB(0).SortedSet("missing"); err == nil || errors.Is(err, miniredis.ErrWrongType) {
		t.Errorf("SortedSet of a missing key: %v, want a not-found error", err)
	}
	// A write through the direct API is the same map's too (zstore).
	if _, err := d.m.DB(0).ZAdd("z", 9, "n"); err != nil {
		t.Fatal(err)
	}
	if remade["n"] != 9 {
		t.Error("a direct ZAdd did not write the live map")
	}
}

// TestSeamRedisDBStaysValidUntilTheClockMoves: the *RedisDB that DB(n)
// gives is the database itself, the same pointer every time, which sees
// every command's writes; keys whose TTL the clock passed are expired by
// the next DB call (of any database), not by the *RedisDB kept. The engine
// keeps the pointers (Engine.dbs) and drops them when the clock moves.
func TestSeamRedisDBStaysValidUntilTheClockMoves(t *testing.T) {
	d := newDispatcher(t)
	d.m.ClockTTL(true)
	start := time.UnixMilli(Start).UTC()
	d.m.SetTime(start)
	db0 := d.m.DB(0)
	d.do(t, "SET", "k", "v")
	d.do(t, "SET", "t", "v", "PX", "100")
	if d.m.DB(0) != db0 {
		t.Error("DB(0) gave another pointer")
	}
	if !db0.Exists("k") {
		t.Error("the kept *RedisDB does not see a command's write")
	}
	d.do(t, "SELECT", "5")
	d.do(t, "SET", "t5", "v", "PX", "100")
	d.do(t, "SELECT", "0")
	db5 := d.m.DB(5)
	d.m.SetTime(start.Add(time.Second))
	if !db0.Exists("t") || !db5.Exists("t5") {
		t.Fatal("a key was expired by the clock's move alone, before any DB call: the engine could drop its *RedisDB later than it does")
	}
	d.m.DB(0) // the first DB after the move
	if db0.Exists("t") || db5.Exists("t5") {
		t.Error("the first DB call after the clock moved did not expire the keys it passed, in every database")
	}
}

// TestSeamSwapDBTradesTheDatabases: after SWAPDB, DB(0) is another
// pointer, the one DB(1) was: a kept *RedisDB would read the wrong
// database, so the engine drops them all on SWAPDB (dispatch).
func TestSeamSwapDBTradesTheDatabases(t *testing.T) {
	d := newDispatcher(t)
	before := d.m.DB(0)
	d.do(t, "SET", "in0", "v")
	d.do(t, "SWAPDB", "0", "1")
	if !before.Exists("in0") {
		t.Skip("SWAPDB now swaps the contents, not the databases: the engine's cache need no longer be dropped on SWAPDB (see dispatch)")
	}
	if d.m.DB(0) == before || !d.m.DB(1).Exists("in0") {
		t.Error("after SWAPDB, DB(0) is still the database that was 0: the engine's handling of SWAPDB (dispatch, zsetsAfter) must be reviewed")
	}
}

// TestSeamResettingPeerCtxClearsAConnection: a peer's Ctx is where
// miniredis keeps its whole session state (the selected database, among
// others); setting it to nil makes the peer a fresh connection, which is
// how Reset gives every connection a fresh session (engine.go).
func TestSeamResettingPeerCtxClearsAConnection(t *testing.T) {
	d := newDispatcher(t)
	d.do(t, "SELECT", "3")
	d.do(t, "SET", "k", "in db 3")
	if d.peer.Ctx == nil {
		t.Fatal("SELECT left no state in Peer.Ctx: miniredis keeps the session elsewhere now, and Reset no longer clears it")
	}
	d.peer.Ctx = nil
	if got := d.do(t, "GET", "k"); got.Kind != resp.Nil {
		t.Errorf("after Ctx = nil, GET k = %v: the connection is still on database 3", got)
	}
}

// TestSeamDirectWritesActAsTheirCommands: the direct API the fast paths use
// (fastpath.go, fixups_set.go, fixups.go) does what the command does, but
// for what the engine checks before: RedisDB.Set refuses a key of another
// type and drops a TTL, as SET does; HSet replaces a key of another type
// (so hsetCommand reads the key's type first) and keeps a hash's TTL; HGet
// answers "" for a missing field, a missing key and a key of another type
// alike (so hget asks again as a command); Exists, Type and Del are the
// commands'.
func TestSeamDirectWritesActAsTheirCommands(t *testing.T) {
	d := newDispatcher(t)
	db := d.m.DB(0)
	d.do(t, "HSET", "h", "f", "v")
	if err := db.Set("h", "x"); !errors.Is(err, miniredis.ErrWrongType) {
		t.Errorf("Set over a hash: %v, want ErrWrongType", err)
	}
	d.do(t, "SET", "s", "v", "EX", "100")
	if err := db.Set("s", "w"); err != nil {
		t.Fatal(err)
	}
	if got := d.do(t, "TTL", "s"); got.Int != -1 {
		t.Errorf("TTL after a direct Set = %v, want -1 as after SET", got)
	}
	d.do(t, "EXPIRE", "h", "100")
	db.HSet("h", "g", "w")
	if got := d.do(t, "TTL", "h"); got.Int <= 0 {
		t.Errorf("TTL after a direct HSet = %v, want the hash's own, as after HSET", got)
	}
	db.HSet("s", "f", "v")
	if got := db.Type("s"); got != "hash" {
		t.Errorf("a direct HSet over a string made a %q: it no longer replaces it, and hsetCommand's check can go", got)
	}
	d.do(t, "SET", "str", "x")
	for _, key := range []string{"missing", "str"} {
		if got := db.HGet(key, "f"); got != "" {
			t.Errorf("HGet(%q) = %q, want \"\" (hget reads an empty answer again as a command)", key, got)
		}
	}
	if !db.Exists("str") || db.Type("str") != "string" || !db.Del("str") || db.Exists("str") {
		t.Error("Exists, Type or Del does not act as its command")
	}
}

// TestSeamTheCommandTableSaysWhatIsRegisteredAndReadOnly: the engine asks
// miniredis's server which commands it has and which are read-only, once
// per name (commands.go), for unknown-command errors and read-only
// scripts.
func TestSeamTheCommandTableSaysWhatIsRegisteredAndReadOnly(t *testing.T) {
	d := newDispatcher(t)
	for _, tc := range []struct {
		name            string
		known, readOnly bool
	}{
		{"GET", true, true}, {"ZRANGE", true, true}, {"SET", true, false}, {"ZADD", true, false}, {"NOPE", false, false},
	} {
		if got := d.srv.IsRegisteredCommand(tc.name); got != tc.known {
			t.Errorf("IsRegisteredCommand(%s) = %v, want %v", tc.name, got, tc.known)
		}
		if got := d.srv.IsReadOnlyCommand(tc.name); got != tc.readOnly {
			t.Errorf("IsReadOnlyCommand(%s) = %v, want %v", tc.name, got, tc.readOnly)
		}
	}
}

// hooked makes sure luavm.go has found gopher-lua's private fields (Ready
// does it once per process), for a test of them that makes no engine.
func hooked(t *testing.T) {
	t.Helper()
	if err := Ready(); err != nil {
		t.Fatalf("Ready: %v", err)
	}
}

// countingContext counts gopher-lua's calls of Done.
type countingContext struct {
	context.Context
	n int
}

func (c *countingContext) Done() <-chan struct{} { c.n++; return nil }

// TestSeamGopherLuaAsksTheContextBeforeEveryInstruction: gopher-lua calls
// its state's context's Done once before every VM instruction. The work
// budget counts instructions so (budget.Done): a second call per
// instruction, or one every few, would change every verdict.
func TestSeamGopherLuaAsksTheContextBeforeEveryInstruction(t *testing.T) {
	count := func(n string) int {
		L := glua.NewState()
		defer L.Close()
		c := &countingContext{Context: context.Background()}
		L.SetContext(c)
		if err := L.DoString("local x = 0 for i = 1, " + n + " do x = x + 1 end"); err != nil {
			t.Fatal(err)
		}
		return c.n
	}
	// Each turn of the loop is two instructions: ADD and FORLOOP.
	if got := count("2000") - count("1000"); got != 2000 {
		t.Errorf("1,000 more turns of a two-instruction loop made %d more calls of Done, want 2000", got)
	}
}

// TestSeamGopherLuaCallFrameFields: luavm.go reads gopher-lua's private
// call frame (LState.currentFrame: Idx, Fn, Pc, LocalBase) and registers
// (LState.reg: array, top) through offsets found by reflection. From inside
// a Go function they must read what gopher-lua's own API says.
func TestSeamGopherLuaCallFrameFields(t *testing.T) {
	hooked(t)
	L := glua.NewState()
	defer L.Close()
	var depths []int
	var probe *glua.LFunction
	probe = L.NewFunction(func(L *glua.LState) int {
		fn, _ := frame(L)
		if fn != probe {
			t.Errorf("frame gave %v, not the running function", fn)
		}
		if regs := registers(L); regs[0] != L.Get(1) || regs[1] != L.Get(2) {
			t.Errorf("registers gave %v %v, want the arguments %v %v", regs[0], regs[1], L.Get(1), L.Get(2))
		}
		setRegister(L, 1, glua.LString("set"))
		if L.Get(2) != glua.LString("set") {
			t.Errorf("setRegister(1) did not write the second argument: %v", L.Get(2))
		}
		depths = append(depths, callDepth(L))
		return 0
	})
	L.SetGlobal("probe", probe)
	if err := L.DoString("probe(1, 2) local function f() probe(3, 4) end f()"); err != nil {
		t.Fatal(err)
	}
	if len(depths) != 2 || depths[1] != depths[0]+1 {
		t.Errorf("callDepth gave %v, want one more a call deeper", depths)
	}
}

// TestSeamGopherLuaPcWalksTheCode: callFrame.Pc, read by frame, is one
// past the instruction the VM is running, in every frame: an opcode
// wrapper (luavm.go) takes pc-1 as the running instruction, and Lua 5.1's
// names for a bad operand ("local 'a'", "field 'f'") come
// from reading the code up to it. Off by one, the names would be another
// instruction's.
func TestSeamGopherLuaPcWalksTheCode(t *testing.T) {
	e := MustNew()
	for _, tc := range []struct{ src, want string }{
		{"local a\nlocal b = 1\nreturn b + a", "local 'a'"},
		{"local t = {}\nreturn t.f + 1", "field 'f'"},
		{"return 1 + redis.nope", "field 'nope'"},
		{"local a, b = 1\nlocal c = a + 1\nreturn c .. b", "local 'b'"},
	} {
		src := tc.src
		r, _ := e.Do("EVAL", src, "0")
		if !strings.Contains(r.Str, tc.want) {
			t.Errorf("%q: %s, want it to name %s", src, r, tc.want)
		}
	}
}

// TestSeamGopherLuaErrorFuncFlag: catchMark writes LState.hasErrorFunc,
// the flag gopher-lua's PCall sets while an error function is in place
// (which keeps a raised error from closing every upvalue).
func TestSeamGopherLuaErrorFuncFlag(t *testing.T) {
	hooked(t)
	L := glua.NewState()
	defer L.Close()
	if catchMark(L, false) {
		t.Error("hasErrorFunc is set before any PCall")
	}
	var inside bool
	fn := L.NewFunction(func(L *glua.LState) int {
		inside = catchMark(L, true)
		return 0
	})
	handler := L.NewFunction(func(L *glua.LState) int { return 1 })
	L.Push(fn)
	if err := L.PCall(0, 0, handler); err != nil {
		t.Fatal(err)
	}
	if !inside {
		t.Error("inside a PCall with an error function, catchMark read false: it is not the field PCall sets")
	}
}

// TestSeamGopherLuaOpenUpvalues: closeUpvaluesFrom walks gopher-lua's list
// of open upvalues (LState.uvcache, Upvalue.next and .index), as Lua 5.1
// closes those of the frames a caught error unwound. Closing a local's
// upvalue cuts the closure off from the local's later values.
func TestSeamGopherLuaOpenUpvalues(t *testing.T) {
	hooked(t)
	L := glua.NewState()
	defer L.Close()
	L.SetGlobal("close", L.NewFunction(func(L *glua.LState) int {
		closeUpvaluesFrom(L, 0)
		return 0
	}))
	fn, err := L.LoadString("local x = 1 local f = function() return x end close() x = 2 return f()")
	if err != nil {
		t.Fatal(err)
	}
	L.Push(fn)
	if err := L.PCall(0, 1, nil); err != nil {
		t.Fatal(err)
	}
	if got := L.Get(-1); got != glua.LNumber(1) {
		t.Errorf("the closure read %v after its upvalue was closed at 1, want 1", got)
	}
}

// TestSeamGopherLuaBytecode: argtables.go and noArgTable read gopher-lua's
// compiled code: an instruction's opcode in its top 6 bits, A, B, C and Bx
// where argA/argB/argC and the Bx mask take them; KEYS[1] compiled as
// GETGLOBAL then GETTABLE over the same register; a main chunk flagged
// vararg with VarArgNeedsArg.
func TestSeamGopherLuaBytecode(t *testing.T) {
	chunk, err := parse.Parse(strings.NewReader("return KEYS[1]"), "seam")
	if err != nil {
		t.Fatal(err)
	}
	proto, err := glua.Compile(chunk, "seam")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for pc, inst := range proto.Code {
		if int(inst>>26) != glua.OP_GETGLOBAL {
			continue
		}
		if name, _ := proto.Constants[int(inst&0x3ffff)].(glua.LString); name == "KEYS" && pc+1 < len(proto.Code) {
			next := proto.Code[pc+1]
			found = int(next>>26) == glua.OP_GETTABLE && argA(next) == argA(inst) && argB(next) == argA(inst)
		}
	}
	if !found {
		t.Errorf("KEYS[1] did not compile to GETGLOBAL KEYS, GETTABLE over its register:\n%v", proto.Code)
	}
	if proto.IsVarArg&glua.VarArgNeedsArg == 0 {
		t.Error("a main chunk is no longer flagged VarArgNeedsArg: noArgTable has nothing to clear")
	}
}
