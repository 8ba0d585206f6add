package stream

import (
	"strings"

	"echomq.dev/playground/wasm/resp"
)

var xgroupHelp = []string{
	"CREATE <key> <groupname> <id|$> [option]",
	"    Create a new consumer group. Options are:",
	"    * MKSTREAM",
	"      Create the empty stream if it does not exist.",
	"    * ENTRIESREAD entries_read",
	"      Set the group's entries_read counter (internal use).",
	"CREATECONSUMER <key> <groupname> <consumer>",
	"    Create a new consumer in the specified group.",
	"DELCONSUMER <key> <groupname> <consumer>",
	"    Remove the specified consumer.",
	"DESTROY <key> <groupname>",
	"    Remove the specified group.",
	"SETID <key> <groupname> <id|$> [ENTRIESREAD entries_read]",
	"    Set the current group ID and entries_read counter.",
}

var xinfoHelp = []string{
	"CONSUMERS <key> <groupname>",
	"    Show consumers of <groupname>.",
	"GROUPS <key>",
	"    Show the stream consumer groups.",
	"STREAM <key> [FULL [COUNT <count>]",
	"    Show information about the stream.",
}

// helpReply is addReplyHelp's: a header, the lines, and HELP's own.
func helpReply(cmd string, lines []string) resp.Reply {
	out := []resp.Reply{resp.StatusReply(cmd + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:")}
	for _, l := range lines {
		out = append(out, resp.StatusReply(l))
	}
	out = append(out, resp.StatusReply("HELP"), resp.StatusReply("    Prints this help."))
	return resp.ArrayReply(out...)
}

// fields builds a map's RESP2 form, names and values in turn (Shape gives
// RESP3 its map).
type fields []resp.Reply

// n and r stay calls: inlined, every XINFO field grew its own append.
//
//go:noinline
func (f fields) n(name string, v int64) fields {
	return append(f, resp.BulkReply(name), resp.IntReply(v))
}

//go:noinline
func (f fields) r(name string, v resp.Reply) fields { return append(f, resp.BulkReply(name), v) }

func (f fields) reply() resp.Reply { return resp.ArrayReply(f...) }

func (s *Stream) lagReply(g *Group) resp.Reply {
	if n, ok := s.lag(g); ok {
		return resp.IntReply(n)
	}
	return resp.NilReply()
}

func readReply(g *Group) resp.Reply {
	if g.read == invalidRead {
		return resp.NilReply()
	}
	return resp.IntReply(g.read)
}

func xinfo(ks Keyspace, args []string) resp.Reply {
	sub := strings.ToUpper(args[1])
	switch {
	case sub == "HELP":
		return helpReply("XINFO", xinfoHelp)
	case sub == "CONSUMERS" && len(args) != 4, sub == "GROUPS" && len(args) != 3:
		return subcommandError(args[1], "XINFO")
	}
	full, count := false, int64(10)
	if sub == "STREAM" && len(args) > 3 {
		if !strings.EqualFold(args[3], "FULL") || (len(args) != 4 && (len(args) != 6 || !strings.EqualFold(args[4], "COUNT"))) {
			return subcommandError(args[1], "XINFO")
		}
		full = true
		if len(args) == 6 {
			n, ok := parseLL(args[5])
			if !ok {
				return errReply(errNotInt)
			}
			count = max(n, 0)
		}
	}
	s, wrong := ks.Lookup(args[2])
	if wrong {
		return errReply(errWrongType)
	}
	if s == nil {
		return errReply("ERR no such key")
	}
	now := ks.Now()
	switch sub {
	case "CONSUMERS":
		g := s.group(args[3])
		if g == nil {
			return errReply("NOGROUP No such consumer group '" + args[3] + "' for key name '" + args[2] + "'")
		}
		out := []resp.Reply{}
		for _, c := range g.consumers {
			out = append(out, fields{}.r("name", resp.BulkReply(c.Name)).n("pending", int64(len(c.pel))).n("idle", max(now-c.seen, 0)).reply())
		}
		return resp.ArrayReply(out...)
	case "GROUPS":
		out := []resp.Reply{}
		for _, g := range s.groups {
			out = append(out, fields{}.r("name", resp.BulkReply(g.Name)).n("consumers", int64(len(g.consumers))).n("pending", int64(len(g.pel))).
				r("last-delivered-id", idReply(g.last)).r("entries-read", readReply(g)).r("lag", s.lagReply(g)).reply())
		}
		return resp.ArrayReply(out...)
	}
	head := fields{}.n("length", s.length).n("radix-tree-keys", int64(len(s.nodes))).n("radix-tree-nodes", s.raxNodes()).
		r("last-generated-id", idReply(s.last)).r("max-deleted-entry-id", idReply(s.maxDeleted)).n("entries-added", int64(s.added)).
		r("recorded-first-entry-id", idReply(s.first))
	if !full {
		first, last := resp.NilReply(), resp.NilReply()
		s.Range(ID{}, MaxID, false, func(e Entry) bool { first = entryReply(e); return false })
		s.Range(ID{}, MaxID, true, func(e Entry) bool { last = entryReply(e); return false })
		return head.n("groups", int64(len(s.groups))).r("first-entry", first).r("last-entry", last).reply()
	}
	entries := []resp.Reply{}
	s.Range(ID{}, MaxID, false, func(e Entry) bool {
		entries = append(entries, entryReply(e))
		return count == 0 || int64(len(entries)) < count
	})
	groups := []resp.Reply{}
	for _, g := range s.groups {
		pel := []resp.Reply{}
		for _, n := range g.pel {
			if count != 0 && int64(len(pel)) >= count {
				break
			}
			pel = append(pel, resp.ArrayReply(idReply(n.id), resp.BulkReply(n.consumer.Name), resp.IntReply(n.delivered), resp.IntReply(n.count)))
		}
		consumers := []resp.Reply{}
		for _, c := range g.consumers {
			cp := []resp.Reply{}
			for _, n := range c.pel {
				if count != 0 && int64(len(cp)) >= count {
					break
				}
				cp = append(cp, resp.ArrayReply(idReply(n.id), resp.IntReply(n.delivered), resp.IntReply(n.count)))
			}
			consumers = append(consumers, fields{}.r("name", resp.BulkReply(c.Name)).n("seen-time", c.seen).n("pel-count", int64(len(c.pel))).
				r("pending", resp.ArrayReply(cp...)).reply())
		}
		groups = append(groups, fields{}.r("name", resp.BulkReply(g.Name)).r("last-delivered-id", idReply(g.last)).r("entries-read", readReply(g)).
			r("lag", s.lagReply(g)).n("pel-count", int64(len(g.pel))).r("pending", resp.ArrayReply(pel...)).
			r("consumers", resp.ArrayReply(consumers...)).reply())
	}
	return head.r("entries", resp.ArrayReply(entries...)).r("groups", resp.ArrayReply(groups...)).reply()
}
