package engine

import (
	"crypto/sha1"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	glua "github.com/yuin/gopher-lua"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// TraceEnds is how many members of each end of a key's value a traced step
// shows, as the page's bounded snapshot does (25 + 25, "and 9,950 more"):
// a step costs the same at any depth, and the page never draws more.
const TraceEnds = 25

// TraceKeys is the most keys a trace follows. A script that writes more
// (a loop over ten thousand keys) is still run whole; its steps show the
// first TraceKeys keys it named.
const TraceKeys = 64

// Trace is a script run recorded move by move: what the page's stepper
// plays back. The page only indexes into it; it never recomputes what the
// engine already knows (the keyspace before, the moves, why it failed).
type Trace struct {
	Reply resp.Reply
	// Keys are the keys the run touched, in the order the page shows
	// them: KEYS as given, then every other key a command named that
	// existed before or after it, by name. Every Entry below is one of
	// these; a key that does not exist has no Entry.
	Keys []string
	// Before is Keys as they were just before the run: step 0.
	Before []Entry
	Steps  []Step
	// Moves are the script's "-- @move N name" markers, as lua/ reads them.
	Moves []emqlua.Move
	// Problem says why the script did not return, or is nil when it did
	// (an error the script returns with redis.error_reply is a reply).
	Problem *Problem
	// Stamps are Stamp of each of Keys just after the run, for the page
	// to ask later whether a key it shows has changed since (Changed).
	Stamps map[string]string
	// Undefined is what the reply depends on that Redis leaves open, as
	// Client.LastUndefined says it for a command.
	Undefined Undefined
}

// Problem is why a script did not return: it did not compile ("syntax"),
// raised an error ("runtime"), or was stopped by the time or memory
// budget ("killed"). Line is the script line Redis names; Code is the
// error's first word (ERR, WRONGTYPE, EMQKIND...); Message is the error
// without Redis's "script: <sha>, on @user_script:N." suffix, and Detail
// a compile error's own words after its position.
type Problem struct {
	Kind    string `json:"kind"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Detail  string `json:"detail"`
	Line    int    `json:"line"`
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
	Keyspace []Entry     // the trace's Keys after this step, bounded (see TraceEnds)
}

// Trace runs a script with its keys and argv and records every step. src is
// Lua source; its "-- @move" markers name the steps. The run is EVAL's
// (same runner, same budget, same writes, and the script is cached as EVAL
// caches it, so the next EVALSHA finds it); only database 0 is shown.
func (e *Engine) Trace(src string, keys, argv []string) Trace {
	e.mu.Lock()
	defer e.mu.Unlock()
	script := emqlua.Parse("", src)
	c, errRep := e.runner.load(src)
	if c == nil {
		return Trace{Reply: errRep, Keys: []string{}, Before: []Entry{}, Steps: []Step{}, Moves: script.Moves,
			Problem: compileProblem(errRep), Stamps: map[string]string{}}
	}
	t := &tracer{e: e, script: script, at: map[string]int{}}
	for _, k := range keys {
		t.follow(k, true)
	}
	t.nKeys = len(t.keys)
	e.undefined = 0
	rep := e.runner.run(c, 0, keys, argv, c.flags.noWrites, t) // traces show database 0
	t.closeMove()
	out := Trace{Reply: rep, Moves: script.Moves, Steps: t.steps, Problem: e.runner.problem(c, rep), Undefined: e.undefined}
	if out.Steps == nil {
		out.Steps = []Step{}
	}
	out.Keys, out.Before = t.order()
	// A key first named at step k was untouched until then: every earlier
	// step shows it as it was before the run.
	for i := range out.Steps {
		out.Steps[i].Keyspace = t.complete(i, out.Keys, out.Steps[i].Keyspace)
	}
	out.Stamps = make(map[string]string, len(out.Keys))
	for _, k := range out.Keys {
		out.Stamps[k] = e.stamp(k)
	}
	return out
}

// tracer follows a running script. tick is called before every VM
// instruction (through the budget), beforeCall and call around every
// redis.call.
type tracer struct {
	e      *Engine
	script *emqlua.Script
	steps  []Step

	keys   []string       // the keys followed: KEYS first, then in the order met
	nKeys  int            // how many of keys are the script's KEYS
	at     map[string]int // index into keys
	before []*Entry       // each followed key before the run (nil: it did not exist)
	cur    []*Entry       // each followed key as last read (nil: it does not exist)
	since  []int          // the first step that read each followed key

	inMove   bool
	move     emqlua.Move
	moveLine int  // first line run in the current move
	called   bool // the current move has recorded a call
}

// follow starts following key, reading it as it is now: before the first
// command that names it, so as it was before the run (a command writes
// only the keys it names; FLUSHDB, FLUSHALL and SWAPDB aside). A key a
// command names is followed only when it exists; KEYS always are.
func (t *tracer) follow(key string, always bool) {
	if _, ok := t.at[key]; ok || len(t.keys) >= TraceKeys {
		return
	}
	en, ok := t.e.entry(key)
	if !ok && !always {
		return
	}
	var b *Entry
	if ok {
		b = &en
	}
	t.add(key, b)
}

func (t *tracer) add(key string, before *Entry) {
	t.at[key] = len(t.keys)
	t.keys = append(t.keys, key)
	t.before = append(t.before, before)
	t.cur = append(t.cur, before)
	t.since = append(t.since, len(t.steps))
}

// candidates are the arguments of a command that may name a key: every
// one but the name. Reading a name that is no key costs one lookup.
func candidates(args []string) []string {
	if len(args) < 2 {
		return nil
	}
	return args[1:]
}

// beforeCall runs just before a script's command is dispatched.
func (t *tracer) beforeCall(args []string) {
	for _, a := range candidates(args) {
		t.follow(a, false)
	}
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
		t.steps = append(t.steps, Step{Move: t.move.N, Name: t.move.Name, Line: t.moveLine, Keyspace: t.read(nil)})
	}
	t.inMove = false
}

func (t *tracer) call(L *glua.LState, c scriptCall) {
	line := scriptLine(L, chunkName)
	// A key the command created (SET of a new name) is followed from now:
	// before it, it did not exist.
	for _, a := range candidates(c.args) {
		if _, ok := t.at[a]; !ok && len(t.keys) < TraceKeys {
			if _, exists := t.e.entry(a); exists {
				t.add(a, nil)
			}
		}
	}
	s := Step{Line: line, Command: c.args, Write: c.write, Keyspace: t.read(c.args)}
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

// read is the followed keys as they are after a command (args; nil for
// a move that called none), bounded. A command writes only the keys it
// names, so only those are read again; FLUSHDB, FLUSHALL and SWAPDB name
// none and may change any, so after them every key is. At depth this
// halves the reads of a big pending set.
func (t *tracer) read(args []string) []Entry {
	all := false
	if len(args) > 0 {
		switch ascii.Upper(args[0]) {
		case "FLUSHDB", "FLUSHALL", "SWAPDB":
			all = true
		}
	}
	for _, a := range candidates(args) {
		if i, ok := t.at[a]; ok {
			t.refresh(i)
		}
	}
	out := make([]Entry, 0, len(t.keys))
	for i := range t.keys {
		if all {
			t.refresh(i)
		}
		if en := t.cur[i]; en != nil {
			out = append(out, *en)
		}
	}
	return out
}

func (t *tracer) refresh(i int) {
	if en, ok := t.e.entry(t.keys[i]); ok {
		t.cur[i] = &en
	} else {
		t.cur[i] = nil
	}
}

// order is the followed keys in the page's order (KEYS as given, the rest
// by name) and those of them that existed before the run.
func (t *tracer) order() ([]string, []Entry) {
	keys := slices.Clone(t.keys)
	slices.Sort(keys[t.nKeys:])
	before := []Entry{}
	for _, k := range keys {
		if b := t.before[t.at[k]]; b != nil {
			before = append(before, *b)
		}
	}
	return keys, before
}

// complete puts step i's entries in the order of keys, and adds each key
// met only after step i as it was before the run: until a command named
// it, nothing in the run had written it.
func (t *tracer) complete(i int, keys []string, entries []Entry) []Entry {
	by := make(map[string]Entry, len(entries))
	for _, en := range entries {
		by[en.Key] = en
	}
	out := make([]Entry, 0, len(keys))
	for _, k := range keys {
		j := t.at[k]
		if i < t.since[j] {
			if b := t.before[j]; b != nil {
				out = append(out, *b)
			}
		} else if en, ok := by[k]; ok {
			out = append(out, en)
		}
	}
	return out
}

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
	// Count is how many fields, members or items the key holds in all;
	// Gap, where a bounded entry left some out (see TraceEnds).
	Count int  `json:"count"`
	Gap   *Gap `json:"gap,omitempty"`
}

// Gap is what a bounded entry left out: Count elements, which belong
// between its At-th and its next, as in the page's bounded snapshot.
type Gap struct {
	At    int `json:"at"`
	Count int `json:"count"`
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

// Keyspace returns every key of database 0 with its whole value.
func (e *Engine) Keyspace() []Entry {
	e.mu.Lock()
	defer e.mu.Unlock()
	keys, _ := e.dispatch(e.watch, e.lookup("KEYS"), []string{"KEYS", "*"}).Strings()
	out := make([]Entry, 0, len(keys))
	for _, k := range keys {
		if en, ok := e.read(k, 0); ok {
			out = append(out, en)
		}
	}
	return out
}

// Entries are keys of database 0 as a traced step shows them: each that
// exists, in the order given, bounded (see TraceEnds). The script editor
// draws the KEYS it will run with from them before any run.
func (e *Engine) Entries(keys []string) []Entry {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Entry, 0, len(keys))
	for _, k := range keys {
		if en, ok := e.entry(k); ok {
			out = append(out, en)
		}
	}
	return out
}

// entry is one key of database 0 as a traced step shows it: at most
// TraceEnds elements of each end of its value. ok is false when the key
// does not exist.
func (e *Engine) entry(key string) (Entry, bool) { return e.read(key, TraceEnds) }

// read reads one key through the dispatch path, on a peer of its own so
// that it never disturbs the client's or the script's selected database.
// With ends > 0, a value longer than twice ends keeps only its ends.
func (e *Engine) read(k string, ends int) (Entry, bool) {
	peer := e.watch
	do := func(args ...string) resp.Reply { return e.dispatch(peer, e.lookup(args[0]), args) }
	en := Entry{Key: k, TTL: -1}
	en.Type = do("TYPE", k).Str
	// ranged reads the head and tail of an ordered value of n elements.
	ranged := func(n int, cmd string, extra ...string) []string {
		en.Count = n
		if ends <= 0 || n <= 2*ends {
			all, _ := do(append([]string{cmd, k, "0", "-1"}, extra...)...).Strings()
			return all
		}
		head, _ := do(append([]string{cmd, k, "0", strconv.Itoa(ends - 1)}, extra...)...).Strings()
		tail, _ := do(append([]string{cmd, k, strconv.Itoa(-ends), "-1"}, extra...)...).Strings()
		en.Gap = &Gap{At: ends, Count: n - 2*ends}
		return append(head, tail...)
	}
	// cut keeps the ends of a value read whole, per element of width w.
	cut := func(all []string, w int) []string {
		n := len(all) / w
		en.Count = n
		if ends <= 0 || n <= 2*ends {
			return all
		}
		en.Gap = &Gap{At: ends, Count: n - 2*ends}
		return append(all[:ends*w:ends*w], all[len(all)-ends*w:]...)
	}
	switch en.Type {
	case "none":
		return Entry{}, false
	case "string":
		en.String = do("GET", k).Str
		en.Count = 1
	case "hash":
		kv, _ := do("HGETALL", k).Strings()
		kv = cut(kv, 2)
		for i := 0; i+1 < len(kv); i += 2 {
			en.Fields = append(en.Fields, Field{kv[i], kv[i+1]})
		}
	case "zset":
		kv := ranged(int(do("ZCARD", k).Int), "ZRANGE", "WITHSCORES")
		for i := 0; i+1 < len(kv); i += 2 {
			en.Members = append(en.Members, Member{kv[i], resp.NormalizeScore(kv[i+1])})
		}
	case "list":
		en.Items = ranged(int(do("LLEN", k).Int), "LRANGE")
	case "set":
		all, _ := do("SMEMBERS", k).Strings()
		slices.Sort(all)
		en.Items = cut(all, 1)
	case "stream":
		en.Count = int(do("XLEN", k).Int)
	}
	if ttl := do("PTTL", k); ttl.Kind == resp.Int && ttl.Int >= 0 {
		en.TTL = ttl.Int
	}
	return en, true
}

// stamp is a digest of one key of database 0 that changes exactly when
// its type, its value or its expiry deadline does: "" for a key that does
// not exist. A TTL running down keeps the stamp; the key expiring changes
// it. It digests WATCH's fingerprint (multi.go): "was this key written"
// is one question, answered one way for EXEC and for the page. The page
// keeps the stamps of the keys it shows and asks Changed later, instead
// of comparing snapshots.
func (e *Engine) stamp(k string) string {
	f := e.fingerprint(dbKey{0, k})
	if f == "" {
		return ""
	}
	sum := sha1.Sum([]byte(f))
	return hex.EncodeToString(sum[:8])
}

// Stamps are the stamps of keys now (see stamp).
func (e *Engine) Stamps(keys []string) map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = e.stamp(k)
	}
	return out
}

// Changed names the keys whose stamp is no longer the one given, in the
// order of their names: the keys that were written since the stamps were
// taken (by any client, a script, expiry, FLUSH*, RENAME...), as far as
// their value shows. A write that leaves a key as it was (ZADD of the
// score it has) changes nothing the page could show, and is not counted.
func (e *Engine) Changed(stamps map[string]string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []string{}
	for k, s := range stamps {
		if e.stamp(k) != s {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// problem is why a traced run did not return, read from what the runner
// knows: the budget stopped it, or it raised an error on errLine. An
// error reply the script returned itself is no problem.
func (r *runner) problem(c *compiled, rep resp.Reply) *Problem {
	if !rep.IsError() || !r.threw {
		return nil
	}
	p := &Problem{Kind: "runtime", Code: rep.Code(), Line: r.errLine}
	p.Message = strings.TrimSuffix(rep.Str, " script: "+c.sha+", on @"+chunkName+":"+strconv.Itoa(r.errLine)+".")
	if r.budget.expired {
		p.Kind = "killed"
	}
	return p
}

// compileProblem is a script that did not compile: its line and the
// compiler's words, from the message compile builds.
func compileProblem(rep resp.Reply) *Problem {
	p := &Problem{Kind: "syntax", Code: rep.Code(), Message: rep.Str}
	rest, ok := strings.CutPrefix(rep.Str, "ERR Error compiling script (new function): "+chunkName+":")
	if !ok {
		return p
	}
	if n, detail, ok := strings.Cut(rest, ":"); ok {
		if line, err := strconv.Atoi(n); err == nil {
			p.Line, p.Detail = line, strings.TrimSpace(detail)
		}
	}
	return p
}
