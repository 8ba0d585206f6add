package redisserver

import (
	"errors"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/internal/needs"
	"echomq.dev/playground/wasm/resp"
)

// CLI is the redis-cli executable StartCluster makes the cluster with.
const CLI = "redis-cli"

// ClusterHint tells a reader how to get what StartCluster needs.
const ClusterHint = "the cluster test needs redis-server and redis-cli: apt-get install redis-server redis-tools"

// Cluster is a Redis Cluster of masters only, each a redis-server of its
// own on a loopback port, with the 16384 slots spread over them.
type Cluster struct {
	Nodes []*Server
}

// Addrs are the nodes' addresses.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = n.Addr()
	}
	return out
}

// clusterReady bounds the wait for every node to say cluster_state:ok.
const clusterReady = 20 * time.Second

// StartCluster starts masters redis-servers with --cluster-enabled yes,
// joins them with redis-cli --cluster create, waits until every node
// reports the cluster ok, and stops them all (by pid) in tb's cleanup.
// Without redis-server or redis-cli the test is skipped, unless CI is
// true, where that is a failure.
func StartCluster(tb testing.TB, masters int) *Cluster {
	tb.Helper()
	for _, bin := range []string{Binary, CLI} {
		if needs.Program(tb, bin, ClusterHint) == "" {
			return nil
		}
	}
	c := &Cluster{}
	tb.Cleanup(func() {
		for _, n := range c.Nodes {
			if err := n.stop(); err != nil {
				tb.Errorf("redisserver: cluster node %s: %v", n.Addr(), err)
			}
		}
	})
	for range masters {
		n, err := launchArgs(clusterPort, []string{
			"--cluster-enabled", "yes",
			"--cluster-config-file", "nodes.conf",
			"--cluster-node-timeout", "5000",
		})
		if err != nil {
			tb.Fatalf("redisserver: cluster node: %v", err)
		}
		c.Nodes = append(c.Nodes, n)
	}
	args := append([]string{"--cluster", "create"}, c.Addrs()...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	out, err := exec.Command(CLI, args...).CombinedOutput()
	if err != nil {
		tb.Fatalf("redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if err := c.awaitOK(); err != nil {
		tb.Fatalf("redisserver: %v\n--- redis-cli ---\n%s", err, out)
	}
	return c
}

// awaitOK polls CLUSTER INFO on every node until all say cluster_state:ok.
func (c *Cluster) awaitOK() error {
	deadline := time.Now().Add(clusterReady)
	for {
		var notOK []string
		for _, n := range c.Nodes {
			r, err := roundTrip(n.Addr(), time.Second, "CLUSTER", "INFO")
			if err != nil || r.Kind != resp.Bulk || infoField(r.Str, "cluster_state") != "ok" {
				notOK = append(notOK, fmt.Sprintf("%s (%v %v)", n.Addr(), r, err))
			}
		}
		if len(notOK) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("cluster not ok after " + clusterReady.String() + ": " + strings.Join(notOK, "; "))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// clusterPort is freePort for a cluster node, whose bus listens on the
// port plus 10000: both must be free.
func clusterPort() (int, error) {
	for range 20 {
		port, err := freePort()
		if err != nil {
			return 0, err
		}
		if port+10000 > 65535 {
			continue
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port+10000)))
		if err != nil {
			continue
		}
		l.Close()
		return port, nil
	}
	return 0, errors.New("find a free port pair for a cluster node: none in 20 tries")
}
