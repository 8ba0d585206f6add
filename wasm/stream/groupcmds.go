package stream

import (
	"strings"

	"echomq.dev/playground/wasm/resp"
)

func noGroup(key, group, where string) resp.Reply {
	return errReply("NOGROUP No such key '" + key + "' or consumer group '" + group + "'" + where)
}

func xread(ks Keyspace, args []string) resp.Reply {
	group := args[0] == "XREADGROUP"
	name := strings.ToLower(args[0])
	count := int64(0)
	blocking := false
	noack := false
	streamsAt := 0
	var groupName, consumerName string
	haveGroup := false
	for i := 1; i < len(args); i++ {
		more := len(args) - 1 - i
		o := args[i]
		switch {
		case strings.EqualFold(o, "BLOCK") && more > 0:
			i++
			n, ok := parseLL(args[i])
			if !ok {
				return errReply("ERR timeout is not an integer or out of range")
			}
			if n < 0 {
				return errReply("ERR timeout is negative")
			}
			blocking = true
		case strings.EqualFold(o, "COUNT") && more > 0:
			i++
			n, ok := parseLL(args[i])
			if !ok {
				return errReply(errNotInt)
			}
			count = max(n, 0)
		case strings.EqualFold(o, "STREAMS") && more > 0:
			streamsAt = i + 1
			if (len(args)-streamsAt)%2 != 0 {
				sym := "$"
				if group {
					sym = ">"
				}
				return errReply("ERR Unbalanced '" + name + "' list of streams: for each stream key an ID or '" + sym + "' must be specified.")
			}
			i = len(args)
		case strings.EqualFold(o, "GROUP") && more >= 2:
			if !group {
				return errReply("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.")
			}
			groupName, consumerName, haveGroup = args[i+1], args[i+2], true
			i += 2
		case strings.EqualFold(o, "NOACK"):
			if !group {
				return errReply("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.")
			}
			noack = true
		default:
			return errReply(errSyntax)
		}
	}
	if streamsAt == 0 {
		return errReply(errSyntax)
	}
	if group && !haveGroup {
		return errReply("ERR Missing GROUP option for XREADGROUP")
	}
	n := (len(args) - streamsAt) / 2
	keys := args[streamsAt : streamsAt+n]
	streams := make([]*Stream, n)
	groups := make([]*Group, n)
	ids := make([]ID, n)
	for i, key := range keys {
		s, wrong := ks.Lookup(key)
		if wrong {
			return errReply(errWrongType)
		}
		streams[i] = s
		if haveGroup {
			if s != nil {
				groups[i] = s.group(groupName)
			}
			if groups[i] == nil {
				return noGroup(key, groupName, " in XREADGROUP with GROUP option")
			}
		}
		a := args[streamsAt+n+i]
		switch a {
		case "$":
			if group {
				return errReply("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set.")
			}
			if s != nil {
				ids[i] = s.last
			}
			continue
		case ">":
			if !group {
				return errReply("ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.")
			}
			ids[i] = MaxID
			continue
		}
		p, ok := ParseID(a, 0, true, false)
		if !ok {
			return errReply(ErrInvalidID)
		}
		ids[i] = p.id
	}
	now := ks.Now()
	var out []resp.Reply
	for i, s := range streams {
		if s == nil {
			continue
		}
		gt := ids[i]
		serve, history := false, false
		var c *Consumer
		if haveGroup {
			g := groups[i]
			if gt != MaxID {
				serve, history = true, true
			} else if s.length > 0 && s.lastValid().Cmp(g.last) > 0 {
				serve, gt = true, g.last
			}
		} else if s.length > 0 && s.lastValid().Cmp(gt) > 0 {
			serve = true
		}
		if !serve {
			continue
		}
		if haveGroup {
			// Redis 7.0 makes the consumer only for a stream it serves.
			c = groups[i].consumerOrNew(consumerName, now)
		}
		// Past the last ID Redis's streamIncrID wraps to 0-0.
		start, _ := gt.Next()
		var entries []resp.Reply
		if history {
			entries = readHistory(s, c, start, count, now)
		} else {
			entries = readNew(s, groups[i], c, start, count, noack, now)
		}
		out = append(out, resp.ArrayReply(resp.BulkReply(keys[i]), resp.ArrayReply(entries...)))
	}
	if len(out) == 0 {
		_ = blocking
		return resp.NilArrayReply()
	}
	return resp.ArrayReply(out...)
}

