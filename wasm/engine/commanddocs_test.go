//go:build !js

package engine

import (
	"testing"

	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/docs"
	"echomq.dev/playground/wasm/resp"
)

// masked replaces the values COMMAND DOCS words in the playground's own
// words (summary, complexity, the text of history entries) with "…", so
// what is left is the shape and Redis's facts: since, group, the
// arguments with their types, tokens and flags.
func masked(r resp.Reply) resp.Reply {
	switch r.Kind {
	case resp.Map, resp.Array, resp.Set:
		out := r
		out.Elems = make([]resp.Reply, len(r.Elems))
		for i, e := range r.Elems {
			out.Elems[i] = masked(e)
		}
		for i := 0; i+1 < len(out.Elems); i++ {
			k := out.Elems[i]
			if k.Kind != resp.Bulk && k.Kind != resp.Status {
				continue
			}
			switch k.Str {
			case "summary", "complexity":
				if v := out.Elems[i+1]; v.Kind == resp.Bulk {
					out.Elems[i+1] = resp.BulkReply("…")
				}
			case "history":
				if h := out.Elems[i+1]; h.Kind == resp.Array || h.Kind == resp.Set {
					for j, entry := range h.Elems {
						if entry.Kind == resp.Array && len(entry.Elems) == 2 {
							h.Elems[j] = resp.ArrayReply(entry.Elems[0], resp.BulkReply("…"))
						}
					}
				}
			}
		}
		return out
	}
	return r
}

// TestCommandDocsHasRedisShape holds COMMAND DOCS for every command the
// lesson uses to a real Redis 7.0's reply, in RESP2 and in RESP3: the
// same shape and facts, with only the wording ours.
func TestCommandDocsHasRedisShape(t *testing.T) {
	server := redisserver.Connect(t)
	e := MustNew()
	c := e.NewClient()
	for _, proto := range []string{"2", "3"} {
		for _, conn := range []interface {
			Do(...string) (resp.Reply, error)
		}{server, c} {
			if _, err := conn.Do("HELLO", proto); err != nil {
				t.Fatal(err)
			}
		}
		for _, cmd := range docs.Commands {
			want, err := server.Do("COMMAND", "DOCS", cmd.DocName())
			if err != nil {
				t.Fatal(err)
			}
			got, _ := c.Do("COMMAND", "DOCS", cmd.DocName())
			if !masked(got).Equal(masked(want)) {
				t.Errorf("RESP%s COMMAND DOCS %s:\n got  %s\n want %s", proto, cmd.DocName(), masked(got), masked(want))
			}
		}
		// Unknown names are left out, and a repeated name is answered twice, as Redis does.
		for _, args := range [][]string{{"nosuch"}, {"hget", "HGET"}, {"script load"}} {
			want, _ := server.Do(append([]string{"COMMAND", "DOCS"}, args...)...)
			got, _ := c.Do(append([]string{"COMMAND", "DOCS"}, args...)...)
			if !masked(got).Equal(masked(want)) {
				t.Errorf("RESP%s COMMAND DOCS %q:\n got  %s\n want %s", proto, args, masked(got), masked(want))
			}
		}
	}
}
