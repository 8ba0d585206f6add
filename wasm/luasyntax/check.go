// Package luasyntax tells whether Lua 5.1 would compile a chunk and, if
// not, words the first error exactly as Lua 5.1's parser does.
//
// Redis 7.0 compiles scripts with Lua 5.1; the playground runs them with
// gopher-lua, whose parser is another grammar (it knows goto and empty
// statements from Lua 5.2) with other messages. A learner's syntax error is
// the commonest error there is, so the playground asks this package first
// and answers what Redis would.
//
// The package only checks: it builds no code. It follows the grammar of
// the Lua 5.1 reference manual and the limits Lua 5.1 enforces while
// parsing (nesting depth, locals, upvalues, variables in one assignment),
// with each message, line and "near" text as redis-server 7.0 gives them;
// the differential test holds it to a real redis-server. What it leaves
// out is what only code generation finds: a function or expression that
// needs more than 250 registers, more than 2^18 constants, or a jump too
// long for its instruction.
package luasyntax

import "strconv"

// Error is the first error Lua 5.1 finds compiling a chunk.
type Error struct {
	Chunk string // the chunk name given to Check, "user_script" in Redis
	Line  int    // the line the lexer was on, as Lua 5.1 reports it
	Msg   string // "'=' expected", "unfinished string", ...
	// Near is the token the parser was at (or the lexer was reading), as
	// Lua 5.1 shows it: a name, number or string as written (a string with
	// its escapes decoded, up to any NUL), any other token by its symbol,
	// "<eof>" at the end. HasNear is false for messages without one: the
	// limits, and an error at a NUL byte.
	Near    string
	HasNear bool
}

// Error is the message as lua_load returns it: "chunk:line: msg near 'x'".
func (e *Error) Error() string {
	s := e.Chunk + ":" + strconv.Itoa(e.Line) + ": " + e.Msg
	if e.HasNear {
		s += " near '" + e.Near + "'"
	}
	return s
}

// Check reports the first error Lua 5.1 would find compiling src as a
// chunk named chunk, or nil if Lua 5.1 compiles it (up to the code
// generation limits named in the package comment). It does not run
// anything, so a chunk that loops forever is checked as any other.
func Check(chunk, src string) (err *Error) {
	p := parser{lx: lexer{src: src, line: 1}, lastLine: 1}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			e.Chunk = chunk
			err = e
		}
	}()
	p.mainChunk()
	return nil
}
