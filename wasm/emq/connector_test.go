package emq_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/resp"
)

// recorder is a Conn that writes down every command before passing it on,
// so a test can see what crossed the wire and not only what the connector
// says crossed it.
type recorder struct {
	emq.Conn
	mu   sync.Mutex
	sent [][]string
}

func (r *recorder) Do(args ...string) (resp.Reply, error) {
	r.mu.Lock()
	r.sent = append(r.sent, slices.Clone(args))
	r.mu.Unlock()
	return r.Conn.Do(args...)
}

// take returns the commands sent since the last take.
func (r *recorder) take() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.sent
	r.sent = nil
	return out
}

var noScript = resp.ErrorReply("NOSCRIPT No matching script. Please use EVAL.")

func exchange(cmd string, s *lua.Script, r resp.Reply) emq.Exchange {
	return emq.Exchange{Command: cmd, SHA: s.SHA, Reply: r}
}

func showWire(w []emq.Exchange) string {
	var b strings.Builder
	for _, x := range w {
		fmt.Fprintf(&b, "\n    %s %s -> %v", x.Command, x.SHA, x.Reply)
	}
	if b.Len() == 0 {
		return " (nothing)"
	}
	return b.String()
}

func sameWire(a, b []emq.Exchange) bool {
	return slices.EqualFunc(a, b, func(x, y emq.Exchange) bool {
		return x.Command == y.Command && x.SHA == y.SHA && x.Reply.Equal(y.Reply)
	})
}

// TestConnectorEVALSHAFirst walks the connector through the life of a
// script cache, on the engine and on a real Redis, as one transcript:
// unknown script, cached script, flushed cache.
func TestConnectorEVALSHAFirst(t *testing.T) {
	enq, claim := lua.Enqueue(), lua.Claim()
	rowKeys := []string{"emq:{q}:job:JOB1", "emq:{q}:pending"}
	claimKeys := []string{"emq:{q}:pending", "emq:{q}:active"}
	job := []string{"JOB1", "hello"}
	kindErr := resp.ErrorReply("EMQKIND job id must be JOB-namespaced")

	steps := []struct {
		desc       string
		flush      bool        // SCRIPT FLUSH first
		script     *lua.Script // nil: only check the cache
		keys, argv []string    // for script
		want       resp.Reply  // the script's reply
		wire       []emq.Exchange
		exists     []int64 // SCRIPT EXISTS enqueue claim, after the step
	}{
		{
			desc:   "a fresh server knows no script",
			exists: []int64{0, 0},
		},
		{
			desc:   "first run: EVALSHA misses, EVAL sends the source",
			script: enq, keys: rowKeys, argv: job,
			want:   resp.IntReply(1),
			wire:   []emq.Exchange{exchange("EVALSHA", enq, noScript), exchange("EVAL", enq, resp.IntReply(1))},
			exists: []int64{1, 0},
		},
		{
			desc:   "second run: EVALSHA hits, no source sent",
			script: enq, keys: rowKeys, argv: job,
			want:   resp.IntReply(0),
			wire:   []emq.Exchange{exchange("EVALSHA", enq, resp.IntReply(0))},
			exists: []int64{1, 0},
		},
		{
			desc:   "a script error through a cached script is the reply, not a retry",
			script: enq, keys: []string{"emq:{q}:job:x", "emq:{q}:pending"}, argv: []string{"x", ""},
			want:   kindErr,
			wire:   []emq.Exchange{exchange("EVALSHA", enq, kindErr)},
			exists: []int64{1, 0},
		},
		{
			desc:   "each script is cached on its own",
			script: claim, keys: claimKeys, argv: []string{"emq:{q}:job:", "1000"},
			want: resp.ArrayReply(resp.BulkReply("JOB1"), resp.BulkReply("hello"), resp.IntReply(1)),
			wire: []emq.Exchange{
				exchange("EVALSHA", claim, noScript),
				exchange("EVAL", claim, resp.ArrayReply(resp.BulkReply("JOB1"), resp.BulkReply("hello"), resp.IntReply(1))),
			},
			exists: []int64{1, 1},
		},
		{
			desc:   "SCRIPT FLUSH empties the cache",
			flush:  true,
			exists: []int64{0, 0},
		},
		{
			desc:   "after the flush: NOSCRIPT, then EVAL again",
			flush:  true,
			script: enq, keys: rowKeys, argv: job,
			want:   resp.IntReply(0),
			wire:   []emq.Exchange{exchange("EVALSHA", enq, noScript), exchange("EVAL", enq, resp.IntReply(0))},
			exists: []int64{1, 0},
		},
		{
			desc:   "an error reply from EVAL still caches the script",
			flush:  true,
			script: enq, keys: []string{"emq:{q}:job:x", "emq:{q}:pending"}, argv: []string{"x", ""},
			want:   kindErr,
			wire:   []emq.Exchange{exchange("EVALSHA", enq, noScript), exchange("EVAL", enq, kindErr)},
			exists: []int64{1, 0},
		},
	}

	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			rec := &recorder{Conn: srv.open(t)}
			conn := emq.NewConnector(rec)
			if conn.Conn() != emq.Conn(rec) {
				t.Errorf("Connector.Conn() is not the connection it was made with")
			}
			for i, st := range steps {
				if st.flush {
					wantReply(t, rec, resp.OK(), "SCRIPT", "FLUSH")
				}
				rec.take()
				if st.script != nil {
					got, wire, err := conn.Eval(st.script, st.keys, st.argv)
					if err != nil {
						t.Fatalf("step %d, %s: Eval error %v", i, st.desc, err)
					}
					if !got.Equal(st.want) {
						t.Errorf("step %d, %s: reply\n got: %v\nwant: %v", i, st.desc, got, st.want)
					}
					if !sameWire(wire, st.wire) {
						t.Errorf("step %d, %s: exchanges\n got:%s\nwant:%s", i, st.desc, showWire(wire), showWire(st.wire))
					}
					// What the connector reports is what it sent, argument
					// for argument.
					if got, want := rec.take(), sentFor(st.script, st.wire, st.keys, st.argv); !slices.EqualFunc(got, want, slices.Equal) {
						t.Errorf("step %d, %s: commands sent\n got: %s\nwant: %s", i, st.desc, showCommands(got), showCommands(want))
					}
				}
				wantReply(t, rec, resp.ArrayReply(resp.IntReply(st.exists[0]), resp.IntReply(st.exists[1])),
					"SCRIPT", "EXISTS", enq.SHA, claim.SHA)
			}
		})
	}
}

