package luasyntax

import "strconv"

// Limits Lua 5.1 enforces while parsing, with the values Redis builds it
// with (luaconf.h's LUAI_MAXCCALLS, LUAI_MAXVARS and LUAI_MAXUPVALUES).
const (
	maxLevels   = 200 // blocks and subexpressions nested in one another
	maxLocals   = 200 // locals of one function in scope at once
	maxUpvalues = 60  // outer locals one function uses
)

// parser reads a chunk by recursive descent over Lua 5.1's grammar. It
// keeps only what decides an error: the tokens, how deep it is, and for
// each open function its locals in scope, its upvalues, whether it takes
// "..." and how many loops enclose the current statement.
type parser struct {
	lx       lexer
	t        token // the current token
	ahead    token // the token after it, once a table field needed to see it
	hasAhead bool
	lastLine int // the line the previous token ended on
	// level counts the blocks and subexpressions being read, one inside
	// the other, as Lua 5.1's C-call counter does.
	level  int
	funcs  []function // open functions, the chunk first
	locals []string   // every open function's locals, in scope or declared for the next activate
}

// function is what the parser tracks of one function being read.
type function struct {
	// line is where Lua 5.1 says it is defined: the line of "function" in
	// a function statement, else that of the token after "function" or
	// after a local function's name (its "(", normally); 0 for the chunk.
	line   int
	vararg bool // its parameters end in "...", as the chunk's do
	base   int  // its first local in parser.locals
	active int  // how many of its locals are in scope
	loops  int  // loops around the statement being read, for break
	// upvals are the outer locals it uses, each by its index in
	// parser.locals, which stays put while the function is open.
	upvals []int
}

// expKind is what a primary expression turned out to be, which is all a
// statement needs to know: a call is a statement, a variable can be
// assigned to, anything else is neither.
type expKind int

const (
	expOther expKind = iota
	expVariable
	expCall
)

// Binary operators' precedence, left and right, as in Lua 5.1: a right
// binding power below the left one makes ".." and "^" right associative.
// Unary operators bind at 8.
type precedence struct{ left, right int }

const unaryPriority = 8

func binary(k tokenKind) (precedence, bool) {
	switch k {
	case '+', '-':
		return precedence{6, 6}, true
	case '*', '/', '%':
		return precedence{7, 7}, true
	case '^':
		return precedence{10, 9}, true
	case tkConcat:
		return precedence{5, 4}, true
	case tkEq, tkNe, '<', tkLe, '>', tkGe:
		return precedence{3, 3}, true
	case tkAnd:
		return precedence{2, 2}, true
	case tkOr:
		return precedence{1, 1}, true
	}
	return precedence{}, false
}

func isUnary(k tokenKind) bool { return k == tkNot || k == '-' || k == '#' }

// blockFollow reports whether k ends a block.
func blockFollow(k tokenKind) bool {
	switch k {
	case tkElse, tkElseif, tkEnd, tkUntil, tkEOS:
		return true
	}
	return false
}

// ---- tokens

func (p *parser) next() {
	p.lastLine = p.lx.line
	if p.hasAhead {
		p.t, p.hasAhead = p.ahead, false
		return
	}
	p.t = p.lx.next()
}

func (p *parser) lookahead() tokenKind {
	p.ahead, p.hasAhead = p.lx.next(), true
	return p.ahead.kind
}

func (p *parser) testNext(k tokenKind) bool {
	if p.t.kind != k {
		return false
	}
	p.next()
	return true
}

func (p *parser) check(k tokenKind) {
	if p.t.kind != k {
		p.fail("'" + k.String() + "' expected")
	}
}

func (p *parser) checkNext(k tokenKind) {
	p.check(k)
	p.next()
}

// checkMatch reads the token that closes what opened at line: "end" for
// "if", ")" for "(". When the opening is on another line than the parser
// is, the message says which opening it was looking to close.
func (p *parser) checkMatch(what, who tokenKind, line int) {
	if p.testNext(what) {
		return
	}
	if line == p.lx.line {
		p.check(what)
	}
	p.fail("'" + what.String() + "' expected (to close '" + who.String() + "' at line " + strconv.Itoa(line) + ")")
}

// name reads a name and returns it.
func (p *parser) name() string {
	p.check(tkName)
	name := p.lx.src[p.t.start:p.t.end]
	p.next()
	return name
}

// ---- errors

// fail raises a syntax error near the current token.
func (p *parser) fail(msg string) {
	e := &Error{Line: p.lx.line, Msg: msg}
	// A NUL byte is token 0, which Lua 5.1 takes for "no token".
	if k := p.t.kind; k != 0 {
		e.Near, e.HasNear = cut(p.text(k)), true
	}
	panic(e)
}

