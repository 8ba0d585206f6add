package engine

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
)

// CONFIG as Redis 7.0 serves it, which miniredis lacks: GET of one or
// more names or glob patterns, SET of one or more pairs (all or nothing),
// RESETSTAT, REWRITE (there is no file to write) and HELP. Every
// parameter Redis 7.0 has is there (configs.txt), so a learner's, or
// Redis's own test suite's, CONFIG SET of any of them is checked the way
// Redis checks it and read back as Redis prints it. Most are stored and
// nothing more: the playground has no persistence and no replicas. The
// ones it honours are in applyConfig (maxmemory: see maxmemory.go).

//go:embed configs.txt
var configsText string

// configParam is one line of configs.txt.
type configParam struct {
	name  string
	kind  string   // bool, enum, int, mem, memperc, save, events, str, immutable, protected
	enum  []string // enum: the values it may take
	lo    int64    // int, mem: the range it must lie in
	hi    int64
	def   string // the value the playground starts with
	alias string // the parameter this one is another name for, or ""
	// hidden: a pattern does not find it, only its name (Redis's
	// debugging parameters, key-load-delay...).
	hidden bool
}

// configParams is configs.txt read: the parameters in its order, and by
// name.
type configParams struct {
	list   []*configParam
	byName map[string]*configParam
}

var configTable = sync.OnceValue(func() *configParams { return readConfigs(configsText) })

func readConfigs(text string) *configParams {
	t := &configParams{byName: map[string]*configParam{}}
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			panic("engine: configs.txt: a line is not \"name<TAB>kind<TAB>default\": " + line)
		}
		p := &configParam{name: f[0]}
		if len(f) > 2 {
			p.def = f[2]
		}
		p.hidden = len(f) > 3 && f[3] == "hidden"
		kind := strings.Fields(f[1])
		p.kind = kind[0]
		switch {
		case strings.HasPrefix(p.kind, "="):
			p.alias, p.kind = p.kind[1:], ""
		case p.kind == "enum" && len(kind) == 2:
			p.enum = strings.Split(kind[1], ",")
		case (p.kind == "int" || p.kind == "mem") && len(kind) == 3:
			p.lo, _ = strconv.ParseInt(kind[1], 10, 64)
			p.hi, _ = strconv.ParseInt(kind[2], 10, 64)
		case p.kind == "mem":
			p.hi = 1<<63 - 1
		}
		t.list = append(t.list, p)
		t.byName[p.name] = p
	}
	return t
}

// target is the parameter whose value p names: p, or the one it is an
// alias of.
func (t *configParams) target(p *configParam) *configParam {
	if p.alias != "" {
		return t.byName[p.alias]
	}
	return p
}

// configValue is a parameter's value on e: what CONFIG SET last stored, or
// the default.
func (e *Engine) configValue(name string) string {
	t := configTable()
	p := t.target(t.byName[name])
	if v, ok := e.config[p.name]; ok {
		return v
	}
	return p.def
}

// configCommand serves CONFIG and its subcommands (arity is checked
// before: see do).
func configCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 2 {
		return resp.ErrorReply("ERR wrong number of arguments for 'config' command")
	}
	switch ascii.Upper(args[1]) {
	case "GET":
		return e.configGet(args[2:])
	case "SET":
		return e.configSet(args[2:])
	case "RESETSTAT":
		e.stats = serverStats{}
		return resp.StatusReply("OK")
	case "REWRITE":
		return resp.ErrorReply("ERR The server is running without a config file")
	case "HELP":
		return helpReply("CONFIG <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
			"GET <pattern>", "    Return parameters matching the glob-like <pattern> and their values.",
			"SET <directive> <value>", "    Set the configuration <directive> to <value>.",
			"RESETSTAT", "    Reset statistics reported by the INFO command.",
			"REWRITE", "    Rewrite the configuration file.",
			"HELP", "    Prints this help.")
	}
	return resp.ErrorReply("ERR unknown subcommand '" + args[1] + "'. Try CONFIG HELP.")
}

// helpReply is a HELP subcommand's reply: its lines as statuses.
func helpReply(lines ...string) resp.Reply {
	out := make([]resp.Reply, len(lines))
	for i, l := range lines {
		out[i] = resp.StatusReply(l)
	}
	return resp.ArrayReply(out...)
}

