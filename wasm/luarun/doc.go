// Package luarun is the Lua 5.1 side of the engine's scripting, the part
// that knows gopher-lua and nothing of Redis's keyspace: it compiles a
// chunk as Lua 5.1 would (its verdict on what compiles, its words for what
// does not, its generic for and NaN constants), serves loadstring, and
// words gopher-lua's library errors as Lua 5.1 does.
//
// The engine (wasm/engine) holds the rest of a script's life: the script
// cache, EVAL and SCRIPT, the redis table, the budget a run goes under, the
// catches and the opcode wrappers, and calls in here through a few
// functions (Compile, LoadString, OneLine, Lua51Wording). Every script
// compiles through here once and every error reply is worded here, so the
// package is on the round trip's path and is compiled with inlining (it
// has no line in wasm/gcflags.txt).
package luarun
