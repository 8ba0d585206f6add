// Package redisdiff holds the playground to its promise, the replies real
// Redis 7.0 would give: it runs the same commands on the in-memory engine
// and on a real redis-server, and compares what a client can see, the
// replies (their RESP types and bytes) and then the whole keyspace.
//
// The real side is a Server: a redis-server started for the test, or,
// where none can run (under js/wasm, or without the binary outside CI),
// the replies such a server gave when the test was last run with -update,
// read back from the package's testdata. So every comparison also runs
// without a server, and the recording can not go stale unseen: a run
// that sends a command the recording does not hold fails and says to
// record again.
//
// The suites built on it: wasm/fidelity (every case of FIDELITY.md),
// wasm/emq (the handles, differentially) and wasm/lualib (the Lua
// libraries' snippets).
package redisdiff
