package emq_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/emq"
)

// crc16 is the CRC Redis Cluster hashes keys with: CRC16-CCITT in its
// XMODEM form (polynomial 0x1021, initial value 0, no reflection, no final
// xor). It is written bit by bit on purpose, to stay obviously correct.
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc ^= uint16(s[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}

// keySlot is Redis Cluster's slot of key (cluster.c keyHashSlot): when the
// key has a '{' followed later by a '}' with at least one byte between
// them, only the bytes between the first '{' and the first '}' after it are
// hashed; otherwise the whole key is.
func keySlot(key string) int {
	hashed := key
	for s := 0; s < len(key); s++ {
		if key[s] != '{' {
			continue
		}
		for e := s + 1; e < len(key); e++ {
			if key[e] == '}' {
				if e > s+1 {
					hashed = key[s+1 : e]
				}
				break
			}
		}
		break
	}
	return int(crc16(hashed) & 16383)
}

func TestCRC16AndKeySlotMatchRedis(t *testing.T) {
	if got, want := crc16("123456789"), uint16(0x31C3); got != want {
		t.Fatalf("crc16(\"123456789\") = %#04x, want %#04x", got, want)
	}
	// Slots Redis documents or answers with CLUSTER KEYSLOT.
	for _, tc := range []struct {
		key  string
		want int
	}{
		{"foo", 12182},
		{"bar", 5061},
		{"123456789", 0x31C3 & 16383},
		{"{foo}", 12182},
		{"{foo}bar", 12182},
		{"a{foo}b", 12182},
		{"{foo}{bar}", 12182},
		{"{}foo", keySlotOfWhole("{}foo")},
		{"foo{}{bar}", keySlotOfWhole("foo{}{bar}")},
		{"foo{{bar}}zap", int(crc16("{bar") & 16383)},
		{"foo{bar}{zap}", 5061},
	} {
		if got := keySlot(tc.key); got != tc.want {
			t.Errorf("keySlot(%q) = %d, want %d", tc.key, got, tc.want)
		}
	}
	a, b := keySlot("{user1000}.following"), keySlot("{user1000}.followers")
	if a != b {
		t.Errorf("{user1000}.following in slot %d, {user1000}.followers in slot %d: want one slot", a, b)
	}
	if a == keySlot("user1000.following") && keySlot("user1000.following") == keySlot("user1000.followers") {
		t.Errorf("without the tag both keys still share slot %d: the check above proves nothing", a)
	}
}

func keySlotOfWhole(key string) int { return int(crc16(key) & 16383) }

func TestKeyNamesAreTheCourses(t *testing.T) {
	k, err := emq.KeyspaceFor("q")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		desc      string
		got, want string
	}{
		{"row", k.Job("JOB1"), "emq:{q}:job:JOB1"},
		{"row base", k.JobBase(), "emq:{q}:job:"},
		{"pending", k.Pending(), "emq:{q}:pending"},
		{"active", k.Active(), "emq:{q}:active"},
		{"paused", k.Paused(), "emq:{q}:paused"},
		{"pattern", k.JobPattern(), "emq:{q}:job:*"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.desc, tc.got, tc.want)
		}
	}
}

func TestEmptyQueueNameIsRefused(t *testing.T) {
	_, err := emq.KeyspaceFor("")
	if !errors.Is(err, emq.ErrQueueName) {
		t.Fatalf("KeyspaceFor(\"\") error = %v, want ErrQueueName", err)
	}
}

// queueNames are names a learner may type: ordinary, with the hash-tag
// braces, with glob characters, with bytes that are not text.
var queueNames = []string{
	"q", "emails", "a}b", "{x}", "{", "}", "}x", "x}", "{}", "a{b}c", "q}:job:JOB",
	"q*", "q?x", "[q]", "q\\", "with space", "tab\there",
	"ünïcödé", "队列", "🚀", "nul\x00byte", "\xff\xfe", "q\xffx",
}

var jobIDs = []string{"JOB1", "JOB", "JOB{x}", "JOB}", "JOB{", "x", "", "JOB\x00", "JOB🚀", "JOB\xff"}

