package redisserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestClusterHasThreeMastersAndStopsThem(t *testing.T) {
	var pids []int
	t.Run("cluster", func(t *testing.T) {
		c := StartCluster(t, 3)
		for _, n := range c.Nodes {
			pids = append(pids, n.PID())
		}
		r, err := roundTrip(c.Nodes[0].Addr(), time.Second, "CLUSTER", "INFO")
		if err != nil {
			t.Fatal(err)
		}
		for field, want := range map[string]string{"cluster_state": "ok", "cluster_known_nodes": "3", "cluster_size": "3", "cluster_slots_assigned": "16384"} {
			if got := infoField(r.Str, field); got != want {
				t.Errorf("CLUSTER INFO %s = %q, want %q", field, got, want)
			}
		}
	})
	if len(pids) == 0 {
		t.Skip("the subtest started no cluster")
	}
	for _, pid := range pids {
		if processAlive(pid) {
			t.Errorf("cluster node pid %d still running after the subtest's cleanup", pid)
		}
	}
}

// TestClusterNeedsRedisCLI: with redis-server in PATH but no redis-cli,
// StartCluster skips outside CI and fails in it, naming redis-tools.
func TestClusterNeedsRedisCLI(t *testing.T) {
	bin, err := exec.LookPath(Binary)
	if err != nil {
		t.Skip("no redis-server to leave in PATH")
	}
	dir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, Binary)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, ci := range []string{"", "true"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			f := &fakeTB{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				StartCluster(f, 3)
			}()
			<-done
			if want := ci == "true"; f.failed != want || f.skipped == want {
				t.Fatalf("failed=%v skipped=%v, want failed=%v", f.failed, f.skipped, want)
			}
			if !strings.Contains(f.msg, "redis-cli") || !strings.Contains(f.msg, "redis-tools") {
				t.Errorf("message %q names neither redis-cli nor redis-tools", f.msg)
			}
		})
	}
}
