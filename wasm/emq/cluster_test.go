//go:build !js

package emq_test

// The course's keys carry the {q} hash tag so that every key of a queue is
// in one Redis Cluster slot, and a script may declare them together. These
// tests hold that to a real cluster: three masters on loopback, made with
// redis-cli --cluster create, and a client that follows MOVED.

import (
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

// clusterConn is a Conn to a whole cluster: commands go to their key's
// node, and the few that a cluster runs node by node (FLUSHALL, SCRIPT,
// KEYS) go to every node, with KEYS's answers joined.
type clusterConn struct{ c *redisnet.ClusterClient }

func (cc clusterConn) Do(args ...string) (resp.Reply, error) {
	switch strings.ToUpper(args[0]) {
	case "FLUSHALL", "SCRIPT", "KEYS":
	default:
		return cc.c.Do(args...)
	}
	all, err := cc.c.Each(args...)
	if err != nil {
		return resp.Reply{}, err
	}
	if strings.EqualFold(args[0], "KEYS") {
		var keys []resp.Reply
		for _, r := range all {
			if r.Kind != resp.Array {
				return r, nil
			}
			keys = append(keys, r.Elems...)
		}
		return resp.ArrayReply(keys...), nil
	}
	for _, r := range all {
		if r.IsError() {
			return r, nil
		}
	}
	return all[0], nil
}

func startCluster(t *testing.T) (*redisserver.Cluster, clusterConn) {
	t.Helper()
	cl := redisserver.StartCluster(t, 3)
	c, err := redisnet.DialCluster(cl.Addrs())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return cl, clusterConn{c}
}

// TestClusterRunsTheHandlesAsTheEngineDoes runs the handles' scenarios and
// the randomized run on a three-master cluster and on the engine, side by
// side: the same verdicts, replies and keyspace. The queues' slots sit on
// different masters, so the client is sent on with MOVED along the way.
func TestClusterRunsTheHandlesAsTheEngineDoes(t *testing.T) {
	cl, conn := startCluster(t)
	// The run's queues live on more than one master, so MOVED is met.
	owners := map[string]bool{}
	for _, q := range []string{"q", "mail", "r"} {
		k, _ := emq.KeyspaceFor(q)
		owners[ownerOf(t, conn, k.Pending())] = true
	}
	if len(owners) < 2 {
		t.Fatalf("the queues all live on one of the %d masters: the run would never be redirected", len(cl.Nodes))
	}

	p := newPairOn(t, conn)
	p.preload = true
	var wanted []scenario
	for _, sc := range scenarios {
		switch sc.desc {
		case "the three verdicts", "claims, in byte order, down to empty", "pause and resume":
			wanted = append(wanted, sc)
		}
	}
	if len(wanted) != 3 {
		t.Fatalf("found %d of the three scenarios by name", len(wanted))
	}
	runScenarios(t, p, wanted)
	t.Run("randomized", func(t *testing.T) {
		p.t = t
		p.reset()
		runRandomized(t, p, defaultSeed, 1000)
	})
}

// ownerOf is the address of the node that serves key: the one every other
// node sends a client to with MOVED.
func ownerOf(t *testing.T, conn clusterConn, key string) string {
	t.Helper()
	for _, r := range mustEach(t, conn, "EXISTS", key) {
		if r.IsError() && strings.HasPrefix(r.Str, "MOVED ") {
			return strings.Fields(r.Str)[2]
		}
	}
	t.Fatalf("no node sent EXISTS %s elsewhere", key)
	return ""
}

func mustEach(t *testing.T, conn clusterConn, args ...string) []resp.Reply {
	t.Helper()
	rs, err := conn.c.Each(args...)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestClusterAgreesOnSlotsAndRefusesAnUntaggedQueue asks a real cluster
// node for the slots the engine's CLUSTER KEYSLOT gives, and shows what
// the tag is for: @enqueue with the same keys spelt without it declares
// keys of two slots, and the cluster answers CROSSSLOT. The tagged keys of
// the same queue run.
func TestClusterAgreesOnSlotsAndRefusesAnUntaggedQueue(t *testing.T) {
	_, conn := startCluster(t)
	e := newEngine(t)
	for _, key := range []string{"emq:{q}:pending", "emq:{q}:active", "emq:{q}:job:JOB-1", "emq:{q}:paused",
		"emq:{emails}:pending", "emq:{emails}:job:…", "emq:q:pending", "emq:q:active", "emq:emails:pending", "emq:emails:active", "emq:q:job:JOB-1", "foo", "{}foo", "a{b}{c}", "{", "}{x}", ""} {
		got, want := mustDo(t, e, "CLUSTER", "KEYSLOT", key), mustDo(t, conn, "CLUSTER", "KEYSLOT", key)
		if !got.Equal(want) {
			t.Errorf("CLUSTER KEYSLOT %q: engine %v, cluster %v", key, got, want)
		}
	}
	if got := mustDo(t, e, "CLUSTER", "KEYSLOT", "emq:{q}:pending"); got.Int != 11958 {
		t.Errorf("emq:{q}:pending is in slot %v, want 11958", got)
	}

	enq := lua.Enqueue().Source
	untagged := mustDo(t, conn, "EVAL", enq, "2", "emq:q:job:JOB1", "emq:q:pending", "JOB1", "{}")
	if !untagged.IsError() || !strings.HasPrefix(untagged.Str, "CROSSSLOT ") {
		t.Errorf("@enqueue over untagged keys: %v, want a CROSSSLOT error", untagged)
	}
	if s1, s2 := engine.KeySlot("emq:q:job:JOB1"), engine.KeySlot("emq:q:pending"); s1 == s2 {
		t.Fatalf("the untagged keys share slot %d: the case proves nothing", s1)
	}
	tagged := mustDo(t, conn, "EVAL", enq, "2", "emq:{q}:job:JOB1", "emq:{q}:pending", "JOB1", "{}")
	if !tagged.Equal(resp.IntReply(1)) {
		t.Errorf("@enqueue over tagged keys: %v, want 1", tagged)
	}
}