// configGet answers CONFIG GET: for each argument without a glob
// character, the parameter of that name under the name as given; for a
// pattern, every parameter whose name it matches, ignoring case. A
// parameter is listed once, under the first name that found it. Redis
// lists them in its dictionary's order, which changes from run to run;
// the engine lists them in the order they were asked for.
func (e *Engine) configGet(patterns []string) resp.Reply {
	t := configTable()
	var out []resp.Reply
	seen := map[string]bool{}
	add := func(shown string, p *configParam) {
		if seen[ascii.Lower(shown)] {
			return
		}
		seen[ascii.Lower(shown)] = true
		out = append(out, resp.BulkReply(shown), resp.BulkReply(e.configValue(p.name)))
	}
	for _, pat := range patterns {
		if !strings.ContainsAny(pat, "*?[") {
			if p := t.byName[ascii.Lower(pat)]; p != nil {
				add(pat, p)
			}
			continue
		}
		lp := ascii.Lower(pat)
		for _, p := range t.list {
			if !p.hidden && globMatch(lp, p.name) {
				add(p.name, p)
			}
		}
	}
	return resp.ArrayReply(out...) // a map under RESP3: see serverCommands
}

// configSet serves CONFIG SET name value [name value ...] as Redis 7.0
// does: every name is checked first (unknown, immutable, protected, given
// twice), then each value is set in turn, and when one is refused every
// one set before it is put back, so the set is all or nothing.
func (e *Engine) configSet(pairs []string) resp.Reply {
	if len(pairs)%2 != 0 {
		return resp.ErrorReply("ERR syntax error")
	}
	t := configTable()
	failed := func(name, why string) resp.Reply {
		return resp.ErrorReply("ERR CONFIG SET failed (possibly related to argument '" + name + "') - " + why)
	}
	params := make([]*configParam, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		p := t.byName[ascii.Lower(pairs[i])]
		switch {
		case p == nil:
			return resp.ErrorReply("ERR Unknown option or number of arguments for CONFIG SET - '" + pairs[i] + "'")
		case t.target(p).kind == "immutable":
			return failed(pairs[i], "can't set immutable config")
		case t.target(p).kind == "protected":
			return failed(pairs[i], "can't set protected config")
		}
		for _, q := range params {
			if q == p {
				return failed(pairs[i], "duplicate parameter")
			}
		}
		params = append(params, p)
	}
	values := make([]string, len(params))
	for i, p := range params {
		v, why := configParse(t.target(p), pairs[2*i+1])
		if why != "" {
			return failed(pairs[2*i], why)
		}
		values[i] = v
	}
	if e.config == nil {
		e.config = map[string]string{}
	}
	for i, p := range params {
		e.config[t.target(p).name] = values[i]
		e.applyConfig(t.target(p).name, values[i])
	}
	return resp.StatusReply("OK")
}

// applyConfig makes a parameter the engine honours take effect: the
// HyperLogLogs' sparse limit, and the hash and set encodings' limits
// OBJECT ENCODING and DUMP judge a key by, and the streams' node limits
// (where "~" trims). The sorted sets' limits are stored only: the
// engine's sorted-set index decides them (zsets.go).
func (e *Engine) applyConfig(name, v string) {
	n, _ := strconv.ParseInt(v, 10, 64)
	n = min(n, 1<<31-1)
	switch name {
	case "maxmemory":
		e.maxmemory, _ = strconv.ParseInt(v, 10, 64)
	case "hll-sparse-max-bytes":
		e.hllSparseMax = int(n)
	case "stream-node-max-entries":
		e.StreamNodeConfig(n, -1)
	case "stream-node-max-bytes":
		e.StreamNodeConfig(-1, n)
	case "hash-max-listpack-entries", "hash-max-listpack-value", "set-max-intset-entries":
		if e.limits == nil {
			l := rdb.DefaultLimits
			e.limits = &l
		}
		switch name {
		case "hash-max-listpack-entries":
			e.limits.HashEntries = int(n)
		case "hash-max-listpack-value":
			e.limits.HashValue = int(n)
		default:
			e.limits.IntsetEntries = int(n)
		}
	}
}

