// A queue as the page draws it, and the cluster slots of its keys.

package api

import (
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
)

// snapshot is a queue as the page draws it: whole, or with a limit its
// lists' ends (emq.Jobs.Window), with the id "a fresh id" means.
func (p *Playground) snapshot(queue string, limit int) (Object, error) {
	s, err := p.jobs.Window(queue, limit)
	if err != nil {
		return nil, err
	}
	k, _ := emq.KeyspaceFor(queue) // Window has checked the name
	fresh, err := p.freshID(k, s)
	if err != nil {
		return nil, err
	}
	out := snapshotJSON(s)
	out["fresh"] = fresh
	out["counts"] = Object{"pending": s.Counts.Pending, "active": s.Counts.Active, "rows": s.Counts.Rows}
	gaps := Object{}
	for name, g := range map[string]emq.Gap{"pending": s.Gaps.Pending, "active": s.Gaps.Active, "rows": s.Gaps.Rows} {
		if g.Count > 0 {
			gaps[name] = Object{"at": g.At, "count": g.Count}
		}
	}
	out["gaps"] = gaps
	if s.RowsOfSets {
		out["rowsOfSets"] = true
	}
	out["slots"] = slotsJSON(queue)
	return out, nil
}

func snapshotJSON(s emq.Snapshot) Object {
	pending := make([]Object, len(s.Pending))
	for i, p := range s.Pending {
		pending[i] = Object{"id": p.ID, "score": p.Score}
	}
	active := make([]Object, len(s.Active))
	for i, a := range s.Active {
		active[i] = Object{"id": a.ID, "deadline": a.Deadline}
	}
	rows := make([]Object, len(s.Rows))
	for i, r := range s.Rows {
		rows[i] = Object{"id": r.ID, "state": r.State, "attempts": r.Attempts, "payload": r.Payload}
	}
	return Object{"now": s.Now, "paused": s.Paused, "pending": pending, "active": active, "rows": rows}
}

// slotsJSON is where a Redis Cluster would put the queue's keys, for the
// page's slot line: each key the handles and scripts touch, with the slot
// CLUSTER KEYSLOT answers for it, and the two keys @claim declares spelt
// without the tag, to show what the tag is for.
func slotsJSON(queue string) Object {
	k, err := emq.KeyspaceFor(queue)
	if err != nil {
		return nil
	}
	slot := func(keys ...string) []Object {
		out := make([]Object, len(keys))
		for i, key := range keys {
			out[i] = Object{"key": key, "slot": engine.KeySlot(key)}
		}
		return out
	}
	bare := "emq:" + queue + ":"
	return Object{
		"tag":      "{" + queue + "}",
		"keys":     slot(k.Job("…"), k.Pending(), k.Active(), k.Paused()),
		"untagged": slot(bare+"pending", bare+"active"),
	}
}