// readNew is entries from start on, delivered to consumer c of g (when g
// is not nil) as Redis's streamReplyWithRange delivers them.
func readNew(s *Stream, g *Group, c *Consumer, start ID, count int64, noack bool, now int64) []resp.Reply {
	out := []resp.Reply{}
	s.Range(start, MaxID, false, func(e Entry) bool {
		if g != nil {
			s.delivered(g, e.ID)
			if !noack {
				if i, found := pelFind(g.pel, e.ID); found {
					n := g.pel[i]
					g.assign(n, c)
					n.delivered, n.count = now, 1
				} else {
					n := &nack{id: e.ID, delivered: now, count: 1}
					g.pel = pelInsert(g.pel, n)
					g.assign(n, c)
				}
			}
		}
		out = append(out, entryReply(e))
		return count == 0 || int64(len(out)) < count
	})
	return out
}

// readHistory is c's own pending entries from start on: an entry deleted
// since comes back as its ID and a nil.
func readHistory(s *Stream, c *Consumer, start ID, count int64, now int64) []resp.Reply {
	out := []resp.Reply{}
	i, _ := pelFind(c.pel, start)
	for ; i < len(c.pel) && (count == 0 || int64(len(out)) < count); i++ {
		n := c.pel[i]
		if e, ok := s.Get(n.id); ok {
			out = append(out, entryReply(e))
			n.delivered = now
			n.count++
		} else {
			out = append(out, resp.ArrayReply(idReply(n.id), resp.NilArrayReply()))
		}
	}
	return out
}

func subcommandError(sub, cmd string) resp.Reply {
	return errReply("ERR unknown subcommand or wrong number of arguments for '" + sub + "'. Try " + cmd + " HELP.")
}

func xgroup(ks Keyspace, args []string) resp.Reply {
	sub := strings.ToUpper(args[1])
	if sub == "HELP" {
		return helpReply("XGROUP", xgroupHelp)
	}
	read := int64(invalidRead)
	mk := false
	for i := 5; i < len(args); {
		switch {
		case sub == "CREATE" && strings.EqualFold(args[i], "MKSTREAM"):
			mk = true
			i++
		case (sub == "CREATE" || sub == "SETID") && strings.EqualFold(args[i], "ENTRIESREAD") && i+1 < len(args):
			n, ok := parseLL(args[i+1])
			if !ok {
				return errReply(errNotInt)
			}
			if n < 0 && n != invalidRead {
				return errReply("ERR value for ENTRIESREAD must be positive or -1")
			}
			read = n
			i += 2
		default:
			return subcommandError(args[1], "XGROUP")
		}
	}
	key, name := args[2], args[3]
	s, wrong := ks.Lookup(key)
	if wrong {
		return errReply(errWrongType)
	}
	var g *Group
	if !mk {
		if s == nil {
			return errReply("ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.")
		}
		if g = s.group(name); g == nil && (sub == "SETID" || sub == "CREATECONSUMER" || sub == "DELCONSUMER") {
			return errReply("NOGROUP No such consumer group '" + name + "' for key name '" + key + "'")
		}
	}
	switch {
	case sub == "CREATE" && len(args) <= 8:
		var id ID
		if args[4] == "$" {
			if s != nil {
				id = s.last
			}
		} else {
			p, ok := ParseID(args[4], 0, true, false)
			if !ok {
				return errReply(ErrInvalidID)
			}
			id = p.id
		}
		if s == nil {
			s = ks.Create(key)
		}
		if !s.addGroup(name, id, read) {
			return errReply("BUSYGROUP Consumer Group name already exists")
		}
		return resp.OK()
	case sub == "SETID" && (len(args) == 5 || len(args) == 7):
		var id ID
		if args[4] == "$" {
			id = s.last
		} else {
			p, ok := ParseID(args[4], 0, false, false)
			if !ok {
				return errReply(ErrInvalidID)
			}
			id = p.id
		}
		g.last, g.read = id, read
		return resp.OK()
	case sub == "DESTROY" && len(args) == 4:
		if g != nil && s.dropGroup(name) {
			return resp.IntReply(1)
		}
		return resp.IntReply(0)
	case sub == "CREATECONSUMER" && len(args) == 5:
		if g.addConsumer(args[4], ks.Now()) != nil {
			return resp.IntReply(1)
		}
		return resp.IntReply(0)
	case sub == "DELCONSUMER" && len(args) == 5:
		return resp.IntReply(g.dropConsumer(args[4]))
	}
	return subcommandError(args[1], "XGROUP")
}

