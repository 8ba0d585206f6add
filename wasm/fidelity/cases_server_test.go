package fidelity

import "strconv"

// Cases for the server commands (wasm/engine/config.go, info.go,
// clientcmds.go, dbrange.go, commandintro.go). A case that changes the
// configuration puts it back at its end: the real server is shared.

// configRestore puts back what the config cases change.
var configRestore = []string{"CONFIG", "SET", "maxmemory", "0", "hz", "10", "maxmemory-policy", "noeviction",
	"hll-sparse-max-bytes", "3000", "save", "", "notify-keyspace-events", "", "activerehashing", "yes",
	"busy-reply-threshold", "1000", "hash-max-listpack-entries", "512", "maxmemory-clients", "0",
	"hash-max-listpack-value", "64", "set-max-intset-entries", "512",
	"stream-node-max-entries", "100", "stream-node-max-bytes", "4096"}

// hashOf is HSET of key with n fields, f0 ... f<n-1>.
func hashOf(key string, n int) []string {
	cmd := []string{"HSET", key}
	for i := range n {
		cmd = append(cmd, "f"+strconv.Itoa(i), "v")
	}
	return cmd
}

func serverCases() []fcase {
	return []fcase{
		{id: "server/maxmemory", desc: "Past maxmemory (CONFIG SET maxmemory 1, under Redis's idle 1 MB): denyoom commands, FUNCTION LOAD, a flagged script and MULTI's queue are refused with OOM, reads run, a legacy script stops at its first write, allow-oom and no-writes run, maxmemory 0 lifts it",
			cmds: [][]string{
				{"SET", "x", "123"}, {"FUNCTION", "FLUSH"},
				{"FUNCTION", "LOAD", "#!lua name=oomlib\nredis.register_function('w', function() return redis.call('set','x','1') end)\n" +
					"redis.register_function{function_name='ro', callback=function() return 'hello' end, flags={'no-writes'}}\n" +
					"redis.register_function{function_name='oom', callback=function() return redis.call('set','x','2') end, flags={'allow-oom'}}"},
				{"CONFIG", "SET", "maxmemory", "1"},
				{"SET", "x", "1"}, {"GET", "x"}, {"LPUSH", "l", "a"}, {"INCR", "n"}, {"EXISTS", "x"},
				{"FUNCTION", "LOAD", "#!lua name=other\nredis.register_function('f', function() return 1 end)"},
				evalKeys("redis.call('set','x',1) return 1", []string{"x"}),
				evalKeys("return redis.call('get','x')", []string{"x"}),
				evalKeys("redis.call('get','x') return redis.pcall('set','x',9)", []string{"x"}),
				evalKeys("#!lua flags=\nreturn 1", []string{"x"}),
				evalKeys("#!lua\nreturn 1", []string{"x"}),
				evalKeys("#!lua flags=allow-oom\nredis.call('set','x',3) return 1", []string{"x"}),
				evalKeys("#!lua flags=no-writes\nreturn redis.call('get','x')", []string{"x"}),
				{"EVAL_RO", "#!lua flags=no-writes\nreturn redis.call('get','x')", "1", "x"},
				{"FCALL", "w", "1", "x"}, {"FCALL", "ro", "1", "x"}, {"FCALL_RO", "ro", "1", "x"}, {"FCALL", "oom", "1", "x"}, {"FCALL", "nosuch", "0"},
				{"MULTI"}, {"GET", "x"}, {"EXEC"},
				{"DEL", "x"}, {"CONFIG", "SET", "maxmemory", "0"}, {"SET", "x", "after"}, {"GET", "x"}, {"FUNCTION", "FLUSH"},
			}},
		{id: "server/config-get", desc: "CONFIG GET of one parameter, of several at once, of a pattern, ignoring case, an alias beside its name, and of none: Redis 7.0's defaults with nothing persisted",
			cmds: [][]string{
				{"CONFIG", "GET", "maxmemory"}, {"CONFIG", "GET", "maxmemory-policy"}, {"CONFIG", "GET", "hll-sparse-max-bytes"},
				{"CONFIG", "GET", "list-max-listpack-size"}, {"CONFIG", "GET", "set-max-intset-entries"}, {"CONFIG", "GET", "zset-max-listpack-entries"},
				{"CONFIG", "GET", "proto-max-bulk-len"}, {"CONFIG", "GET", "appendonly"},
				{"CONFIG", "GET", "save"}, {"CONFIG", "GET", "databases"}, {"CONFIG", "GET", "maxmemory", "hz", "timeout"},
				{"CONFIG", "GET", "maxmemory*"}, {"CONFIG", "GET", "HASH-MAX-*"}, {"CONFIG", "GET", "HZ"}, {"CONFIG", "GET", "hz", "HZ", "h?"},
				{"CONFIG", "GET", "hash-max-ziplist-entries", "hash-max-listpack-entries"}, {"CONFIG", "GET", "nope"}, {"CONFIG", "GET", "*lazyfree*"},
				{"CONFIG", "GET"},
			}},
		{id: "server/config-set", desc: "CONFIG SET of several pairs is all or nothing, and its errors: an unknown name, an immutable or protected one, a name given twice, a bad value, an odd count",
			cmds: [][]string{
				{"CONFIG", "SET", "maxmemory", "1gb", "hz", "20"}, {"CONFIG", "GET", "maxmemory", "hz"},
				{"CONFIG", "SET", "maxmemory", "5", "maxmemory-policy", "bad"}, {"CONFIG", "GET", "maxmemory"},
				{"CONFIG", "SET", "foo", "bar"}, {"CONFIG", "SET", "hz", "10", "foo", "1"}, {"CONFIG", "SET", "daemonize", "yes"},
				{"CONFIG", "SET", "databases", "20"}, {"CONFIG", "SET", "dir", "/tmp"}, {"CONFIG", "SET", "hz", "10", "hz", "11"},
				{"CONFIG", "SET", "hz", "10", "HZ", "11"}, {"CONFIG", "SET", "hz", "12", "hz"}, {"CONFIG", "SET", "maxmemory"},
				{"CONFIG", "SET", "hash-max-ziplist-entries", "5", "hash-max-listpack-entries", "6"}, {"CONFIG", "GET", "hash-max-*"},
				{"CONFIG", "SET", "lua-time-limit", "100"}, {"CONFIG", "GET", "busy-reply-threshold"},
				{"CONFIG", "SET", "MaxMemory-Policy", "ALLKEYS-LRU"}, {"CONFIG", "GET", "maxmemory-policy"},
				configRestore,
			}},
		{id: "server/config-values", desc: "CONFIG SET reads each kind of value as Redis 7.0 does: yes/no, an enumeration, integers in a range, memory with units, a percentage, save's pairs, keyspace events",
			cmds: [][]string{
				{"CONFIG", "SET", "activerehashing", "YES"}, {"CONFIG", "SET", "activerehashing", "1"}, {"CONFIG", "GET", "activerehashing"},
				{"CONFIG", "SET", "hz", "+5"}, {"CONFIG", "SET", "hz", "05"}, {"CONFIG", "SET", "hz", "1.0"}, {"CONFIG", "SET", "hz", ""},
				{"CONFIG", "SET", "hz", "-1"}, {"CONFIG", "SET", "hz", "600"}, {"CONFIG", "GET", "hz"},
				{"CONFIG", "SET", "maxmemory", "1K"}, {"CONFIG", "GET", "maxmemory"}, {"CONFIG", "SET", "maxmemory", "1kb"}, {"CONFIG", "GET", "maxmemory"},
				{"CONFIG", "SET", "maxmemory", "2MB"}, {"CONFIG", "GET", "maxmemory"}, {"CONFIG", "SET", "maxmemory", "1.5gb"}, {"CONFIG", "SET", "maxmemory", "-1"},
				{"CONFIG", "SET", "maxmemory", "+5"}, {"CONFIG", "SET", "proto-max-bulk-len", "1"}, {"CONFIG", "SET", "active-defrag-cycle-max", "100"},
				{"CONFIG", "SET", "maxmemory-clients", "10%"}, {"CONFIG", "GET", "maxmemory-clients"}, {"CONFIG", "SET", "maxmemory-clients", "x%"},
				{"CONFIG", "SET", "save", "100 10"}, {"CONFIG", "GET", "save"}, {"CONFIG", "SET", "save", "100"}, {"CONFIG", "SET", "save", "a b"},
				{"CONFIG", "SET", "notify-keyspace-events", "KEA"}, {"CONFIG", "GET", "notify-keyspace-events"},
				{"CONFIG", "SET", "notify-keyspace-events", "Kx"}, {"CONFIG", "GET", "notify-keyspace-events"}, {"CONFIG", "SET", "notify-keyspace-events", "Q"},
				{"CONFIG", "SET", "maxmemory", "0"}, {"CONFIG", "GET", "maxmemory", "maxmemory-human"},
				configRestore,
			}},
		{id: "server/config-others", desc: "CONFIG RESETSTAT, CONFIG REWRITE with no config file, CONFIG HELP, an unknown subcommand and the arities",
			cmds: [][]string{{"CONFIG", "RESETSTAT"}, {"CONFIG", "RESETSTAT", "x"}, {"CONFIG", "REWRITE"}, {"CONFIG", "HELP"}, {"CONFIG", "FOO"}, {"CONFIG"}}},
		{id: "server/config-hll-sparse", desc: "CONFIG SET hll-sparse-max-bytes changes where a HyperLogLog turns dense, as in Redis",
			cmds: [][]string{
				{"CONFIG", "SET", "hll-sparse-max-bytes", "30"}, pfadd("h", "e", 0, 40), {"PFDEBUG", "ENCODING", "h"}, {"PFCOUNT", "h"},
				{"CONFIG", "SET", "hll-sparse-max-bytes", "3000"}, pfadd("s", "e", 0, 40), {"PFDEBUG", "ENCODING", "s"},
				configRestore,
			}},
		{id: "server/info-sections", desc: "INFO and its sections: Redis 7.0's fields in its order, redis_version:7.0.15, the keyspace (keys and expires), errorstats and commandstats since CONFIG RESETSTAT",
			cmds: [][]string{
				{"CONFIG", "RESETSTAT"}, {"SET", "a", "1"}, {"SET", "b", "2", "EX", "100"}, {"SELECT", "3"}, {"RPUSH", "l", "x"}, {"SELECT", "0"},
				{"INCR", "nope", "x"}, {"HSET", "a", "f", "v"}, {"GET"}, {"NOSUCHCMD"},
				{"INFO", "keyspace"}, {"INFO", "server"}, {"INFO", "errorstats"}, {"INFO", "commandstats"}, {"INFO", "stats"},
				{"INFO", "memory"}, {"INFO", "persistence"}, {"INFO", "replication"}, {"INFO", "cpu"}, {"INFO", "modules"}, {"INFO", "cluster"},
				{"INFO", "clients"}, {"INFO", "latencystats"},
			}},
		{id: "server/info-several", desc: "INFO with several sections, in any order and case, all/everything/default, and names Redis does not know",
			cmds: [][]string{
				{"CONFIG", "RESETSTAT"}, {"SET", "k", "v"}, {"INFO"}, {"INFO", "default"}, {"INFO", "all"}, {"INFO", "everything"},
				{"INFO", "KEYSPACE", "server"}, {"INFO", "cpu", "all"}, {"INFO", "cpu", "default"}, {"INFO", "foo"}, {"INFO", "foo", "cluster"},
				{"INFO", "commandSTATS"}, {"INFO", "sentinel"},
			}},
		{id: "server/client", desc: "CLIENT ID, SETNAME and GETNAME (names with spaces refused, HELLO SETNAME too), CLIENT INFO's fields in Redis's order, NO-EVICT, and CLIENT LIST's errors",
			cmds: [][]string{
				{"CLIENT", "ID"}, {"CLIENT", "GETNAME"}, {"CLIENT", "SETNAME", "a b"}, {"CLIENT", "SETNAME", "é"}, {"CLIENT", "SETNAME", "worker-1"},
				{"CLIENT", "GETNAME"}, {"CLIENT", "INFO"}, {"SELECT", "2"}, {"CLIENT", "INFO"}, {"SELECT", "0"}, {"CLIENT", "SETNAME", ""}, {"CLIENT", "GETNAME"},
				{"CLIENT", "NO-EVICT", "on"}, {"CLIENT", "INFO"}, {"CLIENT", "NO-EVICT", "off"}, {"CLIENT", "NO-EVICT", "maybe"},
				{"CLIENT", "LIST", "TYPE", "foo"}, {"CLIENT", "LIST", "ID", "abc"}, {"CLIENT", "LIST", "ID", "99999"}, {"CLIENT", "LIST", "TYPE", "pubsub"},
				{"CLIENT", "GETREDIR"}, {"CLIENT", "TRACKINGINFO"}, {"CLIENT", "HELP"}, {"CLIENT", "FOO"}, {"CLIENT", "UNBLOCK", "99999"},
				{"HELLO", "2", "SETNAME", "a b"}, {"CLIENT", "INFO"}, {"HELLO", "2", "SETNAME", "via-hello"}, {"CLIENT", "GETNAME"}, {"CLIENT", "INFO"},
			}},
		{id: "server/client-kill", desc: "CLIENT KILL's errors, as Redis 7.0 words them, and a kill that matches no connection",
			cmds: [][]string{
				{"CLIENT", "KILL"}, {"CLIENT", "KILL", "1.2.3.4:5"}, {"CLIENT", "KILL", "id", "abc"}, {"CLIENT", "KILL", "id", "0"},
				{"CLIENT", "KILL", "id", "99999"}, {"CLIENT", "KILL", "id", "10", "wrong_arg"}, {"CLIENT", "KILL", "foo", "bar"},
				{"CLIENT", "KILL", "skipme", "yes_or_no"}, {"CLIENT", "KILL", "type", "wrong_type"}, {"CLIENT", "KILL", "user", "wrong_user"},
				{"CLIENT", "KILL", "id"}, {"CLIENT", "KILL", "addr", "1.2.3.4:5", "skipme", "no"},
			}},
		{id: "server/config-hidden", desc: "Redis's debugging parameters (key-load-delay...) are found by their name, never by a pattern",
			cmds: [][]string{
				{"CONFIG", "GET", "key-load-delay"}, {"CONFIG", "GET", "key-load-*"}, {"CONFIG", "GET", "rdb-key-save-delay", "loading-process-events-interval-bytes"},
				{"CONFIG", "SET", "key-load-delay", "abc"}, {"CONFIG", "SET", "loading-process-events-interval-bytes", "1"},
			}},
		{id: "server/encoding-defaults", desc: "Redis 7.0's default limits, as CONFIG GET reports them, are the engine's: a hash of 200 fields (hash-max-listpack-entries 512) is still a listpack, in OBJECT ENCODING and in DUMP's payload",
			cmds: [][]string{hashOf("h", 200), {"OBJECT", "ENCODING", "h"}, {"DUMP", "h"}, hashOf("big", 513), {"OBJECT", "ENCODING", "big"},
				{"CONFIG", "GET", "hash-max-listpack-entries"}, {"HGETALL", "h"}}},
		{id: "server/config-encodings", desc: "CONFIG SET of hash-max-listpack-entries, hash-max-listpack-value (or their ziplist names) and set-max-intset-entries changes what OBJECT ENCODING and DUMP see of a new key",
			cmds: [][]string{
				{"CONFIG", "SET", "hash-max-listpack-entries", "4"}, hashOf("h", 5), {"OBJECT", "ENCODING", "h"}, hashOf("small", 3), {"OBJECT", "ENCODING", "small"}, {"DUMP", "small"},
				{"CONFIG", "SET", "hash-max-ziplist-value", "3"}, {"HSET", "v", "f", "long"}, {"OBJECT", "ENCODING", "v"}, {"HSET", "w", "f", "abc"}, {"OBJECT", "ENCODING", "w"},
				{"CONFIG", "SET", "set-max-intset-entries", "2"}, {"SADD", "s", "1", "2", "3"}, {"OBJECT", "ENCODING", "s"}, {"SADD", "t", "1", "2"}, {"OBJECT", "ENCODING", "t"}, {"DUMP", "t"},
				configRestore,
			}},
		{id: "server/reset", desc: "RESET: out of MULTI, back to database 0, no name, and the status RESET (after it, a connection speaks RESP2: the case reads no nil, which the comparison would read as RESP3's)",
			cmds: [][]string{
				{"SELECT", "3"}, {"SET", "k", "in3"}, {"CLIENT", "SETNAME", "x"}, {"MULTI"}, {"SET", "k", "queued"}, {"RESET"},
				{"EXEC"}, {"EXISTS", "k"}, {"CLIENT", "INFO"}, {"SELECT", "3"}, {"GET", "k"}, {"RESET", "x"}, {"WATCH", "k"}, {"RESET"},
			}},
		{id: "server/db-range", desc: "SWAPDB, MOVE, COPY ... DB and SELECT with an index past the 16 databases: ERR DB index is out of range",
			cmds: [][]string{
				{"SET", "k", "v"}, {"SWAPDB", "0", "16"}, {"SWAPDB", "a", "1"}, {"SWAPDB", "1", "b"}, {"SWAPDB", "-1", "1"}, {"SWAPDB", "0", "0"},
				{"MOVE", "k", "16"}, {"MOVE", "k", "a"}, {"MOVE", "k", "-1"}, {"MOVE", "k", "0"}, {"MOVE", "k", "99999999999"}, {"MOVE", "k", "15"},
				{"SELECT", "15"}, {"COPY", "k", "j", "DB", "16"}, {"COPY", "k", "j", "DB", "a"}, {"COPY", "k", "j", "DB", "-1"}, {"COPY", "k", "j", "DB", "0"},
				{"SELECT", "16"}, {"SELECT", "-1"}, {"SELECT", "0"}, {"GET", "j"},
			}},
		{id: "server/flush-sync", desc: "FLUSHALL and FLUSHDB take SYNC as well as ASYNC in Redis 7.0",
			cmds: [][]string{
				{"SET", "a", "1"}, {"FLUSHALL", "SYNC"}, {"DBSIZE"}, {"SET", "a", "1"}, {"FLUSHDB", "sync"}, {"DBSIZE"},
				{"FLUSHALL", "ASYNC"}, {"FLUSHDB", "ASYNC"}, {"FLUSHALL", "foo"}, {"FLUSHDB", "foo"}, {"FLUSHALL", "SYNC", "x"},
			}},
		{id: "server/command-count-list", desc: "COMMAND COUNT and COMMAND LIST count and name Redis 7.0's commands, with FILTERBY PATTERN and MODULE",
			cmds: [][]string{
				{"COMMAND", "COUNT"}, {"COMMAND", "LIST"}, {"COMMAND", "LIST", "FILTERBY", "PATTERN", "xa*"}, {"COMMAND", "LIST", "FILTERBY", "PATTERN", "CONFIG|*"},
				{"COMMAND", "LIST", "FILTERBY", "MODULE", "x"}, {"COMMAND", "LIST", "FILTERBY", "foo", "bar"}, {"COMMAND", "LIST", "foo"},
			}},
		{id: "server/newer-than-7", desc: "Commands Redis 7.0 does not have, which miniredis answers, are unknown: HEXPIRE and the hash-field TTLs, HSETEX, ZRANK ... WITHSCORE",
			cmds: [][]string{
				{"HSET", "h", "f", "v"}, {"HEXPIRE", "h", "10", "FIELDS", "1", "f"}, {"HPEXPIRE", "h", "10", "FIELDS", "1", "f"}, {"HTTL", "h", "FIELDS", "1", "f"},
				{"HPTTL", "h", "FIELDS", "1", "f"}, {"HPERSIST", "h", "FIELDS", "1", "f"}, {"HSETEX", "h", "EX", "10", "FIELDS", "1", "f", "v"},
				{"DELEX", "h"}, {"ZADD", "z", "1", "a"}, {"ZRANK", "z", "a", "WITHSCORE"}, {"ZREVRANK", "z", "a", "WITHSCORE"},
				eval("return redis.pcall('HEXPIRE', 'h', '10', 'FIELDS', '1', 'f')"),
			}},
		{id: "server/standalone", desc: "SAVE, BGSAVE, BGREWRITEAOF, ROLE, SLOWLOG and READONLY as a standalone Redis 7.0 with nothing on disk answers them",
			cmds: [][]string{{"ROLE"}, {"READONLY"}, {"READWRITE"}, {"ASKING"}, {"SLOWLOG", "RESET"}, {"SLOWLOG", "LEN"}, {"SLOWLOG", "GET"}}},
	}
}
