package fidelity

import (
	"sort"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/engine"
)

// TestFidelityRESP3Kinds is the class check for RESP3 shapes: every command
// of Redis 7.0's table (COMMAND LIST on the real server) is either sent,
// with simple valid arguments over a small keyspace of every type, under
// HELLO 3 to both servers, or listed in kindsNotSent with the reason; and
// the kinds of the two replies (map, set, array, double, null, ...) must
// agree all the way down. Values are not compared: the other cases do
// that. Its name starts with TestFidelity so that -run TestFidelity
// -update records its exchanges with the rest.
func TestFidelityRESP3Kinds(t *testing.T) {
	if !engineSpeaksRESP3() {
		t.Skip("the engine does not speak RESP3")
	}
	srv := startReal(t)
	list := srv.Must(t, "COMMAND", "LIST")
	names, _ := list.Strs()
	sort.Strings(names)
	for _, name := range names {
		if kindsNotSent[name] != "" {
			continue
		}
		if len(kindsSent[name]) == 0 {
			t.Errorf("%s: no invocation in kindsSent and no reason in kindsNotSent", name)
		}
	}
	var sent []string
	for name := range kindsSent {
		sent = append(sent, name)
	}
	sort.Strings(sent)
	for _, name := range sent {
		for _, line := range kindsSent[name] {
			cmd := strings.Fields(line)
			srv.Must(t, "FLUSHALL")
			cn := srv.Dial(t)
			e := engine.MustNew()
			ec := &redisdiff.EngineConn{C: e.NewClient(), RESP3: true}
			helloRESP3(t, cn, ec)
			e.SetNow(srv.Now(t))
			for _, s := range kindsSetup {
				cn.Must(t, s...)
				ec.Node(s...)
			}
			real, eng := cn.Must(t, cmd...), ec.Node(cmd...)
			if real.IsError() {
				t.Errorf("%s: redis-server refuses it, so it checks no kind: %v", line, real)
				continue
			}
			d := kindDiff(eng, real, "")
			switch reason := kindsKnown[line]; {
			case d != "" && reason == "":
				t.Errorf("%s: the RESP3 kind differs: %s\n  engine %v\n  redis  %v", line, d, eng, real)
			case d == "" && reason != "":
				t.Errorf("%s: now matches redis-server: remove it from kindsKnown", line)
			}
		}
	}
}

// kindDiff is where the kinds of two replies first differ, or "". Elements
// are compared pairwise as far as both go (a count can differ for reasons
// of value, not of kind: the members SRANDMEMBER picks).
func kindDiff(eng, real redisdiff.Node, at string) string {
	if eng.T != real.T {
		return "at [" + at + "] engine '" + string(eng.T) + "', redis '" + string(real.T) + "'"
	}
	for i := 0; i < len(eng.Elems) && i < len(real.Elems); i++ {
		if d := kindDiff(eng.Elems[i], real.Elems[i], at+"/"+string(rune('0'+i%10))); d != "" {
			return d
		}
	}
	return ""
}

