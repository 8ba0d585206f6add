package engine

import "testing"

func TestClusterKeyslotAnswersAsAClusterNode(t *testing.T) {
	e := MustNew()
	for _, tc := range []struct{ key, want string }{
		// Slots redis-server answers in cluster mode (see also the cluster
		// test in wasm/emq, which asks a real one).
		{"emq:{q}:pending", "(integer) 11958"},
		{"emq:{q}:active", "(integer) 11958"},
		{"emq:{q}:job:JOB-1", "(integer) 11958"},
		{"q", "(integer) 11958"},
		{"foo", "(integer) 12182"},
		{"123456789", "(integer) 12739"},
		{"{}foo", "(integer) 9500"},
		{"", "(integer) 0"},
	} {
		do(t, e, tc.want, "CLUSTER", "KEYSLOT", tc.key)
	}
	do(t, e, "(error) ERR wrong number of arguments for 'cluster|keyslot' command", "CLUSTER", "KEYSLOT")
	do(t, e, "(error) ERR wrong number of arguments for 'cluster|keyslot' command", "CLUSTER", "keyslot", "a", "b")
}
