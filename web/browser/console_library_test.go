package browser

import (
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// TestConsoleLoadsTheCourseLibrary: the console's Load button loads the
// course's scripts as a Redis 7.0 function library, typing its FUNCTION
// LOAD line for the learner; then FCALL enqueue and FCALL claim run the
// scripts by name, the other widgets follow the queue, and ↑ recalls the
// line the button sent.
func TestConsoleLoadsTheCourseLibrary(t *testing.T) {
	tb := openReady(t, "/")
	c := tb.in("#console")

	typeLine(c, "FCALL claim 2 emq:{q}:pending emq:{q}:active emq:{q}:job: 30000")
	wantOut(c, "(error) ERR Function not found")

	c.click("Load them as a library")
	c.wantText(lastEntry, "redis> FUNCTION LOAD REPLACE ", "#!lua name=emq", "redis.register_function('claim', function(KEYS, ARGV)")
	wantOut(c, `"emq"`)

	typeLine(c, `FCALL enqueue 2 emq:{q}:job:JOB-000007 emq:{q}:pending JOB-000007 "{\"task\":\"fcall\"}"`)
	wantOut(c, "(integer) 1")
	typeLine(c, `FCALL enqueue 2 emq:{q}:job:JOB-000007 emq:{q}:pending JOB-000007 again`)
	wantOut(c, "(integer) 0")
	typeLine(c, "FCALL enqueue 2 emq:{q}:job:X-1 emq:{q}:pending X-1 p")
	wantOut(c, "(error) EMQKIND job id must be JOB-namespaced")
	tb.in("#roundtrip").wantRows(pendingKey, [][]string{{"JOB-000007", "0"}})

	typeLine(c, "FCALL claim 2 emq:{q}:pending emq:{q}:active emq:{q}:job: 30000")
	wantOut(c, "1) \"JOB-000007\"\n2) \"{\\\"task\\\":\\\"fcall\\\"}\"\n3) (integer) 1")
	typeLine(c, "HGET emq:{q}:job:JOB-000007 state")
	wantOut(c, `"active"`)

	// Six lines back, past the five typed since: the line the button sent.
	for range 6 {
		c.press(kb.ArrowUp)
	}
	if got := c.value("Command"); len(got) < 40 || got[:22] != "FUNCTION LOAD REPLACE " {
		t.Errorf("↑ recalls %.60q, not the button's FUNCTION LOAD line", got)
	}
}
