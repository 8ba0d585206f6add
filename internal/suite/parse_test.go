package suite

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// output is the test server's output in the shapes it takes, as a run
// against the engine printed them (trimmed).
const output = "** SLOW COMPUTER ** Using a single client to avoid false positives.\n" +
	"Cleanup: may take some time... OK\n" +
	"Starting test server at port 20032\n" +
	"[ready]: 19468\n" +
	"Testing unit/type/set\n" +
	"[ok]: SADD basics - regular set (1 ms)\n" +
	"[\x1b[0;32;49mok\x1b[0m]: SADD basics - intset (0 ms)\n" +
	"[ignore]: Set encoding after DEBUG RELOAD: Tag: needs:debug denied\n" +
	"[ignore]: Not supported on external server\n" +
	"[ignore]: MOVE basic usage: Not supported on singledb\n" +
	"[err]: SINTERCARD with illegal arguments in tests/unit/type/set.tcl\n" +
	"Expected 'ERR value is not an integer or out of range' to match 'ERR LIMIT*' (context: type source line 87)\n" +
	"[ok]: SINTERCARD against non-set should throw error (0 ms)\n" +
	"[err]: SMOVE wrong src key type in tests/unit/type/set.tcl\n" +
	"nown command 'SMOVE'\n" +
	"ERR unknown command 'SMOVE'\n" +
	"    while executing\n" +
	"\"r smove x y z\"\n" +
	"[skip]: SRANDMEMBER count overflow\n" +
	"[ok]: SADD basics - regular set (2 ms)\n" +
	"[err]: replication_stream error. Received '-ERR unknown command 'SYNC'' as count.\n" +
	"attach_to_replication_stream error. Received '-ERR unknown command 'SYNC'' as count.\n" +
	"    while executing\n" +
	"[ok]: SADD basics - intset (0 ms)\n" +
	"[1/1 done]: unit/type/set (47 seconds)\n" +
	"\n                   The End\n\n" +
	"!!! WARNING The following tests failed:\n\n" +
	"*** [err]: SINTERCARD with illegal arguments in tests/unit/type/set.tcl\n"

func TestParse(t *testing.T) {
	res, hung := parse("type/set", strings.NewReader(output))
	want := []Test{
		{Name: "SADD basics - regular set", Outcome: OK},
		{Name: "SADD basics - intset", Outcome: OK},
		{Name: "Set encoding after DEBUG RELOAD", Outcome: Ignored, Detail: "Tag: needs:debug denied"},
		{Name: "MOVE basic usage", Outcome: Ignored, Detail: "Not supported on singledb"},
		{Name: "SINTERCARD with illegal arguments", Outcome: Err, Detail: "Expected 'ERR value is not an integer or out of range' to match 'ERR LIMIT*' (context: type source line 87)"},
		{Name: "SINTERCARD against non-set should throw error", Outcome: OK},
		{Name: "SMOVE wrong src key type", Outcome: Exception, Detail: "ERR unknown command 'SMOVE'"},
		{Name: "SRANDMEMBER count overflow", Outcome: Skipped},
		{Name: "SADD basics - regular set #2", Outcome: OK},
		{Name: "SADD basics - intset #2", Outcome: OK},
	}
	if !slices.Equal(res.Tests, want) {
		t.Errorf("tests:\ngot  %q\nwant %q", res.Tests, want)
	}
	if got, want := res.Stopped, []string{"a block of tests stopped: attach_to_replication_stream error. Received '-ERR unknown command 'SYNC'' as count."}; !slices.Equal(got, want) {
		t.Errorf("stopped: got %q, want %q", got, want)
	}
	if hung != "" {
		t.Errorf("hung: got %q, want none", hung)
	}
}

func TestParseStops(t *testing.T) {
	tests := []struct {
		desc, out   string
		stopped     []string
		hung        string
		wantTests   int
		wantOutcome Outcome
	}{
		{
			desc: "an error outside any test ends the unit",
			out: "Testing unit/type/incr\n[exception]: Executing test client: ERR function is not available in the playground.\n" +
				"ERR function is not available in the playground\n    while executing\n\"r function flush\"\n",
			stopped: []string{"the unit stopped: ERR function is not available in the playground"},
		},
		{
			desc: "the suite's timeout names the test in progress",
			out: "Testing unit/type/hash\n[ok]: HSET (1 ms)\n[TIMEOUT]: clients state report follows.\n" +
				"sock55fdb1679d80 => (IN PROGRESS) HRANDFIELD count overflow\nKilling still running Redis server 123\n",
			hung: "HRANDFIELD count overflow", wantTests: 1, wantOutcome: OK,
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			res, hung := parse("x", strings.NewReader(tt.out))
			if !slices.Equal(res.Stopped, tt.stopped) || hung != tt.hung || len(res.Tests) != tt.wantTests {
				t.Errorf("got stopped %q, hung %q, %d tests; want %q, %q, %d", res.Stopped, hung, len(res.Tests), tt.stopped, tt.hung, tt.wantTests)
			}
			if tt.wantTests > 0 && res.Tests[0].Outcome != tt.wantOutcome {
				t.Errorf("first test: %v, want %v", res.Tests[0].Outcome, tt.wantOutcome)
			}
		})
	}
}

// TestSkipFile holds the committed skip file to its rules: every entry has
// a reason, and names a test that passes on Redis (an entry that names
// nothing skips nothing, and says something false).
func TestSkipFile(t *testing.T) {
	rec, err := ReadRecord("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rec.Skips {
		found := false
		for _, names := range rec.Passing["redis"] {
			for _, n := range names {
				found = found || s.Matches(n)
			}
		}
		if !found && len(rec.Passing["redis"]) > 0 {
			t.Errorf("skip.txt: %q names no test that passes on Redis", s.Pattern)
		}
	}
}

func TestReadSkips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "skip.txt")
	text := "# free text, naming no test\n\n# needs DEBUG:\n# it reloads.\nA test\n/^B t.st$\n\n# replication\nC test\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSkips(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Skip{{"A test", "needs DEBUG: it reloads."}, {"/^B t.st$", "needs DEBUG: it reloads."}, {"C test", "replication"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !want[1].Matches("B test #2") || want[1].Matches("B tests") {
		t.Errorf("a /regexp entry matches every test of its name, and only those")
	}
	if err := os.WriteFile(path, []byte("# reason\nA\n\nB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSkips(path); err == nil {
		t.Errorf("a test without a reason above it was taken")
	}
}
