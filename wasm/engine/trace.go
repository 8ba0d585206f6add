package engine

import (
	glua "github.com/yuin/gopher-lua"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/resp"
)

// Trace is a script run recorded move by move: what the page's stepper
// plays back. The page only indexes into Steps; it never recomputes them.
type Trace struct {
	Reply resp.Reply
	Steps []Step
}

// Step is one thing the script did: a redis.call, or a marked move that
// decided something without calling Redis (the @enqueue gate is one).
type Step struct {
	Move     int         // the move's number from its "-- @move N name" marker; 0 outside any move
	Name     string      // the move's name ("gate", "pop"...); empty outside any move
	Line     int         // the script line that made the call, or the first line run in the move
	Command  []string    // the command and its arguments; nil for a move that called nothing
	Reply    *resp.Reply // the command's reply; nil for a move that called nothing
	Write    bool        // the command ran and is a write (what flags=no-writes refuses)
	Keyspace []Entry     // the whole keyspace after this step
}

// Trace runs a script with its keys and argv and records every step. src is
// Lua source; its "-- @move" markers name the steps. The run is the same as
// EVAL's (same runner, same budget, same writes), except that the script is
// not added to the script cache, so a trace leaves SCRIPT EXISTS as it was.
func (e *Engine) Trace(src string, keys, argv []string) Trace {
	e.mu.Lock()
	defer e.mu.Unlock()
	c, errRep := compile(src)
	if c == nil {
		return Trace{Reply: errRep}
	}
	t := &tracer{e: e, script: emqlua.Parse("", src)}
	rep := e.runner.run(c, 0, keys, argv, c.flags.noWrites, t) // traces show database 0
	return Trace{Reply: rep, Steps: t.steps}
}

// tracer follows a running script. tick is called before every VM
// instruction (through the budget), call after every redis.call.
type tracer struct {
	e      *Engine
	script *emqlua.Script
	steps  []Step

	inMove   bool
	move     emqlua.Move
	moveLine int  // first line run in the current move
	called   bool // the current move has recorded a call
}

func (t *tracer) tick(L *glua.LState) {
	line := currentLine(L)
	if line == 0 {
		return
	}
	m, ok := t.script.MoveAt(line)
	if ok && t.inMove && m == t.move {
		return
	}
	if !ok && !t.inMove {
		return
	}
	t.closeMove()
	t.inMove, t.move, t.moveLine, t.called = ok, m, line, false
}

// closeMove records a move that ran without calling Redis.
func (t *tracer) closeMove() {
	if t.inMove && !t.called {
		t.steps = append(t.steps, Step{Move: t.move.N, Name: t.move.Name, Line: t.moveLine, Keyspace: t.e.keyspace()})
	}
	t.inMove = false
}

func (t *tracer) call(L *glua.LState, c scriptCall) {
	line := scriptLine(L)
	s := Step{Line: line, Command: c.args, Write: c.write, Keyspace: t.e.keyspace()}
	rep := c.reply
	s.Reply = &rep
	if m, ok := t.script.MoveAt(line); ok {
		s.Move, s.Name = m.N, m.Name
	}
	if s.Command == nil {
		s.Command = []string{}
	}
	t.steps = append(t.steps, s)
	t.called = true
}

func (t *tracer) finish() { t.closeMove() }

// currentLine is the line of the instruction about to run in the innermost
// Lua frame, or 0 when that frame is not the user's script.
func currentLine(L *glua.LState) int {
	dbg, ok := L.GetStack(0)
	if !ok {
		return 0
	}
	if _, err := L.GetInfo("Sl", dbg, glua.LNil); err != nil || dbg.Source != chunkName {
		return 0
	}
	return dbg.CurrentLine
}

// Entry is one key of the keyspace, as the page draws it. Exactly one of the
// value fields is set, by Type.
type Entry struct {
	Key     string   `json:"key"`
	Type    string   `json:"type"` // string, hash, zset, list, set, stream
	String  string   `json:"string,omitempty"`
	Fields  []Field  `json:"fields,omitempty"`  // hash, in the order HGETALL gives
	Members []Member `json:"members,omitempty"` // zset, by score then member
	Items   []string `json:"items,omitempty"`   // list in order, set sorted
	TTL     int64    `json:"ttl"`               // ms left, or -1 for none
}

// Field is one field of a hash.
type Field struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// Member is one member of a sorted set; Score is printed as Redis 7 prints
// it ("1767225630000", not "1.76722563e+12").
type Member struct {
	Member string `json:"member"`
	Score  string `json:"score"`
}

// Keyspace returns every key of database 0 with its value.
func (e *Engine) Keyspace() []Entry {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.keyspace()
}

// keyspace reads the keyspace through the dispatch path, on a peer of its
// own so that it never disturbs the client's or the script's selected
// database.
func (e *Engine) keyspace() []Entry {
	peer := e.watch
	keys, _ := e.dispatch(peer, []string{"KEYS", "*"}).Strings()
	out := make([]Entry, 0, len(keys))
	for _, k := range keys {
		en := Entry{Key: k, TTL: -1}
		en.Type = e.dispatch(peer, []string{"TYPE", k}).Str
		switch en.Type {
		case "string":
			en.String = e.dispatch(peer, []string{"GET", k}).Str
		case "hash":
			kv, _ := e.dispatch(peer, []string{"HGETALL", k}).Strings()
			for i := 0; i+1 < len(kv); i += 2 {
				en.Fields = append(en.Fields, Field{kv[i], kv[i+1]})
			}
		case "zset":
			kv, _ := e.dispatch(peer, []string{"ZRANGE", k, "0", "-1", "WITHSCORES"}).Strings()
			for i := 0; i+1 < len(kv); i += 2 {
				en.Members = append(en.Members, Member{kv[i], resp.NormalizeScore(kv[i+1])})
			}
		case "list":
			en.Items, _ = e.dispatch(peer, []string{"LRANGE", k, "0", "-1"}).Strings()
		case "set":
			en.Items, _ = e.dispatch(peer, []string{"SMEMBERS", k}).Strings()
		}
		if ttl := e.dispatch(peer, []string{"PTTL", k}); ttl.Kind == resp.Int && ttl.Int >= 0 {
			en.TTL = ttl.Int
		}
		out = append(out, en)
	}
	return out
}