// configParse checks v as a value of p, as Redis 7.0's CONFIG SET does,
// and gives the value CONFIG GET then reports, or why v is refused.
func configParse(p *configParam, v string) (string, string) {
	switch p.kind {
	case "bool":
		if ascii.EqualFold(v, "yes") || ascii.EqualFold(v, "no") {
			return ascii.Lower(v), ""
		}
		return "", "argument must be 'yes' or 'no'"
	case "enum":
		for _, ok := range p.enum {
			if ascii.EqualFold(v, ok) {
				return ok, ""
			}
		}
		return "", "argument(s) must be one of the following: " + strings.Join(p.enum, ", ")
	case "int":
		n, ok := parseRedisInt(v)
		if !ok {
			return "", "argument couldn't be parsed into an integer"
		}
		if n < p.lo || n > p.hi {
			return "", "argument must be between " + strconv.FormatInt(p.lo, 10) + " and " + strconv.FormatInt(p.hi, 10) + " inclusive"
		}
		if p.name == "hz" {
			n = min(max(n, 1), 500) // Redis keeps hz in 1..500
		}
		return strconv.FormatInt(n, 10), ""
	case "mem":
		n, ok := memoryValue(v)
		if !ok {
			return "", "argument must be a memory value"
		}
		if n < p.lo || n > p.hi {
			return "", "argument must be between " + strconv.FormatInt(p.lo, 10) + " and " + strconv.FormatInt(p.hi, 10) + " inclusive"
		}
		return strconv.FormatInt(n, 10), ""
	case "memperc":
		if pct, ok := strings.CutSuffix(v, "%"); ok {
			if n, ok := parseRedisInt(pct); ok && n >= 0 {
				if n > 100 {
					return "", "percentage argument must be less or equal to 100"
				}
				return v, ""
			}
		} else if n, ok := memoryValue(v); ok {
			return strconv.FormatInt(n, 10), ""
		}
		return "", "argument must be a memory or percent value"
	case "save":
		f := strings.Fields(v)
		if len(f)%2 != 0 || v != "" && len(f) == 0 {
			return "", "Invalid save parameters"
		}
		for _, n := range f {
			if x, ok := parseRedisInt(n); !ok || x < 0 {
				return "", "Invalid save parameters"
			}
		}
		return strings.Join(f, " "), ""
	case "events":
		return keyspaceEvents(v)
	}
	return v, ""
}

// memoryValue reads a memory amount as Redis's memtoull does: digits, and
// a unit of b, k, kb, m, mb, g or gb (k is 1000, kb 1024), in any case.
func memoryValue(v string) (int64, bool) {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	var mul int64
	switch ascii.Lower(v[i:]) {
	case "", "b":
		mul = 1
	case "k":
		mul = 1000
	case "kb":
		mul = 1024
	case "m":
		mul = 1000 * 1000
	case "mb":
		mul = 1024 * 1024
	case "g":
		mul = 1000 * 1000 * 1000
	case "gb":
		mul = 1024 * 1024 * 1024
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(v[:i], 10, 64)
	if err != nil || n > (1<<63-1)/mul {
		return 0, false
	}
	return n * mul, true
}

// keyspaceEvents checks notify-keyspace-events' letters and gives them in
// the order Redis prints them, A for all the classes.
func keyspaceEvents(v string) (string, string) {
	const classes, all = "g$lshzxetmdKEn", "g$lshzxetd"
	set := map[byte]bool{}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == 'A':
			for j := 0; j < len(all); j++ {
				set[all[j]] = true
			}
		case strings.IndexByte(classes, c) >= 0:
			set[c] = true
		default:
			return "", "Invalid event class character. Use 'Ag$lshzxeKEtmdn'."
		}
	}
	var b strings.Builder
	hasAll := true
	for j := 0; j < len(all); j++ {
		hasAll = hasAll && set[all[j]]
	}
	for j := 0; j < len(classes); j++ {
		c := classes[j]
		if !set[c] || hasAll && strings.IndexByte(all, c) >= 0 {
			continue
		}
		b.WriteByte(c)
	}
	s := b.String()
	if hasAll {
		s = "A" + s
	}
	return s, ""
}