// text is how an error shows the current token: a name, number or string
// by the text of the last one lexed, as Lua 5.1's buffer has it.
func (p *parser) text(k tokenKind) string {
	raw := p.lx.src[p.lx.text.start:p.lx.text.end]
	switch {
	case k == tkName || k == tkNumber:
		return raw
	case k != tkString:
		return k.String()
	case raw[0] == '[':
		return longText(raw)
	}
	return stringText(raw)
}

// failLimit raises the error for a limit function f passed. It has no
// near part.
func failLimit(f *function, line, limit int, what string) {
	msg := "main function has more than "
	if f.line != 0 {
		msg = "function at line " + strconv.Itoa(f.line) + " has more than "
	}
	panic(&Error{Line: line, Msg: msg + strconv.Itoa(limit) + " " + what})
}

func (p *parser) enterLevel() {
	if p.level++; p.level > maxLevels {
		panic(&Error{Line: p.lx.line, Msg: "chunk has too many syntax levels"})
	}
}

func (p *parser) leaveLevel() { p.level-- }

// ---- functions and scopes

func (p *parser) fn() *function { return &p.funcs[len(p.funcs)-1] }

// openFunction starts a function defined at line, reusing the upvalue
// list of an earlier function at the same depth.
func (p *parser) openFunction(line int) {
	n := len(p.funcs)
	var upvals []int
	if n < cap(p.funcs) {
		upvals = p.funcs[:n+1][n].upvals[:0]
	}
	p.funcs = append(p.funcs, function{line: line, base: len(p.locals), upvals: upvals})
}

func (p *parser) closeFunction() {
	p.locals = p.locals[:p.fn().base]
	p.funcs = p.funcs[:len(p.funcs)-1]
}

// newLocal declares a local that comes into scope at the next activate.
// Lua 5.1 counts it against the limit at once, with the function's other
// pending ones.
func (p *parser) newLocal(name string) {
	f := p.fn()
	if len(p.locals)-f.base+1 > maxLocals {
		failLimit(f, p.lx.line, maxLocals, "local variables")
	}
	p.locals = append(p.locals, name)
}

// activate brings the next n declared locals into scope.
func (p *parser) activate(n int) { p.fn().active += n }

// scope is a block's start, to end the locals declared in it.
type scope struct{ active int }

func (p *parser) openScope() scope { return scope{p.fn().active} }

func (p *parser) closeScope(s scope) {
	f := p.fn()
	f.active = s.active
	p.locals = p.locals[:f.base+f.active]
}

// variable resolves a name: a local of the function being read, a local of
// an enclosing function (an upvalue of every function in between, which
// Lua 5.1 counts from the outermost in), or a global.
func (p *parser) variable(name string) {
	for fi := len(p.funcs) - 1; fi >= 0; fi-- {
		f := &p.funcs[fi]
		for i := f.base + f.active - 1; i >= f.base; i-- {
			if p.locals[i] != name {
				continue
			}
			for inner := fi + 1; inner < len(p.funcs); inner++ {
				p.upvalue(inner, i)
			}
			return
		}
	}
}

// upvalue notes that function fi uses the outer local at index local.
func (p *parser) upvalue(fi, local int) {
	f := &p.funcs[fi]
	for _, u := range f.upvals {
		if u == local {
			return
		}
	}
	if len(f.upvals)+1 > maxUpvalues {
		failLimit(f, p.lx.line, maxUpvalues, "upvalues")
	}
	f.upvals = append(f.upvals, local)
}

// ---- statements

// mainChunk reads the whole chunk, a function that takes "...".
func (p *parser) mainChunk() {
	p.openFunction(0)
	p.fn().vararg = true
	p.next()
	p.chunk()
	p.check(tkEOS)
}

// chunk reads statements up to the end of the block. A return or break
// must be the last statement of its block (a ";" may follow it).
func (p *parser) chunk() {
	p.enterLevel()
	for !blockFollow(p.t.kind) {
		last := p.statement()
		p.testNext(';')
		if last {
			break
		}
	}
	p.leaveLevel()
}

func (p *parser) block() {
	s := p.openScope()
	p.chunk()
	p.closeScope(s)
}

// loopBlock reads the body of a loop, where break may appear.
func (p *parser) loopBlock() {
	p.fn().loops++
	p.block()
	p.fn().loops--
}