// kindsSetup is the keyspace each command runs over: a key of every type.
var kindsSetup = [][]string{
	{"SET", "str", "hello"}, {"SET", "n", "10"}, {"RPUSH", "list", "a", "b", "c"}, {"SADD", "set", "a", "b", "c"},
	{"SADD", "iset", "1", "2", "3"}, {"ZADD", "zset", "1", "a", "2.5", "b", "3", "c"}, {"HSET", "hash", "f", "v", "g", "1"},
	{"XADD", "st", "1-1", "f", "v"}, {"XADD", "st", "2-1", "g", "w"}, {"XGROUP", "CREATE", "st", "grp", "0"},
	{"XREADGROUP", "GROUP", "grp", "alice", "STREAMS", "st", ">"}, {"PFADD", "hll", "a", "b", "c"},
	{"GEOADD", "geo", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"},
}

// kindsKnown are the invocations whose RESP3 kind the engine does not match
// yet, each with the reason.
var kindsKnown = map[string]string{}

// kindsNotSent are the commands the check does not send, and why.
var kindsNotSent = func() map[string]string {
	m := map[string]string{}
	for _, c := range strings.Fields("blpop brpop brpoplpush blmove blmpop bzpopmin bzpopmax bzmpop") {
		m[c] = "a blocking pop: block/ cases compare it, with data and with a timeout"
	}
	for _, c := range strings.Fields("subscribe psubscribe ssubscribe unsubscribe punsubscribe sunsubscribe monitor") {
		m[c] = "puts the connection in a mode the playground has no room for"
	}
	for _, c := range strings.Fields("shutdown quit reset debug sync psync replconf replicaof slaveof failover migrate restore-asking asking readonly readwrite save bgsave bgrewriteaof lolwut client|kill client|pause client|unpause client|reply client|tracking client|caching client|getredir client|unblock client|no-evict") {
		m[c] = "changes or stops the server or the connection, or replies nothing the learner reads"
	}
	for _, c := range strings.Fields("module module|help module|list module|load module|loadex module|unload") {
		m[c] = "modules: the playground loads none"
	}
	for _, c := range strings.Fields("cluster|keyslot cluster|addslots cluster|addslotsrange cluster|bumpepoch cluster|count-failure-reports cluster|countkeysinslot cluster|delslots cluster|delslotsrange cluster|failover cluster|flushslots cluster|forget cluster|getkeysinslot cluster|help cluster|info cluster|links cluster|meet cluster|myid cluster|nodes cluster|replicas cluster|replicate cluster|reset cluster|saveconfig cluster|set-config-epoch cluster|setslot cluster|shards cluster|slaves cluster|slots") {
		m[c] = "cluster mode is disabled on both: an error, no kind"
	}
	for _, c := range strings.Fields("acl acl|cat acl|deluser acl|dryrun acl|genpass acl|getuser acl|help acl|list acl|load acl|log acl|save acl|setuser acl|users acl|whoami auth") {
		m[c] = "ACL: the playground has one user and no ACL commands"
	}
	for _, c := range strings.Fields("latency latency|doctor latency|graph latency|help latency|histogram latency|history latency|latest latency|reset memory memory|doctor memory|help memory|malloc-stats memory|purge memory|stats memory|usage slowlog slowlog|get slowlog|help slowlog|len slowlog|reset") {
		m[c] = "server introspection the playground does not keep"
	}
	for _, c := range strings.Fields("function function|delete function|dump function|flush function|help function|kill function|list function|load function|restore function|stats fcall fcall_ro") {
		m[c] = "functions: their own cases compare them"
	}
	m["object|freq"] = "an error under Redis's default maxmemory policy: no kind"
	for _, c := range strings.Fields("client cluster command config object pubsub script xgroup xinfo") {
		m[c] = "a container: its subcommands are sent"
	}
	for _, c := range strings.Fields("multi exec discard watch unwatch") {
		m[c] = "transactions: tx/ cases compare them"
	}
	for _, c := range strings.Fields("client|help client|info client|list client|id client|setname client|getname client|trackinginfo command|help config|help config|resetstat config|rewrite object|help pubsub|help script|help xgroup|help xinfo|help info lastsave dbsize randomkey hello flushall flushdb select swapdb move spublish publish pubsub|channels pubsub|numpat pubsub|numsub pubsub|shardchannels pubsub|shardnumsub script|debug script|kill script|flush eval evalsha eval_ro evalsha_ro command|docs command|getkeysandflags command|info pfdebug pfselftest wait restore dump config|set xgroup|setid xsetid role") {
		m[c] = "server, script or text replies whose kinds other cases compare (or values no two servers share)"
	}
	return m
}()

// kindsSent is each command's invocations over kindsSetup.
var kindsSent = map[string][]string{
	"append": {"APPEND str x"}, "bitcount": {"BITCOUNT str"}, "bitfield": {"BITFIELD str GET u8 0"}, "bitfield_ro": {"BITFIELD_RO str GET u8 0"},
	"bitop": {"BITOP AND dst str n"}, "bitpos": {"BITPOS str 1"}, "copy": {"COPY str dst"}, "decr": {"DECR n"}, "decrby": {"DECRBY n 2"},
	"del": {"DEL str"}, "echo": {"ECHO hi"}, "exists": {"EXISTS str list"}, "expire": {"EXPIRE str 100"}, "expireat": {"EXPIREAT str 4000000000"},
	"expiretime": {"EXPIRETIME str"}, "get": {"GET str", "GET none"}, "getbit": {"GETBIT str 1"}, "getdel": {"GETDEL str"}, "getex": {"GETEX str"},
	"getrange": {"GETRANGE str 0 2"}, "getset": {"GETSET str x"}, "incr": {"INCR n"}, "incrby": {"INCRBY n 5"}, "incrbyfloat": {"INCRBYFLOAT n 1.5"},
	"keys": {"KEYS *"}, "lcs": {"LCS str n", "LCS str str IDX"}, "mget": {"MGET str none"}, "mset": {"MSET a 1 b 2"}, "msetnx": {"MSETNX a 1"},
	"persist": {"PERSIST str"}, "pexpire": {"PEXPIRE str 100000"}, "pexpireat": {"PEXPIREAT str 4000000000000"}, "pexpiretime": {"PEXPIRETIME str"},
	"ping": {"PING", "PING hi"}, "psetex": {"PSETEX k 10000 v"}, "pttl": {"PTTL str"}, "rename": {"RENAME str s2"}, "renamenx": {"RENAMENX str s2"},
	"scan": {"SCAN 0"}, "set": {"SET k v", "SET str v GET"}, "setbit": {"SETBIT str 1 1"}, "setex": {"SETEX k 100 v"}, "setnx": {"SETNX k v"},
	"setrange": {"SETRANGE str 1 x"}, "sort": {"SORT list ALPHA", "SORT iset"}, "sort_ro": {"SORT_RO iset"}, "strlen": {"STRLEN str"},
	"substr": {"SUBSTR str 0 1"}, "time": {"TIME"}, "touch": {"TOUCH str"}, "ttl": {"TTL str"}, "type": {"TYPE str"}, "unlink": {"UNLINK str"},
	"lindex": {"LINDEX list 0"}, "linsert": {"LINSERT list BEFORE b x"}, "llen": {"LLEN list"}, "lmove": {"LMOVE list l2 LEFT RIGHT"},
	"lmpop": {"LMPOP 1 list LEFT COUNT 2", "LMPOP 1 none LEFT"}, "lpop": {"LPOP list", "LPOP list 2", "LPOP none"}, "lpos": {"LPOS list b", "LPOS list b COUNT 0"},
	"lpush": {"LPUSH list x"}, "lpushx": {"LPUSHX list x"}, "lrange": {"LRANGE list 0 -1"}, "lrem": {"LREM list 0 a"}, "lset": {"LSET list 0 x"},
	"ltrim": {"LTRIM list 0 1"}, "rpop": {"RPOP list", "RPOP list 2"}, "rpoplpush": {"RPOPLPUSH list l2"}, "rpush": {"RPUSH list x"}, "rpushx": {"RPUSHX list x"},
	"sadd": {"SADD set d"}, "scard": {"SCARD set"}, "sdiff": {"SDIFF set iset"}, "sdiffstore": {"SDIFFSTORE d set iset"}, "sinter": {"SINTER set set"},
	"sintercard": {"SINTERCARD 1 set"}, "sinterstore": {"SINTERSTORE d set"}, "sismember": {"SISMEMBER set a"}, "smembers": {"SMEMBERS set", "SMEMBERS iset"},
	"smismember": {"SMISMEMBER set a z"}, "smove": {"SMOVE set s2 a"}, "spop": {"SPOP set", "SPOP set 2", "SPOP none 2"}, "srandmember": {"SRANDMEMBER set", "SRANDMEMBER set 2", "SRANDMEMBER set -5"},
	"srem": {"SREM set a"}, "sscan": {"SSCAN set 0", "SSCAN iset 0"}, "sunion": {"SUNION set iset"}, "sunionstore": {"SUNIONSTORE d set iset"},
	"zadd": {"ZADD zset 4 d", "ZADD zset INCR 1 a"}, "zcard": {"ZCARD zset"}, "zcount": {"ZCOUNT zset 0 10"}, "zdiff": {"ZDIFF 1 zset", "ZDIFF 1 zset WITHSCORES"},
	"zdiffstore": {"ZDIFFSTORE d 1 zset"}, "zincrby": {"ZINCRBY zset 1 a"}, "zinter": {"ZINTER 1 zset", "ZINTER 1 zset WITHSCORES"}, "zintercard": {"ZINTERCARD 1 zset"},
	"zinterstore": {"ZINTERSTORE d 1 zset"}, "zlexcount": {"ZLEXCOUNT zset - +"}, "zmpop": {"ZMPOP 1 zset MIN", "ZMPOP 1 zset MAX COUNT 2", "ZMPOP 1 none MIN"},
	"zmscore": {"ZMSCORE zset a none"}, "zpopmax": {"ZPOPMAX zset", "ZPOPMAX zset 2"}, "zpopmin": {"ZPOPMIN zset", "ZPOPMIN zset 2", "ZPOPMIN none"},
	"zrandmember": {"ZRANDMEMBER zset", "ZRANDMEMBER zset 2", "ZRANDMEMBER zset 2 WITHSCORES"}, "zrange": {"ZRANGE zset 0 -1", "ZRANGE zset 0 -1 WITHSCORES"},
	"zrangebylex": {"ZRANGEBYLEX zset - +"}, "zrangebyscore": {"ZRANGEBYSCORE zset 0 10 WITHSCORES"}, "zrangestore": {"ZRANGESTORE d zset 0 -1"},
	"zrank": {"ZRANK zset b", "ZRANK zset none"}, "zrem": {"ZREM zset a"}, "zremrangebylex": {"ZREMRANGEBYLEX zset - +"}, "zremrangebyrank": {"ZREMRANGEBYRANK zset 0 0"},
	"zremrangebyscore": {"ZREMRANGEBYSCORE zset 0 1"}, "zrevrange": {"ZREVRANGE zset 0 -1 WITHSCORES"}, "zrevrangebylex": {"ZREVRANGEBYLEX zset + -"},
	"zrevrangebyscore": {"ZREVRANGEBYSCORE zset 10 0 WITHSCORES"}, "zrevrank": {"ZREVRANK zset b"}, "zscan": {"ZSCAN zset 0"}, "zscore": {"ZSCORE zset b", "ZSCORE zset none"},
	"zunion": {"ZUNION 1 zset", "ZUNION 1 zset WITHSCORES"}, "zunionstore": {"ZUNIONSTORE d 1 zset"},
	"hdel": {"HDEL hash f"}, "hexists": {"HEXISTS hash f"}, "hget": {"HGET hash f"}, "hgetall": {"HGETALL hash"}, "hincrby": {"HINCRBY hash g 1"},
	"hincrbyfloat": {"HINCRBYFLOAT hash g 1.5"}, "hkeys": {"HKEYS hash"}, "hlen": {"HLEN hash"}, "hmget": {"HMGET hash f none"}, "hmset": {"HMSET hash a 1"},
	"hrandfield": {"HRANDFIELD hash", "HRANDFIELD hash 2", "HRANDFIELD hash 2 WITHVALUES", "HRANDFIELD hash -3 WITHVALUES"}, "hscan": {"HSCAN hash 0"},
	"hset": {"HSET hash a 1"}, "hsetnx": {"HSETNX hash a 1"}, "hstrlen": {"HSTRLEN hash f"}, "hvals": {"HVALS hash"},
	"xack": {"XACK st grp 1-1"}, "xadd": {"XADD st 3-1 a b"}, "xautoclaim": {"XAUTOCLAIM st grp bob 0 0"}, "xclaim": {"XCLAIM st grp bob 0 1-1"},
	"xdel": {"XDEL st 1-1"}, "xgroup|create": {"XGROUP CREATE st g2 0"}, "xgroup|createconsumer": {"XGROUP CREATECONSUMER st grp carol"},
	"xgroup|delconsumer": {"XGROUP DELCONSUMER st grp alice"}, "xgroup|destroy": {"XGROUP DESTROY st grp"}, "xinfo|consumers": {"XINFO CONSUMERS st grp"},
	"xinfo|groups": {"XINFO GROUPS st"}, "xinfo|stream": {"XINFO STREAM st"}, "xlen": {"XLEN st"}, "xpending": {"XPENDING st grp", "XPENDING st grp - + 10"},
	"xrange": {"XRANGE st - +"}, "xread": {"XREAD STREAMS st 0", "XREAD STREAMS st $"}, "xreadgroup": {"XREADGROUP GROUP grp bob STREAMS st 0"},
	"xrevrange": {"XREVRANGE st + -"}, "xtrim": {"XTRIM st MAXLEN 1"},
	"pfadd": {"PFADD hll d"}, "pfcount": {"PFCOUNT hll"}, "pfmerge": {"PFMERGE h2 hll"},
	"geoadd": {"GEOADD geo 13 38 x"}, "geodist": {"GEODIST geo Palermo Catania"}, "geohash": {"GEOHASH geo Palermo"}, "geopos": {"GEOPOS geo Palermo none"},
	"georadius": {"GEORADIUS geo 15 37 200 km WITHDIST WITHCOORD"}, "georadius_ro": {"GEORADIUS_RO geo 15 37 200 km"},
	"georadiusbymember": {"GEORADIUSBYMEMBER geo Palermo 200 km WITHDIST"}, "georadiusbymember_ro": {"GEORADIUSBYMEMBER_RO geo Palermo 200 km"},
	"geosearch": {"GEOSEARCH geo FROMMEMBER Palermo BYRADIUS 200 km WITHDIST WITHCOORD WITHHASH"}, "geosearchstore": {"GEOSEARCHSTORE d geo FROMMEMBER Palermo BYRADIUS 200 km"},
	"command|count": {"COMMAND COUNT"}, "command|getkeys": {"COMMAND GETKEYS SET a b"}, "command|list": {"COMMAND LIST FILTERBY PATTERN xa*"},
	"config|get": {"CONFIG GET maxmemory"}, "object|encoding": {"OBJECT ENCODING iset"},
	"object|idletime": {"OBJECT IDLETIME str"}, "object|refcount": {"OBJECT REFCOUNT str"}, "script|exists": {"SCRIPT EXISTS abc"},
	"script|load": {"SCRIPT LOAD return"},
}