func xpending(ks Keyspace, args []string) resp.Reply {
	if len(args) != 3 && (len(args) < 6 || len(args) > 9) {
		return errReply(errSyntax)
	}
	var start, end ID
	count, minIdle := int64(0), int64(0)
	consumer, haveConsumer := "", false
	if len(args) >= 6 {
		at := 3
		if strings.EqualFold(args[3], "IDLE") {
			n, ok := parseLL(args[4])
			if !ok {
				return errReply(errNotInt)
			}
			minIdle = n
			if len(args) < 8 {
				return errReply(errSyntax)
			}
			at += 2
		}
		n, ok := parseLL(args[at+2])
		if !ok {
			return errReply(errNotInt)
		}
		count = max(n, 0)
		var ex bool
		if start, ex, ok = parseInterval(args[at], 0); !ok {
			return errReply(ErrInvalidID)
		}
		if ex {
			if start, ok = start.Next(); !ok {
				return errReply("ERR invalid start ID for the interval")
			}
		}
		if end, ex, ok = parseInterval(args[at+1], MaxID.Seq); !ok {
			return errReply(ErrInvalidID)
		}
		if ex {
			if end, ok = end.Prev(); !ok {
				return errReply("ERR invalid end ID for the interval")
			}
		}
		if at+3 < len(args) {
			consumer, haveConsumer = args[at+3], true
		}
	}
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	var g *Group
	if s != nil {
		g = s.group(args[2])
	}
	if g == nil {
		return noGroup(args[1], args[2], "")
	}
	if len(args) == 3 {
		if len(g.pel) == 0 {
			return resp.ArrayReply(resp.IntReply(0), resp.NilReply(), resp.NilReply(), resp.NilArrayReply())
		}
		var per []resp.Reply
		for _, c := range g.consumers {
			if len(c.pel) > 0 {
				per = append(per, resp.ArrayReply(resp.BulkReply(c.Name), resp.BulkReply(intStr(int64(len(c.pel))))))
			}
		}
		return resp.ArrayReply(resp.IntReply(int64(len(g.pel))), idReply(g.pel[0].id), idReply(g.pel[len(g.pel)-1].id), resp.ArrayReply(per...))
	}
	pel := g.pel
	if haveConsumer {
		c := g.consumer(consumer, 0, false)
		if c == nil {
			return resp.ArrayReply()
		}
		pel = c.pel
	}
	now := ks.Now()
	out := []resp.Reply{}
	i, _ := pelFind(pel, start)
	for ; count > 0 && i < len(pel) && pel[i].id.Cmp(end) <= 0; i++ {
		n := pel[i]
		idle := now - n.delivered
		if minIdle != 0 && idle < minIdle {
			continue
		}
		count--
		out = append(out, resp.ArrayReply(idReply(n.id), resp.BulkReply(n.consumer.Name), resp.IntReply(max(idle, 0)), resp.IntReply(n.count)))
	}
	return resp.ArrayReply(out...)
}

