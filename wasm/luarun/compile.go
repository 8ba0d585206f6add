// Compiling a chunk, and loadstring, with Lua 5.1's answer on whether it
// compiles and how its error reads.

package luarun

import (
	"errors"
	"fmt"
	"math"
	"strings"

	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/luasyntax"
)

// Compile compiles body as the chunk called name (user_script for a
// script, user_function for a library), or says why it does not compile,
// in Lua 5.1's words.
func Compile(name, body string) (*glua.FunctionProto, string) {
	if err := luasyntax.Check(name, body); err != nil {
		return nil, OneLine(err.Error())
	}
	chunk, err := parse.Parse(strings.NewReader(body), name)
	if err != nil {
		return nil, describeSyntaxError(err, body, name)
	}
	padForLists(chunk)
	proto, err := glua.Compile(chunk, name)
	if err != nil {
		return nil, name + ": " + OneLine(err.Error())
	}
	x86Constants(proto)
	noArgTable(proto)
	return proto, ""
}

// x86Constants gives NaN constants the sign x86 gives them. Lua source has
// no NaN literal, so a NaN constant is gopher-lua's compiler folding 0/0 or
// x % 0, with whatever sign the platform it runs on produced (positive in
// WebAssembly, and always positive from math.Mod). Redis, on x86, prints
// those as -nan.
func x86Constants(p *glua.FunctionProto) {
	for i, k := range p.Constants {
		if n, ok := k.(glua.LNumber); ok && math.IsNaN(float64(n)) {
			p.Constants[i] = glua.LNumber(math.Copysign(math.NaN(), -1))
		}
	}
	for _, child := range p.FunctionPrototypes {
		x86Constants(child)
	}
}

// noArgTable stops gopher-lua from building Lua 5.0's "arg" table each
// time the script's main chunk is called. gopher-lua compiles a chunk as a
// vararg function whose varargs "need" that table (its compatibility mode
// fills one with the extra arguments and an "n" field on every call), but
// it gives the chunk no local to reach it by, so the table only ever sits
// in a register the chunk's own code overwrites before reading. Lua 5.1
// marks a main chunk vararg without that need, so nothing is lost; and a
// table plus its string-keyed part per script run is a cost every EVAL
// paid. Nested functions keep the flag: theirs is a real local ("arg"),
// as in Lua 5.1 with LUA_COMPAT_VARARG.
func noArgTable(p *glua.FunctionProto) {
	p.IsVarArg &^= glua.VarArgNeedsArg
}

// describeSyntaxError words a gopher-lua parse error the way Lua 5.1's
// compiler reports one: "user_script:LINE: MESSAGE near 'TOKEN'".
func describeSyntaxError(err error, src, chunkName string) string {
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return chunkName + ": " + OneLine(err.Error())
	}
	token := pe.Token
	if token == "" || token == "EOF" || pe.Pos.Line == parse.EOF {
		token = "<eof>"
	}
	line := pe.Pos.Line
	if line == parse.EOF || line <= 0 {
		// Lua reports an error at the end of input on the last line.
		line = strings.Count(src, "\n") + 1
	}
	msg := pe.Message
	if msg == "syntax error" || msg == "parse error" {
		msg = "unexpected symbol"
	}
	return fmt.Sprintf("%s:%d: %s near '%s'", chunkName, line, msg, token)
}

// LoadString is Lua 5.1's loadstring(s [, chunkname]): a chunk that does
// not compile gives nil and Lua 5.1's message, with the chunk named as Lua
// names it ([string "first line..."]).
func LoadString(L *glua.LState) int {
	src, ok := lualib.ToString(L.Get(1))
	if !ok {
		got := "no value"
		if L.GetTop() >= 1 {
			got = L.Get(1).Type().String()
		}
		L.RaiseError("bad argument #1 to 'loadstring' (string expected, got %s)", got)
	}
	name := src
	if v, ok := L.Get(2).(glua.LString); ok {
		name = string(v)
	}
	id := chunkID(name)
	fail := func(msg string) int {
		L.Push(glua.LNil)
		L.Push(glua.LString(msg))
		return 2
	}
	if err := luasyntax.Check(id, src); err != nil {
		return fail(err.Error())
	}
	chunk, err := parse.Parse(strings.NewReader(src), id)
	if err != nil {
		return fail(id + ": " + err.Error())
	}
	padForLists(chunk)
	proto, err := glua.Compile(chunk, id)
	if err != nil {
		return fail(id + ": " + err.Error())
	}
	L.Push(L.NewFunctionFromProto(proto))
	return 1
}

// chunkID is Lua 5.1's luaO_chunkid for a chunk loaded from a string: "=x"
// is x, "@file" the file, anything else [string "its first line"], cut to
// fit Lua's 60 bytes with "..." where it was cut.
func chunkID(name string) string {
	const idSize = 60
	if i := strings.IndexByte(name, 0); i >= 0 {
		name = name[:i] // C reads the name up to a NUL
	}
	switch {
	case strings.HasPrefix(name, "="):
		if name = name[1:]; len(name) > idSize-1 {
			name = name[:idSize-1]
		}
		return name
	case strings.HasPrefix(name, "@"):
		name = name[1:]
		if room := idSize - len(" '...' ") - 1; len(name) > room {
			return "..." + name[len(name)-room:]
		}
		return name
	}
	n := strings.IndexAny(name, "\n\r")
	cut := n >= 0
	if !cut {
		n = len(name)
	}
	if room := idSize - len(" [string \"...\"] ") - 1; n > room {
		n, cut = room, true
	}
	if cut {
		return `[string "` + name[:n] + `..."]`
	}
	return `[string "` + name + `"]`
}
