// Package emq holds the handles of the EchoMQ course, named as the course
// names them: Keyspace builds the keys, Connector runs a script EVALSHA
// first, and Jobs is the producer's and the worker's API (enqueue, claim,
// pause, resume). The handles only build keys and arguments and map replies
// to verdicts; the transitions themselves are the Lua scripts in lua/.
//
// They talk to a Conn, so the same code drives the in-memory engine in the
// browser and a real redis-server in the tests.
package emq

import (
	"errors"
	"strings"
)

// Keyspace builds every key of one queue. Each key carries the queue name
// as a hash tag, emq:{q}:..., so all of a queue's keys live in one Redis
// Cluster slot and a script may touch them together.
type Keyspace struct {
	Queue string
}

// ErrQueueName is returned for a queue name that cannot be a hash tag.
var ErrQueueName = errors.New("queue name must be non-empty and hold no { or }")

// KeyspaceFor returns the keyspace of queue. Redis hashes only the text
// between the first { and the next }, so a name that is empty or holds a
// brace would break the tag: "}x" gives emq:{}x}:..., an empty tag, and the
// queue's keys scatter over slots; "q}:job:JOB" would let one queue's keys
// spell another queue's rows. Such names are refused.
func KeyspaceFor(queue string) (Keyspace, error) {
	if queue == "" || strings.ContainsAny(queue, "{}") {
		return Keyspace{}, ErrQueueName
	}
	return Keyspace{Queue: queue}, nil
}

func (k Keyspace) prefix() string { return "emq:{" + k.Queue + "}:" }

// Job is the key of one job's row: emq:{q}:job:<id>.
func (k Keyspace) Job(id string) string { return k.JobBase() + id }

// JobBase is the row key without the id, emq:{q}:job:, which @claim
// receives so it can build the key of the id it pops.
func (k Keyspace) JobBase() string { return k.prefix() + "job:" }

// Pending is the sorted set of ids waiting to be claimed, all at score 0.
func (k Keyspace) Pending() string { return k.prefix() + "pending" }

// Active is the sorted set of claimed ids, scored by lease deadline (ms).
func (k Keyspace) Active() string { return k.prefix() + "active" }

// Paused is the queue-wide pause flag; the queue is paused while it exists.
func (k Keyspace) Paused() string { return k.prefix() + "paused" }

// JobPattern is a KEYS/SCAN pattern that matches exactly this queue's rows,
// with the glob characters of the queue name escaped.
func (k Keyspace) JobPattern() string {
	base := k.JobBase()
	var b strings.Builder
	// Byte by byte, as Redis matches: a name that is not valid UTF-8 must
	// keep its bytes.
	for i := 0; i < len(base); i++ {
		switch base[i] {
		case '*', '?', '[', ']', '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(base[i])
	}
	b.WriteByte('*')
	return b.String()
}
