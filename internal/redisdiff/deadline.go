package redisdiff

// Deadlines. @claim reads the server clock, and the two servers have
// different clocks. Before each claim a run reads the real server's TIME
// (t0) and sets the engine's clock to it; after the claim it reads TIME
// again (t1). The engine's deadline must be t0+lease exactly, the real one
// must lie in [t0+lease, t1+lease]. Once both are checked, the real
// server's deadline is replaced by the engine's in the real dump (and that
// sorted set re-sorted by score, as ZRANGE orders it), so that the keyspace
// comparison judges everything else byte for byte. On a replay t0 and t1
// are the recorded clock, and the rule holds as it held live.

import (
	"fmt"
	"sort"
	"strconv"

	"echomq.dev/playground/wasm/resp"
)

// Deadlines are the engine's checked deadlines: active key -> id -> score.
type Deadlines map[string]map[string]string

// Check holds the two deadlines of one lease, eng and real (their ZSCORE
// replies), to the clock rule, and keeps the engine's for Align. It
// returns what is wrong, or "".
func (d Deadlines) Check(active, id, leaseArg string, eng, real Node, t0, t1 int64) string {
	lease, err := strconv.ParseInt(leaseArg, 10, 64)
	if err != nil {
		return fmt.Sprintf("lease %q was accepted but is not a number", leaseArg)
	}
	score := func(r Node) (int64, bool) {
		f, err := strconv.ParseFloat(r.S, 64)
		return int64(f), err == nil && r.T == '$'
	}
	e, ok := score(eng)
	if !ok {
		return fmt.Sprintf("engine: no deadline for %s in %s: %v", Short(id), Short(active), eng)
	}
	r, ok := score(real)
	if !ok {
		return fmt.Sprintf("redis: no deadline for %s in %s: %v", Short(id), Short(active), real)
	}
	if e != t0+lease {
		return fmt.Sprintf("engine deadline %d, want server clock %d + lease %d = %d", e, t0, lease, t0+lease)
	}
	if r < t0+lease || r > t1+lease {
		return fmt.Sprintf("redis deadline %d outside [%d, %d] (TIME %d..%d + lease %d)", r, t0+lease, t1+lease, t0, t1, lease)
	}
	if d[active] == nil {
		d[active] = map[string]string{}
	}
	d[active][id] = resp.FormatDouble(float64(e))
	return ""
}

// Align puts the checked deadlines in place of the real server's in its
// dump, and orders those sorted sets again as ZRANGE would: by score, then
// member.
func (d Deadlines) Align(real Dump) {
	for key, ids := range d {
		kd, ok := real[key]
		if !ok || kd.Type != "zset" {
			continue
		}
		type member struct{ m, s string }
		var ms []member
		for i := 0; i+1 < len(kd.Items); i += 2 {
			m := member{kd.Items[i], kd.Items[i+1]}
			if s, ok := ids[m.m]; ok {
				m.s = s
			}
			ms = append(ms, m)
		}
		sort.SliceStable(ms, func(i, j int) bool {
			a, _ := strconv.ParseFloat(ms[i].s, 64)
			b, _ := strconv.ParseFloat(ms[j].s, 64)
			if a != b {
				return a < b
			}
			return ms[i].m < ms[j].m
		})
		items := make([]string, 0, len(kd.Items))
		for _, m := range ms {
			items = append(items, m.m, m.s)
		}
		kd.Items = items
		real[key] = kd
	}
}
