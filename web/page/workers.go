package page

import "strings"

// Workers is the view of the "two workers" widget: worker A and worker B
// claim from one queue, and the learner chooses the order in which the
// server hears their commands. It works on a queue of its own, so that a
// race does not move the jobs of the lesson's queue.
type Workers struct {
	// Queue is the widget's own queue, apart from Widgets.Queue.
	Queue string
	// LeaseMS is the lease both workers ask for.
	LeaseMS int64
	// Jobs are the ids "Fill the queue" enqueues, oldest first.
	Jobs []string
	// Payload is what every one of those jobs carries.
	Payload string
	// Split is the claim of a client that sends @claim's work as separate
	// commands, one entry per step the learner can give a worker.
	Split []SplitStep
	// Optimistic is the claim of a client that uses WATCH, MULTI and EXEC
	// for @claim's work, one entry per step.
	Optimistic []SplitStep
}

// SplitStep is one step of the non-atomic claim: what the worker sends
// between two turns of the other worker.
type SplitStep struct {
	N     int
	Name  string // a word for the step: read, remove, lease
	Sends string // the commands, with <id> for the id the worker read
	Does  string // what the step means, in the page's words
}

// DefaultWorkers is the widget as build.sh renders it. The split claim
// mirrors claim.lua move by move: ZPOPMIN becomes ZRANGE then ZREM, and
// the lease is written with the same commands, in the same order.
func DefaultWorkers() Workers {
	return Workers{
		Queue:   "race",
		LeaseMS: 30000,
		Jobs:    []string{"JOB-1", "JOB-2", "JOB-3"},
		Payload: `{"task":"race"}`,
		Split: []SplitStep{
			{N: 1, Name: "read", Sends: "ZRANGE pending 0 0", Does: "Read the oldest pending id."},
			{N: 2, Name: "remove", Sends: "ZREM pending <id>", Does: "Remove it, and never look at the reply."},
			{N: 3, Name: "lease", Sends: "HINCRBY, HSET, TIME, ZADD active", Does: "Write the lease as @claim does."},
		},
		Optimistic: []SplitStep{
			{N: 1, Name: "watch", Sends: "WATCH pending", Does: "Watch the pending set."},
			{N: 2, Name: "read", Sends: "ZRANGE pending 0 0", Does: "Read the oldest pending id."},
			{N: 3, Name: "queue", Sends: "TIME, MULTI, ZREM, HINCRBY, HSET, ZADD active", Does: "Read the clock, then queue @claim's four writes; each answers QUEUED."},
			{N: 4, Name: "exec", Sends: "EXEC", Does: "Run them. If EXEC answers nil, nothing ran: UNWATCH, and start again."},
		},
	}
}

// jobList is the widget's jobs as the page writes them in a data attribute:
// ids separated by spaces (a JOB id holds none).
func (w Workers) jobList() string { return strings.Join(w.Jobs, " ") }

// jobWords are the jobs in a sentence: "JOB-1, JOB-2 and JOB-3".
func (w Workers) jobWords() string {
	switch n := len(w.Jobs); n {
	case 0:
		return "no job"
	case 1:
		return w.Jobs[0]
	default:
		return strings.Join(w.Jobs[:n-1], ", ") + " and " + w.Jobs[n-1]
	}
}

// Plan is one way a worker claims, as its panel lists it: the mode the
// radios choose it by, the word the list's label uses, and its steps.
type Plan struct {
	Mode  string // split, optimistic or atomic, as in data-mode
	Words string // "non-atomic", "optimistic", "atomic"
	Steps []SplitStep
}

// plans are the three claims every worker's panel lists, in the radios'
// order; the page shows the first until the learner picks another. The
// atomic claim is one step: the whole of @claim.
func (w Workers) plans() []Plan {
	return []Plan{
		{Mode: "split", Words: "non-atomic", Steps: w.Split},
		{Mode: "optimistic", Words: "optimistic", Steps: w.Optimistic},
		{Mode: "atomic", Words: "atomic", Steps: []SplitStep{
			{N: 1, Name: "claim", Sends: "EVALSHA @claim", Does: "Pop, count, mark and lease, in one script."},
		}},
	}
}

// workerID is the id of a part of worker a's or b's panel.
func workerID(worker, part string) string { return "workers-" + worker + "-" + part }
