package fidelity

// FIDELITY.md, written from a run. Everything in it must come out the same
// from one run to the next, since the test compares it with the committed
// file: no timings, no addresses, no clocks.

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/internal/suite"
	"echomq.dev/playground/wasm/engine"
)

type docInput struct {
	redisVersion  string
	engineVersion string
	resp3         bool
	results       []result
	random        *randomResult
	// suite is the committed record of Redis's own test suite run
	// against the engine (internal/suite), whose section it renders as
	// it is: the suite takes minutes, and its record is what its last
	// run found.
	suite *suite.Record
}

const notSupported = "not supported by the engine yet"

func renderDoc(in docInput) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }

	p("# Fidelity: the playground's engine next to Redis %s\n\n", in.redisVersion)
	p("The playground promises that a script run in the browser gets the replies a real Redis 7.0 would give.\n")
	p("This file is what the differential suite in `wasm/fidelity` found when it last checked that promise,\n")
	p("case by case. It is written by the suite:\n\n")
	p("    go test ./wasm/fidelity -run TestFidelity -update\n\n")
	p("Do not edit it by hand: `go test ./wasm/fidelity` fails when this file is not what a run finds.\n\n")

	p("## What was compared\n\n")
	p("- **Redis**: `redis-server` %s (`redis_version` from `INFO`), started by the test on 127.0.0.1 with its\n", in.redisVersion)
	p("  default configuration, except `busy-reply-threshold 1000` (see runaway scripts below).\n")
	p("- **The engine**: `wasm/engine` (%s), driven in-process.\n", engineParts())
	p("  Its scripts see `redis.REDIS_VERSION` = `%s`.\n", in.engineVersion)
	p("- **Each case** starts from nothing on both sides: `FLUSHALL` and `SCRIPT FLUSH` on the server, a new engine.\n")
	p("  Its commands are sent in order, on a fresh connection to each. The transaction cases (`tx/...`) also use a second\n")
	p("  connection to each, for another client's writes, and let time pass: the server sleeps, the engine's clock is moved on\n")
	p("  by as much.\n")
	p("- **Replies** are compared as a client reads them: the RESP type of the reply and of every element nested in it\n")
	p("  (simple string, error, integer, bulk string, array, null; under RESP3 also map, set, double, boolean, big\n")
	p("  number, verbatim string), and the exact bytes of every string, error, status and integer.\n")
	p("- **Then the keyspace**: in each of the 16 databases, `KEYS *`, and for each key its `TYPE`, its value (`GET`,\n")
	p("  `HGETALL`, `LRANGE`, `SMEMBERS`, `ZRANGE ... WITHSCORES`, `XRANGE`) and its `PTTL`.\n")
	if in.resp3 {
		p("- **RESP2 and RESP3**: every case runs on a RESP2 connection, then again on a fresh connection and a new\n")
		p("  engine that were both sent `HELLO 3` first.\n")
	} else {
		p("- **RESP2 and RESP3**: every case runs on a RESP2 connection. The engine does not answer `HELLO 3` with a\n")
		p("  map yet, so nothing is compared under RESP3 and the RESP3 column says \"%s\".\n", notSupported)
	}
	p("\n")

	p("## Results\n\n")
	p("%d cases, and the randomized run.", len(in.results))
	for _, pr := range []proto{resp2, resp3} {
		if pr == resp3 && !in.resp3 {
			break
		}
		counts := map[string]int{}
		for _, r := range in.results {
			counts[status(r, pr)]++
		}
		p(" Under %v: %d match, %d are known differences", pr, counts["match"], counts["known difference"])
		if n := len(in.results) - counts["match"] - counts["known difference"]; n > 0 {
			p(", %d differ and are not explained (the test fails)", n)
		}
		p(".")
	}
	p("\n\n")
	p("**match**: every reply, and then the keyspace, were the same on both, byte for byte. **known difference**: the\n")
	p("engine answers otherwise somewhere in the case, for the reason given; the section after the table shows the\n")
	p("first place where it parts from Redis.\n\n")
	p("| Case | What it checks | RESP2 | RESP3 | Why it differs |\n")
	p("|---|---|---|---|---|\n")
	for _, r := range in.results {
		why := ""
		if status(r, resp2) != "match" || in.resp3 && status(r, resp3) != "match" {
			why = reasonFor(r.c.id, resp3)
			if why == "" {
				why = "not explained"
			}
		}
		p("| `%s` | %s | %s | %s | %s |\n", r.c.id, cell(r.c.desc), status(r, resp2), status(r, resp3), cell(why))
	}
	if rnd := in.random; rnd != nil {
		st2, st3 := "match", "match"
		if rnd.failed != "" {
			st2, st3 = "**differs**", "**differs**"
		}
		if !rnd.resp3 {
			st3 = notSupported
		}
		p("| `%s` | %s | %s | %s | %s |\n", randomID,
			cell(fmt.Sprintf("%d operations of the queue scripts with hostile input, compared after each (see below)", rnd.ops)),
			st2, st3, cell(clipText(rnd.failed, 300)))
	}
	p("\n")

	if in.suite != nil {
		p("%s", in.suite.Markdown())
	}

	p("## Known differences, in detail\n\n")
	p("For each, the first place the replies part, as the test saw it. A known difference is still run: when the\n")
	p("engine is fixed, the test fails until the entry is taken out of `known` in `wasm/fidelity/known_test.go`.\n\n")
	any := false
	for _, r := range in.results {
		o2, o3 := r.out[resp2], r.out[resp3]
		differs := func(o *outcome) bool { return o != nil && o.ran && len(o.diffs) > 0 }
		for _, pr := range []proto{resp2, resp3} {
			o := r.out[pr]
			if !differs(o) {
				continue
			}
			protos := pr.String()
			if pr == resp2 && differs(o3) && sameFirst(o2, o3) {
				protos = "RESP2 and RESP3"
			} else if pr == resp3 && differs(o2) && sameFirst(o2, o3) {
				continue // shown with RESP2
			}
			any = true
			p("### `%s` (%s)\n\n", r.c.id, protos)
			if why := reasonFor(r.c.id, pr); why != "" {
				p("%s\n\n", plain(why))
			}
			if o.cmd == nil {
				p("- Keyspace: %s\n", code(clipText(o.eng, 400)))
			} else {
				p("- Sent: %s\n", code(clipText(redisdiff.ShowCommand(o.cmd), 300)))
				p("- Engine: %s\n", code(clipText(o.eng, 400)))
				p("- Redis: %s\n", code(clipText(o.real, 400)))
			}
			if len(o.diffs) > 1 {
				p("- More commands of this case differ: `go test ./wasm/fidelity -run 'TestFidelity/%s' -v` lists them.\n", r.c.id)
			}
			p("\n")
		}
	}
	if !any {
		p("None.\n\n")
	}

	p("## What Redis leaves undefined, and how it is compared\n\n")
	p("- **Hash order.** Redis 7.0 keeps a small hash as a listpack, in insertion order, which `HGETALL`, `HKEYS`,\n")
	p("  `HVALS` and `HSCAN` follow: the suite compares that order exactly. A hash with more than %d fields, or with a\n", redisdiff.ListpackEntries)
	p("  field or value longer than %d bytes (`hash-max-listpack-entries` and `hash-max-listpack-value`), becomes a\n", redisdiff.ListpackValue)
	p("  hash table for good, whose order depends on a hash seed chosen at random when the server starts. For those\n")
	p("  the suite asks the server (`OBJECT ENCODING`) and compares the fields and values as a set of pairs.\n")
	p("- **Sets, `KEYS` and `SCAN`.** Redis does not define the order of `SMEMBERS`, `SINTER`, `SUNION`, `SDIFF`,\n")
	p("  `KEYS` or the keys a `SCAN` returns: they are compared as sets. `SCAN`'s cursor is compared as it is.\n")
	p("- **Sorted sets** have a defined order (score, then member bytes) and are compared in it.\n")
	p("- **The clock.** The engine's clock stands still unless it is moved; the real server's runs. Each case sets\n")
	p("  the engine's clock to the server's `TIME` when it starts. A remaining TTL (`PTTL`) must be -1 or -2 on both,\n")
	p("  or positive on both and at most %d ms apart. The cases never compare `TIME` itself. In the randomized run,\n", redisdiff.PTTLSlack)
	p("  lease deadlines are checked against the clock (see below).\n")
	p("- **`math.random`.** Redis's generator is one per server process: it is never reseeded on its own, not even by\n")
	p("  `SCRIPT FLUSH`, so an unseeded draw depends on every script the process ran before. The `libs/math-random`\n")
	p("  case runs on a server started for it alone, where the unseeded draws are defined and compared exactly;\n")
	p("  after `math.randomseed` the draws are defined anywhere.\n")
	p("- **Runaway scripts.** On the real server the script is sent on one connection, and `SCRIPT KILL` on a second\n")
	p("  one %.1f s later, once the server is past `busy-reply-threshold` and hears other clients again. The engine\n", killAfter.Seconds())
	p("  cannot be interrupted from outside (in a browser tab nothing runs beside the script), so it stops the script\n")
	p("  itself once it has done its work budget (%.1f billion steps; this suite's engines use 25 million, see\n", float64(engine.WorkBudget)/1e9)
	p("  workbudget_test.go), and replies as `SCRIPT KILL` would. The error\n")
	p("  names the line the script was on; the suite's loops sit on one line each, so that line is the same whenever\n")
	p("  the kill lands.\n")
	p("- **Lua's table order** (`pairs`, `next`, and so `cjson.encode` of a table with string keys) is not defined by\n")
	p("  the language, but is fixed for Redis's Lua 5.1, and the suite compares it exactly where a case meets it. The\n")
	p("  engine's `pairs` and `cjson` rebuild Lua 5.1's order from a table's keys (`wasm/lualib/order.go`): the same\n")
	p("  order for a table filled by assignment, string keys and an array, which the cases and the randomized Lua\n")
	p("  programs check; not always for number keys past the array part (`tables/pairs-mixed`), nor for `next` called\n")
	p("  by hand, which keeps gopher-lua's insertion order (no case depends on it). The editor says so beside a script\n")
	p("  that calls `pairs` or `next`.\n")
	p("- **Call depth.** Lua 5.1 grows its list of calls by doubling: the first stack overflow in a server's life comes\n")
	p("  16,384 calls deep, every later one at 20,000, where the engine always stops. The cases compare a recursion\n")
	p("  10,000 deep and one without end, not the depth itself. Calls made from C (`pcall`, a `gsub` or `sort`\n")
	p("  function) nest at most 200 deep on both, and that depth is compared.\n")
	p("- **Never sent.** `error()` with a table that has no string `err` field (`error({})`, `error({1, 2})`) crashes\n")
	p("  `redis-server` 7.0.15 with a segmentation fault, so the suite does not send it; there is no reply to match.\n")
	p("\n")

	if rnd := in.random; rnd != nil {
		p("## The randomized run\n\n")
		p("%d operations from seed %d (`go test ./wasm/fidelity -run 'TestFidelity/%s' -seed=N -ops=N` runs\n", rnd.ops, rnd.seed, randomID)
		p("others), each sent to both servers by `EVAL` or `EVALSHA` (falling back to `EVAL` on `NOSCRIPT`, as a client\n")
		p("does), on three queues, one of them with non-UTF-8 bytes in its name, each over a RESP2 or, at random, a RESP3\n")
		p("connection (when the engine speaks RESP3). After every operation the replies are\n")
		p("compared, then the whole keyspace; every %d operations both keyspaces start over (the script caches stay).\n", flushEvery)
		p("The input is hostile on purpose:\n\n")
		p("- leases in e-notation and other spellings: `1e3`, `0x10`, `' 5'`, `'5 '`, `+5`, `05`, `5.0`, `-0`, `inf`,\n")
		p("  `nan`, 16 digits, the empty string, and more; all must be refused before the first write;\n")
		p("- good leases from 1 ms to 15 digits;\n")
		p("- ids with NUL, 0xff and bytes that are not UTF-8, UTF-8 ids, ids with and without the `JOB` prefix,\n")
		p("  and ids seen before (duplicates, on the same queue or another);\n")
		p("- payloads from empty to 1 MiB (the large ones sparingly);\n")
		p("- now and then a script called with its last argument missing, and `SCRIPT FLUSH`.\n\n")
		p("`@claim` reads the server clock. Before each claim the run reads the real server's `TIME` (t0) and sets the\n")
		p("engine's clock to it, and reads `TIME` again after the claim (t1). The engine's deadline must be exactly\n")
		p("t0 + lease; the real one must lie in [t0 + lease, t1 + lease]. Once both are checked, the real deadline is\n")
		p("replaced by the engine's before the keyspaces are compared.\n\n")
		if rnd.failed != "" {
			p("**The last run differed:** %s\n\n", code(clipText(rnd.failed, 600)))
		} else {
			p("The last run matched at every operation. What the operations came to:\n\n")
			var names []string
			for k := range rnd.counts {
				names = append(names, k)
			}
			sort.Strings(names)
			p("| Operation and reply | Count |\n|---|---|\n")
			for _, k := range names {
				p("| %s | %d |\n", cell(k), rnd.counts[k])
			}
			p("\n")
		}
	}
	return b.String()
}