func xclaim(ks Keyspace, args []string) resp.Reply {
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	var g *Group
	if s != nil {
		g = s.group(args[2])
	}
	if g == nil {
		return noGroup(args[1], args[2], "")
	}
	minIdle, ok := parseLL(args[4])
	if !ok {
		return errReply("ERR Invalid min-idle-time argument for XCLAIM")
	}
	minIdle = max(minIdle, 0)
	j := 5
	var ids []ID
	for ; j < len(args); j++ {
		p, ok := ParseID(args[j], 0, true, false)
		if !ok {
			break
		}
		ids = append(ids, p.id)
	}
	now := ks.Now()
	deliveryTime, retry := int64(-1), int64(-1)
	force, justID := false, false
	var lastID ID
	for ; j < len(args); j++ {
		more := len(args) - 1 - j
		opt := args[j]
		switch {
		case strings.EqualFold(opt, "FORCE"):
			force = true
		case strings.EqualFold(opt, "JUSTID"):
			justID = true
		case strings.EqualFold(opt, "IDLE") && more > 0:
			j++
			n, ok := parseLL(args[j])
			if !ok {
				return errReply("ERR Invalid IDLE option argument for XCLAIM")
			}
			deliveryTime = now - n
		case strings.EqualFold(opt, "TIME") && more > 0:
			j++
			n, ok := parseLL(args[j])
			if !ok {
				return errReply("ERR Invalid TIME option argument for XCLAIM")
			}
			deliveryTime = n
		case strings.EqualFold(opt, "RETRYCOUNT") && more > 0:
			j++
			n, ok := parseLL(args[j])
			if !ok {
				return errReply("ERR Invalid RETRYCOUNT option argument for XCLAIM")
			}
			retry = n
		case strings.EqualFold(opt, "LASTID") && more > 0:
			j++
			p, ok := ParseID(args[j], 0, true, false)
			if !ok {
				return errReply(ErrInvalidID)
			}
			lastID = p.id
		default:
			return errReply("ERR Unrecognized XCLAIM option '" + opt + "'")
		}
	}
	if lastID.Cmp(g.last) > 0 {
		g.last = lastID
	}
	if deliveryTime != -1 {
		if deliveryTime < 0 || deliveryTime > now {
			deliveryTime = now
		}
	} else {
		deliveryTime = now
	}
	var c *Consumer
	out := []resp.Reply{}
	for _, id := range ids {
		i, found := pelFind(g.pel, id)
		var n *nack
		if found {
			n = g.pel[i]
		}
		e, exists := s.Get(id)
		if !exists {
			if n != nil {
				g.unpend(n)
			}
			continue
		}
		if force && n == nil {
			n = &nack{id: id, delivered: now, count: 1} // as streamCreateNACK makes it
			g.pel = pelInsert(g.pel, n)
		}
		if n == nil {
			continue
		}
		if n.consumer != nil && minIdle != 0 && now-n.delivered < minIdle {
			continue
		}
		if c == nil {
			c = g.consumerOrNew(args[3], now)
		}
		g.assign(n, c)
		n.delivered = deliveryTime
		if retry >= 0 {
			n.count = retry
		} else if !justID {
			n.count++
		}
		if justID {
			out = append(out, idReply(id))
		} else {
			out = append(out, entryReply(e))
		}
	}
	return resp.ArrayReply(out...)
}

func xautoclaim(ks Keyspace, args []string) resp.Reply {
	minIdle, ok := parseLL(args[4])
	if !ok {
		return errReply("ERR Invalid min-idle-time argument for XAUTOCLAIM")
	}
	minIdle = max(minIdle, 0)
	start, ex, ok := parseInterval(args[5], 0)
	if !ok {
		return errReply(ErrInvalidID)
	}
	if ex {
		if start, ok = start.Next(); !ok {
			return errReply("ERR invalid start ID for the interval")
		}
	}
	count := int64(100)
	justID := false
	for j := 6; j < len(args); j++ {
		more := len(args) - 1 - j
		switch {
		case strings.EqualFold(args[j], "COUNT") && more > 0:
			n, ok := parseLL(args[j+1])
			if !ok || n < 1 || n > (1<<63-1)/16 {
				return errReply("ERR COUNT must be > 0")
			}
			count = n
			j++
		case strings.EqualFold(args[j], "JUSTID"):
			justID = true
		default:
			return errReply(errSyntax)
		}
	}
	s, wrong := ks.Lookup(args[1])
	if wrong {
		return errReply(errWrongType)
	}
	var g *Group
	if s != nil {
		g = s.group(args[2])
	}
	if g == nil {
		return noGroup(args[1], args[2], "")
	}
	attempts := count * 10
	now := ks.Now()
	var c *Consumer
	claimed := []resp.Reply{}
	deleted := []resp.Reply{}
	i, _ := pelFind(g.pel, start)
	for attempts > 0 && count > 0 && i < len(g.pel) {
		attempts--
		n := g.pel[i]
		e, exists := s.Get(n.id)
		if !exists {
			g.unpend(n)
			deleted = append(deleted, idReply(n.id))
			count--
			continue // i now holds the next entry
		}
		i++
		if minIdle != 0 && now-n.delivered < minIdle {
			continue
		}
		if c == nil {
			c = g.consumerOrNew(args[3], now)
		}
		g.assign(n, c)
		n.delivered = now
		if !justID {
			n.count++
		}
		if justID {
			claimed = append(claimed, idReply(n.id))
		} else {
			claimed = append(claimed, entryReply(e))
		}
		count--
	}
	next := ID{}
	if i < len(g.pel) {
		next = g.pel[i].id
	}
	return resp.ArrayReply(idReply(next), resp.ArrayReply(claimed...), resp.ArrayReply(deleted...))
}