// statement reads one statement and reports whether it is a return or a
// break.
func (p *parser) statement() (last bool) {
	line := p.lx.line
	switch p.t.kind {
	case tkIf:
		p.ifStat(line)
	case tkWhile:
		p.next()
		p.expr()
		p.checkNext(tkDo)
		p.loopBlock()
		p.checkMatch(tkEnd, tkWhile, line)
	case tkDo:
		p.next()
		p.block()
		p.checkMatch(tkEnd, tkDo, line)
	case tkFor:
		p.forStat(line)
	case tkRepeat:
		p.repeatStat(line)
	case tkFunction:
		p.next()
		p.body(p.funcName(), line)
	case tkLocal:
		p.next()
		if p.testNext(tkFunction) {
			p.localFunction()
		} else {
			p.localStat()
		}
	case tkReturn:
		p.next()
		if !blockFollow(p.t.kind) && p.t.kind != ';' {
			p.exprList()
		}
		return true
	case tkBreak:
		p.next()
		if p.fn().loops == 0 {
			p.fail("no loop to break")
		}
		return true
	default:
		p.exprStat()
	}
	return false
}

// ifStat: if cond then block {elseif cond then block} [else block] end
func (p *parser) ifStat(line int) {
	p.thenBlock()
	for p.t.kind == tkElseif {
		p.thenBlock()
	}
	if p.testNext(tkElse) {
		p.block()
	}
	p.checkMatch(tkEnd, tkIf, line)
}

func (p *parser) thenBlock() {
	p.next() // if or elseif
	p.expr()
	p.checkNext(tkThen)
	p.block()
}

// forStat: for name = exp, exp [, exp] do block end
//
//	| for name {, name} in explist do block end
//
// The loop's hidden control variables are locals too, and count.
func (p *parser) forStat(line int) {
	s := p.openScope()
	p.next()
	name := p.name()
	switch p.t.kind {
	case '=':
		p.newLocal("(for index)")
		p.newLocal("(for limit)")
		p.newLocal("(for step)")
		p.newLocal(name)
		p.next()
		p.expr()
		p.checkNext(',')
		p.expr()
		if p.testNext(',') {
			p.expr()
		}
		p.forBody(1)
	case ',', tkIn:
		p.newLocal("(for generator)")
		p.newLocal("(for state)")
		p.newLocal("(for control)")
		p.newLocal(name)
		n := 1
		for p.testNext(',') {
			p.newLocal(p.name())
			n++
		}
		p.checkNext(tkIn)
		p.exprList()
		p.forBody(n)
	default:
		p.fail("'=' or 'in' expected")
	}
	p.checkMatch(tkEnd, tkFor, line)
	p.closeScope(s)
}

// forBody reads "do block" with the hidden variables in scope, and the
// named ones from "do" on.
func (p *parser) forBody(named int) {
	p.activate(3)
	p.checkNext(tkDo)
	s := p.openScope()
	p.activate(named)
	p.loopBlock()
	p.closeScope(s)
}

// repeatStat: repeat block until cond, where cond sees the block's locals.
func (p *parser) repeatStat(line int) {
	s := p.openScope()
	p.fn().loops++
	p.next()
	p.chunk()
	p.checkMatch(tkUntil, tkRepeat, line)
	p.expr()
	p.fn().loops--
	p.closeScope(s)
}

// funcName: name {. name} [: name]; it reports whether a ":" makes the
// function a method, with self as its first parameter.
func (p *parser) funcName() (method bool) {
	p.variable(p.name())
	for p.t.kind == '.' {
		p.next()
		p.name()
	}
	if p.t.kind == ':' {
		p.next()
		p.name()
		return true
	}
	return false
}

// localFunction: local function name body, where name is in scope in body.
func (p *parser) localFunction() {
	p.newLocal(p.name())
	p.activate(1)
	p.body(false, p.lx.line)
}

// localStat: local name {, name} [= explist], where the names come into
// scope after the expressions.
func (p *parser) localStat() {
	n := 0
	for {
		p.newLocal(p.name())
		n++
		if !p.testNext(',') {
			break
		}
	}
	if p.testNext('=') {
		p.exprList()
	}
	p.activate(n)
}

// exprStat is a call, or an assignment: var {, var} = explist.
func (p *parser) exprStat() {
	kind := p.primaryExp()
	if kind == expCall {
		return
	}
	// Lua 5.1 reads the targets recursively and so bounds their number by
	// the levels left.
	for n := 1; ; n++ {
		if kind != expVariable {
			p.fail("syntax error")
		}
		if !p.testNext(',') {
			break
		}
		kind = p.primaryExp()
		if left := maxLevels - p.level; n > left {
			failLimit(p.fn(), p.lx.line, left, "variables in assignment")
		}
	}
	p.checkNext('=')
	p.exprList()
}

