package engine

import (
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/docs"
	"echomq.dev/playground/wasm/resp"
)

// commandDocs answers COMMAND DOCS [name ...] for the commands the lesson
// uses, in the reply shape of Redis 7.0: a map from each command's name to
// a map of summary, since, group, complexity, history and arguments (an
// array in RESP2, as Redis sends it). since, group and the arguments are
// Redis's facts; the summary, the complexity and the history are worded
// by the playground (wasm/docs). A name the playground has no docs for is
// left out, as Redis leaves out a command it does not have, so for other
// commands this answers less than Redis would. With no name it answers
// every command it knows.
func commandDocs(peer *server.Peer, names []string) resp.Reply {
	var out []resp.Reply
	add := func(c docs.Command) {
		out = append(out, resp.BulkReply(c.DocName()), docReply(c))
	}
	if len(names) == 0 {
		for _, c := range docs.Commands {
			add(c)
		}
	}
	for _, n := range names {
		c, ok := docs.Lookup(ascii.Lower(n))
		// Redis looks a name up as given: "script load" (one argument
		// with a space) is no command; only "script|load" is.
		if !ok || strings.ContainsAny(n, " \t") {
			continue
		}
		add(c) // a name given twice is answered twice, as Redis does
	}
	return forProtocol(resp.Reply{Kind: resp.Map, Elems: out}, peer.Resp3)
}

func docReply(c docs.Command) resp.Reply {
	kv := []resp.Reply{
		resp.BulkReply("summary"), resp.BulkReply(c.Summary),
		resp.BulkReply("since"), resp.BulkReply(c.Since),
		resp.BulkReply("group"), resp.BulkReply(c.Group),
		resp.BulkReply("complexity"), resp.BulkReply(c.Complexity),
	}
	if len(c.History) > 0 {
		h := make([]resp.Reply, len(c.History))
		for i, ch := range c.History {
			h[i] = resp.ArrayReply(resp.BulkReply(ch.Version), resp.BulkReply(ch.What))
		}
		kv = append(kv, resp.BulkReply("history"), resp.Reply{Kind: resp.Set, Elems: h}) // a set in RESP3, as Redis sends it
	}
	if len(c.Args) > 0 {
		kv = append(kv, resp.BulkReply("arguments"), argsReply(c.Args))
	}
	return resp.Reply{Kind: resp.Map, Elems: kv}
}

// argsReply lists arguments with their fields in Redis's order: name,
// type, key_spec_index, token, since, flags, arguments.
func argsReply(args []docs.Arg) resp.Reply {
	out := make([]resp.Reply, len(args))
	for i, a := range args {
		kv := []resp.Reply{resp.BulkReply("name"), resp.BulkReply(a.Name), resp.BulkReply("type"), resp.BulkReply(a.Type)}
		if a.Type == "key" {
			kv = append(kv, resp.BulkReply("key_spec_index"), resp.IntReply(int64(a.KeySpec)))
		}
		if a.Token != "" {
			kv = append(kv, resp.BulkReply("token"), resp.BulkReply(a.Token))
		}
		if a.Since != "" {
			kv = append(kv, resp.BulkReply("since"), resp.BulkReply(a.Since))
		}
		var flags []resp.Reply
		if a.Optional {
			flags = append(flags, resp.StatusReply("optional"))
		}
		if a.Multiple {
			flags = append(flags, resp.StatusReply("multiple"))
		}
		if len(flags) > 0 {
			kv = append(kv, resp.BulkReply("flags"), resp.Reply{Kind: resp.Set, Elems: flags})
		}
		if len(a.Args) > 0 {
			kv = append(kv, resp.BulkReply("arguments"), argsReply(a.Args))
		}
		out[i] = resp.Reply{Kind: resp.Map, Elems: kv}
	}
	return resp.ArrayReply(out...)
}
