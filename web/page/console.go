package page

import (
	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/sdsargs"
)

// Console is the view of the redis-cli console: a prompt on the shared
// keyspace, with replies printed as redis-cli prints them.
type Console struct {
	// Prompt is what the transcript shows in front of every command, as
	// redis-cli shows its host and port.
	Prompt string
	// HistoryMax is how many lines ↑ can recall; a permalink keeps fewer.
	HistoryMax int
	// Examples are commands the lede suggests, written for the page's queue.
	Examples []string
	// LibraryLine is the console line the lede's Load button runs:
	// FUNCTION LOAD REPLACE of the course's scripts as one library
	// (lua.Library), quoted as redis-cli reads a line (sdsargs.Quote), and LibraryCall an
	// FCALL of it for the page's queue.
	LibraryLine string
	LibraryCall string
	// Lua and Server are where a learner at this console can meet an
	// answer Redis 7.0 would not give: in a script's Lua (the known
	// differences of FIDELITY.md, in plain words), and in the server and
	// console around it.
	Lua    []Difference
	Server []Difference
	// Runaway is the one server difference a script in the editor meets:
	// how a script that never ends is stopped.
	Runaway []Difference
}

// Difference is one way the console's answers differ from Redis 7.0's.
type Difference struct {
	Topic string // a few words: where it shows
	Text  string // what the learner sees, and what Redis would say
}

// libraryName is the library the console's Load button loads.
const libraryName = emqlua.LibraryName

// DefaultConsole is the console as build.sh renders it. The Lua list
// follows the "known difference" rows of FIDELITY.md, one entry per row;
// when the fidelity suite's known list changes, change this one with it.
func DefaultConsole() Console {
	return Console{
		Prompt:      "redis>",
		HistoryMax:  100,
		Examples:    []string{"ZRANGE " + PendingKey("q") + " 0 -1", "HGETALL " + keyOf("q", "job:JOB-000001")},
		LibraryLine: "FUNCTION LOAD REPLACE " + sdsargs.Quote(emqlua.Library()),
		LibraryCall: "FCALL claim 2 " + PendingKey("q") + " " + ActiveKey("q") + " " + keyOf("q", "job:") + " 30000",
		Lua:         luaDifferences,
		Server:      serverDifferences,
		Runaway:     serverDifferences[:1],
	}
}

// luaDifferences are FIDELITY.md's known differences: the engine runs
// scripts on gopher-lua, not on the Lua 5.1 inside Redis.
var luaDifferences = []Difference{
	{"A missing argument", "When a Lua library function is called with too few arguments, the error says 'got nil' where Redis says 'got no value'."},
	{"Method calls", "An argument error in a method call such as s:rep() counts s as argument #1, so the number in the message is one higher than in Redis."},
	{"Errors inside pcall or table.sort", "An error raised by a function that pcall or table.sort called gets the script's user_script:N: position in front; Redis adds none there."},
	{"-(0/0)", "Negating a NaN prints -nan where Redis prints nan."},
	{"-0.0 in a script", "Once a script writes -0.0 anywhere, Redis's Lua makes 1/0 in that script -inf; here it stays inf."},
	{"#t of a table with holes", "When a table has a nil inside it (table.insert past the end leaves one), #t can name another of its borders than Redis's Lua does, and table.remove and unpack follow it."},
	{"pairs over number keys", "pairs over a table with number keys past its array part (t[10] = x in a short list) can visit them in another order than Redis."},
	{"The last digit of exp and pow", "math.exp, math.pow and ^ can round the last bit of a result otherwise than Redis's C library, which a printed number can show in its 14th digit."},
	{"% of two constants", "A % written between two numbers (2^63 % 988.185) is worked out before the script runs with another formula than Redis's, which differs for large numbers; % of values the script computes is Redis's."},
}

