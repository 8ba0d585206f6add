package api

import "strconv"

// unwaitedNote tells a learner that a blocking command (BLPOP, XREAD
// BLOCK, WAIT) found nothing and answered what Redis answers once its
// timeout of ms milliseconds passes, without waiting it: no other client
// can write while the engine waits, so waiting would only freeze the page.
// (strconv, not fmt: package init runs on every page load.)
func unwaitedNote(command string, ms int64) string {
	return "Redis would have waited " + strconv.FormatInt(ms, 10) + " ms here for another client to write, and then answered this. " +
		"In the playground no other client can write while " + command + " waits, so the wait was not waited: this is the answer Redis gives when the timeout passes."
}
