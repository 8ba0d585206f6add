//go:build !js

package fidelity

// Keyspace dumps: what any client can read back with KEYS *, TYPE, the
// type's read command and PTTL. The same code reads the engine and the real
// server, so two dumps compare like for like.

import (
	"fmt"
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
	listpackEntries = 128
	listpackValue   = 64
)

// keyDump is one key.
type keyDump struct {
	Type  string
	Items []string // string: the value; list: elements; set: sorted members; hash: field, value...; zset: member, score...; stream: id, fields...
	PTTL  int64
	// Encoding is the real server's OBJECT ENCODING of a hash (it is not
	// asked of the engine): "listpack" means ordered.
	Encoding string
}

type dump map[string]keyDump

// databases is how many databases a dump reads: Redis's default, 16.
const databases = 16

// dumpKeyspace reads every key of every database through c. A key of
// database 0 is named as it is; one of another database N as "dbN:key".
// real says whether c is the real server, which is asked the encoding of
// each hash. c is left on database 0.
func dumpKeyspace(c doer, real bool) (dump, error) {
	var listing [][]string
	for db := range databases {
		listing = append(listing, []string{"SELECT", strconv.Itoa(db)}, []string{"KEYS", "*"})
	}
	rs, err := c.pipeline(append(listing, []string{"SELECT", "0"}))
	if err != nil {
		return nil, err
	}
	d := dump{}
	for db := range databases {
		keys, ok := rs[2*db+1].strs()
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

// inDB runs each pipeline in one database, and goes back to 0 after.
type inDB struct {
	c  doer
	db int
}

func (x inDB) pipeline(cmds [][]string) ([]node, error) {
	if x.db == 0 {
		return x.c.pipeline(cmds)
	}
	all := append([][]string{{"SELECT", strconv.Itoa(x.db)}}, cmds...)
	rs, err := x.c.pipeline(append(all, []string{"SELECT", "0"}))
	if err != nil {
		return nil, err
	}
	return rs[1 : len(rs)-1], nil
}

// dumpDB reads keys, the keys of one database, into d.
func dumpDB(c inDB, real bool, keys []string, d dump) error {
	sort.Strings(keys)
	types := make([][]string, len(keys))
	for i, k := range keys {
		types[i] = []string{"TYPE", k}
	}
	typeReplies, err := c.pipeline(types)
	if err != nil {
		return err
	}
	const perKey = 3
	var reads [][]string
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
			return fmt.Errorf("key %s has type %v, which the dump does not read", short(k), typeReplies[i])
		}
		enc := []string{"PING"}
		if real && typeReplies[i].S == "hash" {
			enc = []string{"OBJECT", "ENCODING", k}
		}
		reads = append(reads, read, []string{"PTTL", k}, enc)
	}
	replies, err := c.pipeline(reads)
	if err != nil {
		return err
	}
	for i, k := range keys {
		v, ttl, enc := replies[perKey*i], replies[perKey*i+1], replies[perKey*i+2]
		kd := keyDump{Type: typeReplies[i].S}
		if ttl.T != ':' {
			return fmt.Errorf("PTTL %s = %v", short(k), ttl)
		}
		kd.PTTL, _ = strconv.ParseInt(ttl.S, 10, 64)
		if kd.Type == "hash" && real {
			kd.Encoding = enc.S
		}
		switch kd.Type {
		case "string":
			kd.Items = []string{v.S}
		case "zset":
			// RESP2: member, score, member, score; RESP3: [member, score] pairs.
			for _, e := range v.Elems {
				if e.isAggregate() && len(e.Elems) == 2 {
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
				kd.Items = append(kd.Items, e.wire())
			}
		default:
			items, ok := v.strs()
			if !ok {
				return fmt.Errorf("reading %s %s: %v", kd.Type, short(k), v)
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

// hashIsOrdered reports whether a real server's hash has an order to
// compare: its encoding when known, else the listpack limits.
func hashIsOrdered(real keyDump) bool {
	if real.Encoding != "" {
		return real.Encoding == "listpack"
	}
	if len(real.Items)/2 > listpackEntries {
		return false
	}
	for _, s := range real.Items {
		if len(s) > listpackValue {
			return false
		}
	}
	return true
}

// pttlSlack is how far apart two remaining TTLs may be: the engine's clock
// stands still during a case, the real server's runs on.
const pttlSlack = 5000

// diffDumps lists, key by key, where the engine's dump differs from the
// real server's; nil when they agree.
func diffDumps(eng, real dump) []string {
	seen := map[string]bool{}
	var keys []string
	for k := range eng {
		seen[k] = true
		keys = append(keys, k)
	}
	for k := range real {
		if !seen[k] {
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
			out = append(out, fmt.Sprintf("key %s only on redis: %v", short(k), r))
		case !inR:
			out = append(out, fmt.Sprintf("key %s only on the engine: %v", short(k), e))
		default:
			if d := diffKey(e, r); d != "" {
				out = append(out, fmt.Sprintf("key %s: %s", short(k), d))
			}
		}
	}
	return out
}

func diffKey(e, r keyDump) string {
	if e.Type != r.Type {
		return fmt.Sprintf("type: engine %s, redis %s", e.Type, r.Type)
	}
	ei, ri := e.Items, r.Items
	how := ""
	if e.Type == "hash" && !hashIsOrdered(r) {
		ei, ri, how = sortPairs(ei), sortPairs(ri), " (compared as a set: a hash table has no order)"
	}
	if !equalStrings(ei, ri) {
		return fmt.Sprintf("value%s: engine %s, redis %s", how, showItems(ei), showItems(ri))
	}
	switch {
	case e.PTTL < 0 || r.PTTL < 0:
		if e.PTTL != r.PTTL {
			return fmt.Sprintf("PTTL: engine %d, redis %d", e.PTTL, r.PTTL)
		}
	case e.PTTL-r.PTTL > pttlSlack || r.PTTL-e.PTTL > pttlSlack:
		return fmt.Sprintf("PTTL more than %d ms apart: engine %d, redis %d", pttlSlack, e.PTTL, r.PTTL)
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

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func showItems(items []string) string {
	parts := make([]string, 0, len(items))
	for i, s := range items {
		if i == 12 {
			parts = append(parts, fmt.Sprintf("…(%d items)", len(items)))
			break
		}
		parts = append(parts, short(s))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func (k keyDump) String() string {
	return fmt.Sprintf("%s %s pttl=%d", k.Type, showItems(k.Items), k.PTTL)
}
