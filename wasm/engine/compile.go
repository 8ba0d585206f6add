// Compiling: a script, a library's chunk, or loadstring's, into a
// gopher-lua function, with Lua 5.1's answer on whether it compiles.

package engine

import (
	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/luarun"
	"echomq.dev/playground/wasm/resp"
)

// compile turns a script into a function, as EVAL and SCRIPT LOAD do.
// Whether it compiles, and how an error reads, is Lua 5.1's answer from
// luasyntax: gopher-lua's parser takes chunks Lua 5.1 refuses (goto and
// labels, empty statements) and words its errors otherwise. gopher-lua's
// own messages remain only for a chunk luasyntax passes and gopher-lua
// still cannot compile (a hexadecimal number with a "p" exponent, a NUL
// that Lua 5.1 reads as part of a token).
func compile(src string) (*compiled, resp.Reply) {
	flags, body, errRep := parseShebang(src)
	if errRep != nil {
		return nil, *errRep
	}
	proto, msg := luarun.Compile(chunkName, body)
	if proto == nil {
		return nil, resp.ErrorReply("ERR Error compiling script (new function): " + msg)
	}
	return &compiled{sha: emqlua.SHA1Hex(src), src: src, flags: flags, proto: proto, argsStayPut: argTablesStayPut(proto)}, resp.Reply{}
}
