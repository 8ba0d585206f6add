package browser

// Steps that many tests take in the round trip, as a learner takes them.

// enqueueJob types id into the round trip's "Job id", presses Enqueue, and
// waits until "Last enqueue" shows the verdict want.
func enqueueJob(r scope, id, want string) {
	r.tb.t.Helper()
	r.fill("Job id", id)
	r.clickShows("Enqueue", enqueueResult, want)
}

// claimPaused pauses the queue and presses Claim: claim/3 reads the pause
// flag first and answers :empty without running @claim.
func claimPaused(r scope) {
	r.tb.t.Helper()
	r.clickShows("Pause", queueState, "Paused")
	r.clickShows("Claim", claimResult, ":empty")
}