// sameFirst reports whether two outcomes part at the same place in the
// same way.
func sameFirst(a, b *outcome) bool {
	same := func(x, y string) bool { return clipText(x, 400) == clipText(y, 400) }
	return redisdiff.ShowCommand(a.cmd) == redisdiff.ShowCommand(b.cmd) && same(a.eng, b.eng) && same(a.real, b.real)
}

func status(r result, p proto) string {
	o := r.out[p]
	switch {
	case o == nil || !o.ran:
		if p == resp3 {
			return notSupported
		}
		return "not run"
	case len(o.diffs) == 0:
		return "match"
	case reasonFor(r.c.id, p) != "":
		return "known difference"
	}
	return "**differs**"
}

// engineParts names the engine's moving parts with the versions go.mod
// pins.
func engineParts() string {
	mod, _ := os.ReadFile("../../go.mod")
	version := func(path string) string {
		for line := range strings.Lines(string(mod)) {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == path {
				return " " + f[1]
			}
		}
		return ""
	}
	return "miniredis" + version("github.com/alicebob/miniredis/v2") + " under the playground's own script runner on gopher-lua" +
		version("github.com/yuin/gopher-lua")
}

// plain makes text safe as Markdown prose: <sha> and '<eof>' are not tags.
func plain(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "\n", " ").Replace(s)
}

// cell makes text safe for a table cell.
func cell(s string) string {
	return strings.ReplaceAll(plain(s), "|", "\\|")
}

// code puts s in a code span, safe for a list item or a table.
func code(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	return fence + pad + s + pad + fence
}

// addresses are what Lua prints for a table or a function: they change
// from run to run, so the document shows them elided.
var addresses = regexp.MustCompile(`(table|function|userdata|thread): 0x[0-9a-f]+`)

// clipText cuts s to about n bytes, on a character boundary, with any
// address elided.
func clipText(s string, n int) string {
	s = addresses.ReplaceAllString(s, "$1: 0x…")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
