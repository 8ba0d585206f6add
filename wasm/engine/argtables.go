package engine

import glua "github.com/yuin/gopher-lua"

// argTablesStayPut reports whether a script, by its bytecode, can only read
// an element or the length of KEYS and ARGV, and never hold either table
// as a value: then no run can keep one to compare with the next run's, and
// the engine may hand the script the same two tables, refilled, run after
// run, where Redis 7.0 makes new ones (see run).
//
// Each read of the global KEYS or ARGV must be followed at once by an
// index or a length whose result overwrites the register the table was
// read into (what the compiler emits for KEYS[1] and #ARGV), so the table
// is in a register for one instruction only. And the script must not name
// a global that leads to the globals table or to new code that could read
// KEYS otherwise (_G, loadstring, load; getfenv and setfenv are gone, but
// a script naming them is refused all the same). Nested functions count.
func argTablesStayPut(p *glua.FunctionProto) bool {
	for pc, inst := range p.Code {
		if int(inst>>26) != glua.OP_GETGLOBAL {
			continue
		}
		name, _ := p.Constants[int(inst&0x3ffff)].(glua.LString)
		switch name {
		case "_G", "loadstring", "load", "getfenv", "setfenv":
			return false
		case "KEYS", "ARGV":
			if pc+1 >= len(p.Code) {
				return false
			}
			next, a := p.Code[pc+1], argA(inst)
			op := int(next >> 26)
			if op != glua.OP_GETTABLE && op != glua.OP_LEN || argA(next) != a || argB(next) != a {
				return false
			}
		}
	}
	for _, child := range p.FunctionPrototypes {
		if !argTablesStayPut(child) {
			return false
		}
	}
	return true
}
