package browser

import "testing"

const claimExplain = "#roundtrip-claim-explain"

// TestLastClaimFollowsTheClock: the round trip's "Last claim" says when
// the lease ends, and after Advance past it, that it has expired and that
// the job stays in active until something reclaims it, as the active
// table does; it never keeps saying "in 30 s".
func TestLastClaimFollowsTheClock(t *testing.T) {
	tb := openReady(t, "/")
	r := tb.in("#roundtrip")
	enqueueJob(r, "JOB-7", "{:ok, :enqueued}")
	r.fill("Lease (ms)", "30000")
	r.clickShows("Claim", claimResult, `{:ok, {"JOB-7"`)
	r.wantText(claimExplain, "Leased JOB-7 until "+deadline, "the lease ends in 30 s on the server clock")

	r.fill("Advance by (ms)", "35000")
	r.click("Advance")
	r.wantRows(activeKey, [][]string{{"JOB-7", deadline, "expired 5 s ago"}})
	r.wantText(claimExplain, "that lease expired 5 s ago on the server clock", "stays in active until something reclaims")
	r.wantNoText(claimExplain, "in 30 s")
}