// sentFor is the commands that carry wire: EVALSHA by SHA, EVAL by source,
// each with the number of keys, the keys, then the arguments.
func sentFor(s *lua.Script, wire []emq.Exchange, keys, argv []string) [][]string {
	var out [][]string
	for _, x := range wire {
		head := s.SHA
		if x.Command == "EVAL" {
			head = s.Source
		}
		cmd := append([]string{x.Command, head, fmt.Sprint(len(keys))}, keys...)
		out = append(out, append(cmd, argv...))
	}
	return out
}

func showCommands(cmds [][]string) string {
	parts := make([]string, len(cmds))
	for i, c := range cmds {
		parts[i] = "[" + redisdiff.ShowCommand(c) + "]"
	}
	return strings.Join(parts, " ")
}

// fakeConn answers from a script of replies and errors, one per command,
// and records what it was asked.
type fakeConn struct {
	answers []fakeAnswer
	sent    [][]string
}

type fakeAnswer struct {
	reply resp.Reply
	err   error
}

func (f *fakeConn) Do(args ...string) (resp.Reply, error) {
	f.sent = append(f.sent, slices.Clone(args))
	if len(f.answers) == 0 {
		return resp.Reply{}, errors.New("fakeConn: no answer left for " + redisdiff.ShowCommand(args))
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	return a.reply, a.err
}

var errLinkDown = errors.New("connection reset by peer")

func TestConnectorOverABrokenConnection(t *testing.T) {
	s := lua.Enqueue()
	for _, tc := range []struct {
		desc      string
		answers   []fakeAnswer
		wantErr   error
		wantReply resp.Reply
		wantWire  []emq.Exchange
		wantSent  []string // command names, in order
	}{
		{
			desc:     "EVALSHA fails in transport: the error, and no EVAL",
			answers:  []fakeAnswer{{err: errLinkDown}},
			wantErr:  errLinkDown,
			wantSent: []string{"EVALSHA"},
		},
		{
			desc:     "EVAL after NOSCRIPT fails in transport: the error, with the EVALSHA exchange kept",
			answers:  []fakeAnswer{{reply: noScript}, {err: errLinkDown}},
			wantErr:  errLinkDown,
			wantWire: []emq.Exchange{exchange("EVALSHA", s, noScript)},
			wantSent: []string{"EVALSHA", "EVAL"},
		},
		{
			desc:      "an error reply that is not NOSCRIPT is returned as the reply, with no EVAL",
			answers:   []fakeAnswer{{reply: resp.ErrorReply("BUSY Redis is busy running a script.")}},
			wantReply: resp.ErrorReply("BUSY Redis is busy running a script."),
			wantWire:  []emq.Exchange{exchange("EVALSHA", s, resp.ErrorReply("BUSY Redis is busy running a script."))},
			wantSent:  []string{"EVALSHA"},
		},
		{
			desc:      "an error that only starts like NOSCRIPT is not NOSCRIPT",
			answers:   []fakeAnswer{{reply: resp.ErrorReply("NOSCRIPTS elsewhere")}},
			wantReply: resp.ErrorReply("NOSCRIPTS elsewhere"),
			wantWire:  []emq.Exchange{exchange("EVALSHA", s, resp.ErrorReply("NOSCRIPTS elsewhere"))},
			wantSent:  []string{"EVALSHA"},
		},
		{
			desc:      "NOSCRIPT twice: the second is the reply, no third try",
			answers:   []fakeAnswer{{reply: noScript}, {reply: noScript}},
			wantReply: noScript,
			wantWire:  []emq.Exchange{exchange("EVALSHA", s, noScript), exchange("EVAL", s, noScript)},
			wantSent:  []string{"EVALSHA", "EVAL"},
		},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			f := &fakeConn{answers: tc.answers}
			got, wire, err := emq.NewConnector(f).Eval(s, []string{"k1", "k2"}, []string{"JOB1", "p"})
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("error = %v, want %v", err, tc.wantErr)
			}
			if !got.Equal(tc.wantReply) {
				t.Errorf("reply = %v, want %v", got, tc.wantReply)
			}
			if !sameWire(wire, tc.wantWire) {
				t.Errorf("exchanges\n got:%s\nwant:%s", showWire(wire), showWire(tc.wantWire))
			}
			var names []string
			for _, c := range f.sent {
				names = append(names, c[0])
			}
			if !slices.Equal(names, tc.wantSent) {
				t.Errorf("commands sent = %q, want %q", names, tc.wantSent)
			}
		})
	}
}
