package engine

import (
	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/rdb"
)

// The Lua gate (luagate.go) for functions. A library's code runs when it is
// loaded (FUNCTION LOAD, and FUNCTION RESTORE for each library of its
// payload), sandboxed but Lua all the same, and its functions run at FCALL:
// the review names the library's code at each, and under the guard a
// library runs, at load or at FCALL, only if its code's SHA1 is allowed.

// functionUses is Uses for FUNCTION and FCALL: the code of each library a
// load would run, and the library of a function an FCALL would run when the
// engine holds it (one the reviewed commands load was named at its load).
// It reads more than runs: a load the engine would refuse for a reason
// found later (a library that exists) is named all the same.
func (v *ScriptReview) functionUses(c *command, args []string) []ScriptUse {
	use := func(cmd, code string) ScriptUse {
		return ScriptUse{Command: cmd, SHA: emqlua.SHA1Hex(code), Source: code, Runs: true}
	}
	if c.lua == luaFcall {
		if len(args) < 3 || v.fnsFlushed {
			return nil
		}
		v.e.mu.Lock()
		f := v.e.runner.funcs.fns[ascii.Lower(args[1])]
		v.e.mu.Unlock()
		if f == nil {
			return nil
		}
		return []ScriptUse{use(c.upper, f.lib.code)}
	}
	if len(args) < 2 {
		return nil
	}
	switch sub := ascii.Upper(args[1]); {
	case sub == "FLUSH":
		v.fnsFlushed = true
	case sub == "LOAD" && len(args) >= 3:
		if code := args[len(args)-1]; loadsAsLua(code) {
			return []ScriptUse{use("FUNCTION LOAD", code)}
		}
	case sub == "RESTORE" && len(args) >= 3:
		codes, err := rdb.LoadFunctions(args[2])
		if err != nil {
			return nil
		}
		var uses []ScriptUse
		for _, code := range codes {
			if loadsAsLua(code) {
				uses = append(uses, use("FUNCTION RESTORE", code))
			}
		}
		return uses
	}
	return nil
}

// loadsAsLua reports whether code passes the checks a load makes before it
// runs any of it: its first line names Lua and a library.
func loadsAsLua(code string) bool {
	engine, name, _, msg := libraryMeta(code)
	return msg == "" && validName(name) && ascii.EqualFold(engine, "lua")
}

// refusedLibrary is the error a load under the guard answers for a
// library whose code is not allowed (without "ERR "), or "".
func (r *runner) refusedLibrary(code string) string {
	if r.allow == nil {
		return ""
	}
	if sha := emqlua.SHA1Hex(code); !r.allow[sha] {
		return errScriptRefused[len("ERR "):] + " (script " + sha + ")"
	}
	return ""
}
