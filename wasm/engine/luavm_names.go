// Naming the culprit (see luavm.go): which local, global, field or
// constant a bad operand came from, as Lua 5.1's error messages name it.

package engine

import (
	"fmt"

	glua "github.com/yuin/gopher-lua"
)

// describe words a bad operand as Lua 5.1's error messages do: "local 'a'
// (a nil value)", "global 'x' (a nil value)", "field '?' (a nil value)",
// or just "a nil value" when the register has no name. reg < 0 means the
// value is not in a register (a constant or a temporary).
func describe(fn *glua.LFunction, pc, reg int, v glua.LValue) string {
	kind, name := "", ""
	if reg >= 0 && reg&bitRK == 0 && fn != nil && !fn.IsG {
		kind, name = objectName(fn.Proto, pc, reg)
	}
	if kind == "" {
		return fmt.Sprintf("a %s value", v.Type())
	}
	return fmt.Sprintf("%s '%s' (a %s value)", kind, name, v.Type())
}

// objectName is Lua 5.1's getobjname for gopher-lua's bytecode: a register
// is a local when a local variable is active in it at pc; otherwise the
// instruction that last wrote it says what it held.
func objectName(p *glua.FunctionProto, pc, reg int) (kind, name string) {
	if name, ok := localName(p, reg+1, pc); ok {
		return "local", name
	}
	last := lastWriter(p, pc, reg)
	if last < 0 {
		return "", ""
	}
	inst := p.Code[last]
	switch int(inst >> 26) {
	case glua.OP_GETGLOBAL:
		if s, ok := p.Constants[int(inst&0x3ffff)].(glua.LString); ok {
			return "global", string(s)
		}
	case glua.OP_MOVE:
		if b := argB(inst); b < argA(inst) {
			return objectName(p, last, b)
		}
	case glua.OP_GETTABLE, glua.OP_GETTABLEKS:
		return "field", constantName(p, argC(inst))
	case glua.OP_GETUPVAL:
		if b := argB(inst); b < len(p.DbgUpvalues) {
			return "upvalue", p.DbgUpvalues[b]
		}
	case glua.OP_SELF:
		return "method", constantName(p, argC(inst))
	}
	return "", ""
}

func localName(p *glua.FunctionProto, regno, pc int) (string, bool) {
	for _, l := range p.DbgLocals {
		if l.StartPc > pc {
			break
		}
		if pc < l.EndPc {
			regno--
			if regno == 0 {
				return l.Name, true
			}
		}
	}
	return "", false
}

// constantName is the key of a table access when it is a constant string,
// and "?" otherwise, as Lua 5.1 prints it.
func constantName(p *glua.FunctionProto, c int) string {
	if c&bitRK != 0 {
		if s, ok := p.Constants[c&^bitRK].(glua.LString); ok {
			return string(s)
		}
	}
	return "?"
}

// lastWriter finds the instruction before pc that last stored into reg,
// reading the code in order as Lua 5.1's symbolic execution does for
// straight-line code. It returns -1 when none did.
func lastWriter(p *glua.FunctionProto, pc, reg int) int {
	last := -1
	for i := 0; i < pc && i < len(p.Code); i++ {
		inst := p.Code[i]
		a := argA(inst)
		switch int(inst >> 26) {
		case glua.OP_MOVE, glua.OP_LOADK, glua.OP_LOADBOOL, glua.OP_GETUPVAL, glua.OP_GETGLOBAL,
			glua.OP_GETTABLE, glua.OP_GETTABLEKS, glua.OP_NEWTABLE, glua.OP_ADD, glua.OP_SUB,
			glua.OP_MUL, glua.OP_DIV, glua.OP_MOD, glua.OP_POW, glua.OP_UNM, glua.OP_NOT,
			glua.OP_LEN, glua.OP_CONCAT, glua.OP_CLOSURE:
			if a == reg {
				last = i
			}
		case glua.OP_LOADNIL:
			if reg >= a && reg <= argB(inst) {
				last = i
			}
		case glua.OP_SELF:
			if a == reg || a+1 == reg {
				last = i
			}
		case glua.OP_CALL, glua.OP_VARARG, glua.OP_TFORLOOP:
			if reg >= a {
				last = i
			}
		}
	}
	return last
}
