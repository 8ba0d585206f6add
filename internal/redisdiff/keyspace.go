package redisdiff

// Keyspace dumps: what any client can read back with KEYS *, TYPE, the
// type's read command and PTTL. The same code reads the engine and the real
// server, so two dumps compare like for like.

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// Redis 7.0 keeps a hash as a listpack, in insertion order, while it has at
// most hash-max-listpack-entries fields and every field and value is at most
// hash-max-listpack-value bytes; past either limit it becomes a hash table
// for good, whose order is its own. These are the defaults.
const (
	ListpackEntries = 128
	ListpackValue   = 64
)

// KeyDump is one key.
type KeyDump struct {
	Type  string
	Items []string // string: the value; list: elements; set: sorted members; hash: field, value...; zset: member, score...; stream: id, fields...
	PTTL  int64
	// Encoding is the real server's OBJECT ENCODING of a hash (it is not
	// asked of the engine): "listpack" means ordered.
	Encoding string
}

// Dump is a keyspace: a key of database 0 is named as it is, one of
// another database N as "dbN:key".
type Dump map[string]KeyDump

// Databases is how many databases a dump reads: Redis's default, 16.
const Databases = 16

// NodeReader is a connection a dump reads through: the real server's or
// the engine's. It answers a batch of commands, in order.
type NodeReader interface {
	Nodes(cmds [][]string) ([]Node, error)
}

// DumpKeyspace reads every key of the first dbs databases through c (all
// of them: Databases). real says whether c is the real server, which is
// asked the encoding of each hash. A server that refuses SELECT (a
// cluster) has database 0 only. c is left on database 0.
func DumpKeyspace(c NodeReader, real bool, dbs int) (Dump, error) {
	var listing [][]string
	for db := range dbs {
		listing = append(listing, []string{"SELECT", strconv.Itoa(db)}, []string{"KEYS", "*"})
	}
	rs, err := c.Nodes(append(listing, []string{"SELECT", "0"}))
	if err != nil {
		return nil, err
	}
	d := Dump{}
	for db := range dbs {
		if db > 0 && rs[2*db].IsError() {
			break
		}
		keys, ok := rs[2*db+1].Strs()
		if !ok {
			return nil, fmt.Errorf("KEYS * in database %d = %v", db, rs[2*db+1])
		}
		if len(keys) == 0 {
			continue
		}
		if err := dumpDB(inDB{c, db}, real, keys, d); err != nil {
			return nil, fmt.Errorf("database %d: %w", db, err)
		}
	}
	return d, nil
}

// inDB runs each batch in one database, and goes back to 0 after.
type inDB struct {
	c  NodeReader
	db int
}

func (x inDB) Nodes(cmds [][]string) ([]Node, error) {
	if x.db == 0 {
		return x.c.Nodes(cmds)
	}
	all := append([][]string{{"SELECT", strconv.Itoa(x.db)}}, cmds...)
	rs, err := x.c.Nodes(append(all, []string{"SELECT", "0"}))
	if err != nil {
		return nil, err
	}
	return rs[1 : len(rs)-1], nil
}

// dumpDB reads keys, the keys of one database, into d.
func dumpDB(c inDB, real bool, keys []string, d Dump) error {
	sort.Strings(keys)
	types := make([][]string, len(keys))
	for i, k := range keys {
		types[i] = []string{"TYPE", k}
	}
	typeReplies, err := c.Nodes(types)
	if err != nil {
		return err
	}
	// Per key: its read and PTTL, and a real server's hash its encoding.
	var reads [][]string
	at := make([]int, len(keys)) // where key i's replies start
	for i, k := range keys {
		var read []string
		switch typ := typeReplies[i].S; typ {
		case "string":
			read = []string{"GET", k}
		case "hash":
			read = []string{"HGETALL", k}
		case "zset":
			read = []string{"ZRANGE", k, "0", "-1", "WITHSCORES"}
		case "list":
			read = []string{"LRANGE", k, "0", "-1"}
		case "set":
			read = []string{"SMEMBERS", k}
		case "stream":
			read = []string{"XRANGE", k, "-", "+"}
		default:
			return fmt.Errorf("key %s has type %v, which the dump does not read", Short(k), typeReplies[i])
		}
		at[i] = len(reads)
		reads = append(reads, read, []string{"PTTL", k})
		if real && typeReplies[i].S == "hash" {
			reads = append(reads, []string{"OBJECT", "ENCODING", k})
		}
	}
	replies, err := c.Nodes(reads)
	if err != nil {
		return err
	}
	for i, k := range keys {
		v, ttl := replies[at[i]], replies[at[i]+1]
		kd := KeyDump{Type: typeReplies[i].S}
		if ttl.T != ':' {
			return fmt.Errorf("PTTL %s = %v", Short(k), ttl)
		}
		kd.PTTL, _ = strconv.ParseInt(ttl.S, 10, 64)
		if kd.Type == "hash" && real {
			kd.Encoding = replies[at[i]+2].S
		}
		switch kd.Type {
		case "string":
			kd.Items = []string{v.S}
		case "zset":
			// RESP2: member, score, member, score; RESP3: [member, score] pairs.
			for _, e := range v.Elems {
				if e.IsAggregate() && len(e.Elems) == 2 {
					kd.Items = append(kd.Items, e.Elems[0].S, e.Elems[1].S)
					continue
				}
				kd.Items = append(kd.Items, e.S)
			}
			for j := 1; j < len(kd.Items); j += 2 {
				kd.Items[j] = resp.NormalizeScore(kd.Items[j])
			}
		case "stream":
			for _, e := range v.Elems {
				kd.Items = append(kd.Items, e.Wire())
			}
		default:
			items, ok := v.Strs()
			if !ok {
				return fmt.Errorf("reading %s %s: %v", kd.Type, Short(k), v)
			}
			kd.Items = items
			if kd.Type == "set" {
				sort.Strings(kd.Items)
			}
		}
		if c.db != 0 {
			k = fmt.Sprintf("db%d:%s", c.db, k)
		}
		d[k] = kd
	}
	return nil
}