// TestEveryKeyOfAQueueSharesOneSlot is the promise that makes the scripts
// run on a Redis Cluster: all the keys one script touches hash to one slot.
// A name that cannot keep the promise must be refused with ErrQueueName.
func TestEveryKeyOfAQueueSharesOneSlot(t *testing.T) {
	for _, queue := range queueNames {
		t.Run(fmt.Sprintf("%q", queue), func(t *testing.T) {
			k, err := emq.KeyspaceFor(queue)
			if err != nil {
				if !errors.Is(err, emq.ErrQueueName) {
					t.Fatalf("KeyspaceFor(%q) error = %v, want nil or ErrQueueName", queue, err)
				}
				return // refused: no keys, nothing to scatter
			}
			want := keySlot(k.Pending())
			keys := []string{k.Active(), k.Paused(), k.JobBase()}
			for _, id := range jobIDs {
				keys = append(keys, k.Job(id))
			}
			var strays []string
			for _, key := range keys {
				if got := keySlot(key); got != want {
					strays = append(strays, fmt.Sprintf("%q@%d", key, got))
				}
			}
			if len(strays) > 0 {
				t.Errorf("%q is in slot %d but %d other keys of the queue are not, e.g. %s",
					k.Pending(), want, len(strays), strings.Join(strays[:min(3, len(strays))], ", "))
			}
		})
	}
}

// TestKeysOfDistinctQueuesNeverCollide: two different (queue, id) pairs
// must never name the same row, or one queue would read and overwrite
// another's jobs. Names that make that impossible to guarantee must be
// refused.
func TestKeysOfDistinctQueuesNeverCollide(t *testing.T) {
	type owner struct{ queue, id, what string }
	seen := map[string]owner{}
	for _, queue := range queueNames {
		k, err := emq.KeyspaceFor(queue)
		if err != nil {
			continue
		}
		keys := map[string]owner{
			k.Pending(): {queue, "", "pending"},
			k.Active():  {queue, "", "active"},
			k.Paused():  {queue, "", "paused"},
		}
		for _, id := range append(slices.Clone(jobIDs), "JOB}:job:JOB", "JOB}:job:JOB1") {
			keys[k.Job(id)] = owner{queue, id, "row"}
		}
		for _, key := range slices.Sorted(maps.Keys(keys)) {
			o := keys[key]
			if prev, dup := seen[key]; dup && prev != o {
				t.Errorf("%q is both %s of queue %q (id %q) and %s of queue %q (id %q)",
					key, prev.what, prev.queue, prev.id, o.what, o.queue, o.id)
			}
			seen[key] = o
		}
	}
}

// TestJobPatternMatchesOnlyItsQueue runs KEYS with each queue's pattern on
// a real server that holds rows of several queues whose names are glob
// patterns of one another, and of a queue that is not text.
func TestJobPatternMatchesOnlyItsQueue(t *testing.T) {
	c := startRedis(t)
	queues := []string{"q", "q*", "qq", "q?x", "qax", "[q]", "q\\", "q\\x", "q\xffx", "q\xfex"}
	rows := map[string][]string{} // queue -> its row keys
	for _, queue := range queues {
		k, err := emq.KeyspaceFor(queue)
		if err != nil {
			t.Fatalf("KeyspaceFor(%q): %v", queue, err)
		}
		for _, id := range []string{"JOB1", "JOB2"} {
			mustDo(t, c, "HSET", k.Job(id), "state", "pending")
			rows[queue] = append(rows[queue], k.Job(id))
		}
		// Keys of the queue that are not rows must not match either.
		mustDo(t, c, "ZADD", k.Pending(), "0", "JOB1")
		mustDo(t, c, "SET", k.Paused(), "1")
	}
	for _, queue := range queues {
		t.Run(fmt.Sprintf("%q", queue), func(t *testing.T) {
			k, _ := emq.KeyspaceFor(queue)
			got := strs(t, mustDo(t, c, "KEYS", k.JobPattern()))
			sort.Strings(got)
			want := slices.Clone(rows[queue])
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("KEYS %+q\n got: %q\nwant: %q", k.JobPattern(), got, want)
			}
		})
	}
}
