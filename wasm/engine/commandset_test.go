package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestKnowsRedis70sCommands is the class check for commands Redis 7.0
// does not have: every name miniredis registers (read from its source)
// and every name of Redis 7.0.15's own table (arity.txt, which
// TestArityTableIsRedis holds to a live server's COMMAND) is sent to the
// engine, and the engine must call a name unknown exactly when Redis 7.0
// does not have it. miniredis v2.40.0 answers commands of later releases
// (HEXPIRE, HSETEX...), which a learner of Redis 7.0 must not meet.
func TestKnowsRedis70sCommands(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alicebob/miniredis/v2").Output()
	if err != nil {
		t.Skipf("go list of miniredis: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "*.go"))
	register := regexp.MustCompile(`\.Register\("([A-Za-z_]+)"`)
	names := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range register.FindAllStringSubmatch(string(src), -1) {
			names[strings.ToUpper(m[1])] = true
		}
	}
	if len(names) < 150 {
		t.Fatalf("found %d names registered in miniredis's source: the pattern no longer reads it", len(names))
	}
	for n := range redisTable() {
		names[n] = true
	}
	for n := range commandRoutes() {
		names[n] = true
	}
	var wrong []string
	e := MustNew()
	for n := range names {
		r, _ := e.Do(callOf(n)...)
		unknown := r.IsError() && strings.HasPrefix(r.Str, "ERR unknown command '")
		if inRedis := redisTable()[n] != nil; unknown == inRedis && !notYet[n] {
			wrong = append(wrong, n+" ("+r.Str+")")
		}
	}
	slices.Sort(wrong)
	if len(wrong) > 0 {
		t.Errorf("the engine knows a command Redis 7.0 lacks, or calls one it has unknown:\n  %s", strings.Join(wrong, "\n  "))
	}
}

// notYet are Redis 7.0's commands the engine does not have yet: ACL,
// modules and replication have nothing to act on here, and the data
// commands are other work's.
var notYet = map[string]bool{
	"ACL": true, "MODULE": true, "MIGRATE": true, "PSYNC": true, "REPLCONF": true, "REPLICAOF": true, "SLAVEOF": true,
	"SYNC": true, "SPUBLISH": true, "LOLWUT": true, "XSETID": true, "LATENCY": true, "RESTORE-ASKING": true, "FAILOVER": true,
}

// callOf is a call of the command called name that Redis's arity check
// lets through (a container's with its first subcommand), so that a
// command the engine lacks meets dispatch and is called unknown; its
// arguments are dummies.
func callOf(name string) []string {
	call := []string{name}
	c := redisTable()[name]
	if c == nil {
		return call
	}
	if c.subs != nil {
		var subs []string
		for s := range c.subs {
			subs = append(subs, s)
		}
		slices.Sort(subs)
		call = append(call, subs[0])
		c = c.subs[subs[0]]
	}
	for len(call) < max(c.arity, -c.arity) {
		call = append(call, "x")
	}
	return call
}