// HashIsOrdered reports whether a real server's hash has an order to
// compare: its encoding when known, else the listpack limits.
func HashIsOrdered(real KeyDump) bool {
	if real.Encoding != "" {
		return real.Encoding == "listpack"
	}
	if len(real.Items)/2 > ListpackEntries {
		return false
	}
	for _, s := range real.Items {
		if len(s) > ListpackValue {
			return false
		}
	}
	return true
}

// PTTLSlack is how far apart two remaining TTLs may be: the engine's clock
// stands still during a run, the real server's runs on.
const PTTLSlack = 5000

// DiffDumps lists, key by key, where the engine's dump differs from the
// real server's; nil when they agree.
func DiffDumps(eng, real Dump) []string {
	var keys []string
	for k := range eng {
		keys = append(keys, k)
	}
	for k := range real {
		if _, ok := eng[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		e, inE := eng[k]
		r, inR := real[k]
		switch {
		case !inE:
			out = append(out, fmt.Sprintf("key %s only on redis: %v", Short(k), r))
		case !inR:
			out = append(out, fmt.Sprintf("key %s only on the engine: %v", Short(k), e))
		default:
			if d := DiffKey(e, r); d != "" {
				out = append(out, fmt.Sprintf("key %s: %s", Short(k), d))
			}
		}
	}
	return out
}

// DiffKey says how the engine's key e differs from the real server's r;
// "" when they agree.
func DiffKey(e, r KeyDump) string {
	if e.Type != r.Type {
		return fmt.Sprintf("type: engine %s, redis %s", e.Type, r.Type)
	}
	ei, ri := e.Items, r.Items
	how := ""
	if e.Type == "hash" && !HashIsOrdered(r) {
		ei, ri, how = sortPairs(ei), sortPairs(ri), " (compared as a set: a hash table has no order)"
	}
	if !slices.Equal(ei, ri) {
		return fmt.Sprintf("value%s: engine %s, redis %s", how, showItems(ei), showItems(ri))
	}
	switch {
	case e.PTTL < 0 || r.PTTL < 0:
		if e.PTTL != r.PTTL {
			return fmt.Sprintf("PTTL: engine %d, redis %d", e.PTTL, r.PTTL)
		}
	case e.PTTL-r.PTTL > PTTLSlack || r.PTTL-e.PTTL > PTTLSlack:
		return fmt.Sprintf("PTTL more than %d ms apart: engine %d, redis %d", PTTLSlack, e.PTTL, r.PTTL)
	}
	return ""
}

func sortPairs(items []string) []string {
	pairs := make([][2]string, 0, len(items)/2)
	for i := 0; i+1 < len(items); i += 2 {
		pairs = append(pairs, [2]string{items[i], items[i+1]})
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	out := make([]string, 0, len(items))
	for _, p := range pairs {
		out = append(out, p[0], p[1])
	}
	return out
}

func showItems(items []string) string {
	parts := make([]string, 0, len(items))
	for i, s := range items {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("…(%d items)", len(items)))
			break
		}
		parts = append(parts, Short(s))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func (k KeyDump) String() string {
	return fmt.Sprintf("%s %s pttl=%d", k.Type, showItems(k.Items), k.PTTL)
}
