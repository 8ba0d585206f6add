package api

import (
	"fmt"
	"testing"
)

// The snapshot says where a Redis Cluster would put the queue's keys, for
// the round trip's slot line: every key in the tag's slot, and the same
// keys without the tag in slots of their own.
func TestSnapshotSaysWhereAClusterPutsTheQueue(t *testing.T) {
	got := call(t, New(), "snapshot", "q")["slots"]
	want := `map[keys:[map[key:emq:{q}:job:… slot:11958] map[key:emq:{q}:pending slot:11958] map[key:emq:{q}:active slot:11958] map[key:emq:{q}:paused slot:11958]] tag:{q} untagged:[map[key:emq:q:pending slot:12535] map[key:emq:q:active slot:12312]]]`
	if fmt.Sprint(got) != want {
		t.Errorf("slots = %v\nwant    %s", got, want)
	}
	// ?queue=emails: the page's slot line for that queue. (wasm/emq's
	// cluster test asks a real cluster for these slots.)
	emails := fmt.Sprint(call(t, New(), "snapshot", "emails")["slots"])
	if want := `map[keys:[map[key:emq:{emails}:job:… slot:3728] map[key:emq:{emails}:pending slot:3728] map[key:emq:{emails}:active slot:3728] map[key:emq:{emails}:paused slot:3728]] tag:{emails} untagged:[map[key:emq:emails:pending slot:7992] map[key:emq:emails:active slot:7426]]]`; emails != want {
		t.Errorf("slots of emails = %v\nwant             %s", emails, want)
	}
}