// serverDifferences are what the console meets around the scripts: the
// in-memory server under the page, and the console itself.
var serverDifferences = []Difference{
	{"Runaway scripts", "A script that has done 1.5 billion steps of work (a Lua instruction is one, and its commands and library calls count in the same steps, so the verdict is the same on every machine; about what a real Redis does in its 5 s, and a minute or more of the engine's time in a browser) is stopped with the error SCRIPT KILL gives, and so is one still running after 10 minutes on a machine too busy to get that far, even after it has written (Redis would refuse SCRIPT KILL then, and only SHUTDOWN NOSAVE would stop it). One that comes to hold 64 MiB more memory than it started with is stopped with an error that says so, and no single string may pass 32 MiB; Redis sets neither limit. What a script these limits stopped wrote stays. Sooner than any of them, Stop (on a page with an engine of its own, not in embeds that share one) ends the script you are running: the engine restarts and your earlier commands run again, so the keys are as they were before that script, and nothing it wrote is kept."},
	{"Server commands", "The server under the page answers the data commands as Redis 7.0 does, and CONFIG, INFO, CLIENT and RESET too, with some limits. CONFIG GET and SET know Redis 7.0's parameters and check values as it does, but only the encodings' limits (HyperLogLogs, hashes, sets, streams) and maxmemory change what the server does; the others are kept and read back. Past maxmemory, commands that would use more memory are refused with Redis's OOM error, as under its default policy; the memory counted is an idle server's 1 MB, not your keys, and no policy evicts keys. INFO has Redis 7.0's sections and fields, with the playground's own counts and stand-in values for the process and the machine. CLIENT lists and names the playground's own connections. COMMAND COUNT, LIST and GETKEYS answer as Redis does; COMMAND INFO answers from the underlying store's own table, in the six fields of Redis 6 rather than Redis 7.0's ten, and its flags can differ; GETKEYSANDFLAGS is missing. ACL, LATENCY and MODULE are missing."},
	{"EXPIRE", "A time to live more than 292 years ahead is accepted, as Redis accepts it, but kept as 292 years, so TTL and EXPIRETIME read less than Redis would."},
	{"SETRANGE", "No string may pass 32 MiB, the memory a tab can spare a script, so a SETRANGE past that is refused with an error that says so; Redis builds strings up to 512 MB."},
	{"Argument caps", "SETBIT may not make a string longer than 32 MiB either, and a negative count to SRANDMEMBER, HRANDFIELD or ZRANDMEMBER may ask for at most 100,000 elements. Redis would set the bit, or build the reply however long, until memory ran out; here both answer an error that names the cap."},
	{"GEO STOREDIST", "GEORADIUS ... STOREDIST keeps each distance with all 17 digits, and the last of them can differ from Redis's, whose C library rounds the last bit of a sine or cosine otherwise than Go's. Distances in replies are printed with 4 decimals, where this never shows."},
	{"LCS", "LCS compares two strings of up to about 2,000 bytes each: past that its table would take more memory than a tab can spare, and it answers the error Redis gives when it cannot allocate one. Redis allows a table up to 512 MB."},
	{"BITFIELD", "Like SETRANGE, a BITFIELD write may not make a string longer than 32 MiB; Redis grows strings up to 512 MB."},
	{"OBJECT ENCODING", "It answers as Redis 7.0 decides from sizes (listpack, skiplist, hashtable, intset, embstr, int, raw). Redis never turns an encoding back and makes a string raw after APPEND or SETRANGE; the playground follows that history for sorted sets only, and answers a string, hash or set from what it holds now, so a short HyperLogLog written with SET or RESTORE says raw where Redis says embstr."},
	{"DUMP", "DUMP and RESTORE use Redis 7.0's payloads for strings, lists, sets, hashes, sorted sets and streams, so a payload copied from a real Redis 7.0 restores here and the other way round."},
	{"CLUSTER KEYSLOT", "It answers the key's hash slot, as a node of a Redis Cluster does: emq:{q}:pending is in slot 11958. A plain Redis refuses the command, since its cluster support is disabled."},
	{"Blocking commands", "BLPOP and the like answer at once when there is something to pop or read, as Redis does. When there is not, Redis would wait for another client's write, which cannot come here: with a timeout the console answers at once what Redis answers when it passes, and says the wait was not waited; with timeout 0 (wait for ever) it answers an error that says so."},
	{"Refused commands", "Pub/sub, DEBUG and SHUTDOWN answer an error that says why they cannot work here. (FUNCTION and FCALL work as in Redis 7.0.)"},
	{"The clock", "TIME and expiring keys follow the playground's clock, which starts at 2026-01-01 00:00 UTC and moves only when the round trip's Advance moves it."},
	{"Deep replies", "A reply nested more than 500 levels deep is not shown: the console says so instead. Redis would send it (up to 7,995 levels), but a browser cannot pass one that deep from the engine to the page. The command has run, and what it wrote stays."},
	{"The console itself", "A number in front of a command (3 INCR n) is sent as the command, not taken as a repeat count; help, connect and quit are not the console's; and a RESP3 big number prints as (big number) N, which redis-cli 7.0 cannot print."},
}
