// Package fidelity holds the differential suite that holds the playground to
// its promise: the in-memory engine answers as Redis 7.0 does.
//
// The package has no code of its own; its tests start a real redis-server,
// run the same commands and EVALs on it and on the engine, and compare the
// replies (type and bytes, RESP2 and RESP3) and then the keyspace, with
// internal/redisdiff. The run writes its findings to FIDELITY.md at the
// root of the repository, and redis-server's replies to testdata:
//
//	go test ./wasm/fidelity -run TestFidelity -update
//
// Without -update the test fails when the committed FIDELITY.md is not what
// the run produced, so the document never goes stale. Where no redis-server
// can run (js/wasm, or -replay), the same tests compare the engine with the
// recorded replies, and FIDELITY.md must come out the same. See FIDELITY.md for
// what is compared and how, and the known differences.
package fidelity