// ---- functions

// body: ( parlist ) block end, for a function defined at line.
func (p *parser) body(method bool, line int) {
	p.openFunction(line)
	p.checkNext('(')
	if method {
		p.newLocal("self")
		p.activate(1)
	}
	p.parList()
	p.checkNext(')')
	p.chunk()
	p.checkMatch(tkEnd, tkFunction, line)
	p.closeFunction()
}

// parList: [name {, name} [, ...] | ...]. With "...", Lua 5.1 (built with
// LUA_COMPAT_VARARG, as in Redis) gives the function a local named arg.
func (p *parser) parList() {
	f := p.fn()
	n := 0
	if p.t.kind != ')' {
		for {
			switch p.t.kind {
			case tkName:
				p.newLocal(p.name())
			case tkDots:
				p.next()
				p.newLocal("arg")
				f.vararg = true
			default:
				p.fail("<name> or '...' expected")
			}
			n++
			if f.vararg || !p.testNext(',') {
				break
			}
		}
	}
	p.activate(n)
}

// ---- expressions

func (p *parser) exprList() {
	p.expr()
	for p.testNext(',') {
		p.expr()
	}
}

func (p *parser) expr() { p.subExpr(0) }

// subExpr reads an expression whose binary operators bind tighter than
// limit: an operand, then each operator that binds tighter with its right
// operand, which is read with the operator's right binding power.
func (p *parser) subExpr(limit int) {
	p.enterLevel()
	if isUnary(p.t.kind) {
		p.next()
		p.subExpr(unaryPriority)
	} else {
		p.simpleExp()
	}
	for {
		op, ok := binary(p.t.kind)
		if !ok || op.left <= limit {
			break
		}
		p.next()
		p.subExpr(op.right)
	}
	p.leaveLevel()
}

// simpleExp: number | string | nil | true | false | ... | constructor |
// function body | primaryexp
func (p *parser) simpleExp() {
	switch p.t.kind {
	case tkNumber, tkString, tkNil, tkTrue, tkFalse:
		p.next()
	case tkDots:
		if !p.fn().vararg {
			p.fail("cannot use '...' outside a vararg function")
		}
		p.next()
	case '{':
		p.constructor()
	case tkFunction:
		p.next()
		p.body(false, p.lx.line)
	default:
		p.primaryExp()
	}
}

// primaryExp: (name | ( expr )) { .name | [expr] | :name args | args }
func (p *parser) primaryExp() expKind {
	var kind expKind
	switch p.t.kind {
	case '(':
		line := p.lx.line
		p.next()
		p.expr()
		p.checkMatch(')', '(', line)
		kind = expOther // a value now, not a variable or a call
	case tkName:
		p.variable(p.name())
		kind = expVariable
	default:
		p.fail("unexpected symbol")
	}
	for {
		switch p.t.kind {
		case '.':
			p.next()
			p.name()
			kind = expVariable
		case '[':
			p.next()
			p.expr()
			p.checkNext(']')
			kind = expVariable
		case ':':
			p.next()
			p.name()
			p.callArgs()
			kind = expCall
		case '(', tkString, '{':
			p.callArgs()
			kind = expCall
		default:
			return kind
		}
	}
}

// callArgs: ( [explist] ) | constructor | string. A "(" on a later line
// than the token before it could start a new statement instead, which
// Lua 5.1 refuses to guess.
func (p *parser) callArgs() {
	line := p.lx.line
	switch p.t.kind {
	case '(':
		if line != p.lastLine {
			p.fail("ambiguous syntax (function call x new statement)")
		}
		p.next()
		if p.t.kind != ')' {
			p.exprList()
		}
		p.checkMatch(')', '(', line)
	case '{':
		p.constructor()
	case tkString:
		p.next()
	default:
		p.fail("function arguments expected")
	}
}

// constructor: { [field {sep field} [sep]] }, sep being "," or ";".
func (p *parser) constructor() {
	line := p.lx.line
	p.checkNext('{')
	for p.t.kind != '}' {
		switch p.t.kind {
		case tkName:
			// name = exp, or an expression that starts with a name.
			if p.lookahead() == '=' {
				p.next()
				p.next()
				p.expr()
			} else {
				p.expr()
			}
		case '[':
			p.next()
			p.expr()
			p.checkNext(']')
			p.checkNext('=')
			p.expr()
		default:
			p.expr()
		}
		if !p.testNext(',') && !p.testNext(';') {
			break
		}
	}
	p.checkMatch('}', '{', line)
}
