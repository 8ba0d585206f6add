package engine

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// INFO as Redis 7.0 writes it, section by section: every field of
// redis-server 7.0.15's INFO everything, in its order (infotemplate.txt).
// The fields a learner reads are the engine's own: the version, the
// configuration CONFIG SET changed (hz, maxmemory, its policy, appendonly,
// the backlog size), the clients, the commands and errors counted since
// the last CONFIG RESETSTAT, the cached scripts and the keyspace. The rest
// (memory, CPU, persistence) describe a process the playground does not
// have, and hold the values of an idle redis-server: "$" in the template
// marks a field the engine fills in.

//go:embed infotemplate.txt
var infoTemplate string

// infoSection is one "# Name" block of the template.
type infoSection struct {
	name  string   // as INFO prints it: "Server"
	lines []string // "field:value", value "$" for the engine's own
}

var infoBlocks = sync.OnceValue(func() []infoSection {
	var out []infoSection
	for line := range strings.Lines(infoTemplate) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case strings.HasPrefix(line, "# "):
			out = append(out, infoSection{name: line[2:]})
		case line != "" && len(out) > 0:
			out[len(out)-1].lines = append(out[len(out)-1].lines, line)
		}
	}
	return out
})

// infoDefault is what INFO, INFO default and INFO with no known section
// name but default print: every section but the two per-command ones.
func infoDefault(name string) bool { return name != "commandstats" && name != "latencystats" }

// infoCommand serves INFO [section ...]: the sections asked for, in
// Redis's order and once each, whatever the order and case they were
// asked in; "all" and "everything" are every section, "default" the
// default ones. A name Redis does not know adds nothing.
func infoCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	want := map[string]bool{}
	everything, def := false, len(args) == 1
	for _, a := range args[1:] {
		switch s := ascii.Lower(a); s {
		case "all", "everything":
			everything = true
		case "default":
			def = true
		default:
			want[s] = true
		}
	}
	var b strings.Builder
	for _, sec := range infoBlocks() {
		name := ascii.Lower(sec.name)
		if !everything && !want[name] && !(def && infoDefault(name)) {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString("# " + sec.name + "\r\n")
		for _, l := range sec.lines {
			field, v, _ := strings.Cut(l, ":")
			if v == "$" {
				v = e.infoField(field)
			}
			b.WriteString(field + ":" + v + "\r\n")
		}
		switch name {
		case "commandstats":
			e.stats.commandLines(&b)
		case "errorstats":
			e.stats.errorLines(&b)
		case "latencystats":
			e.stats.latencyLines(&b)
		case "keyspace":
			e.keyspaceLines(&b)
		}
	}
	return resp.BulkReply(b.String())
}

// infoField is the value of one of the fields the engine fills in.
func (e *Engine) infoField(field string) string {
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	up := max(e.now-Start, 0) / 1000
	switch field {
	case "redis_version":
		return "7.0.15"
	case "redis_mode":
		return "standalone"
	case "tcp_port":
		return e.configValue("port")
	case "server_time_usec":
		return itoa(e.now * 1000)
	case "uptime_in_seconds":
		return itoa(up)
	case "uptime_in_days":
		return itoa(up / 86400)
	case "hz", "configured_hz":
		return e.configValue("hz")
	case "lru_clock":
		return itoa(e.now / 1000 & (1<<24 - 1))
	case "connected_clients":
		n := 0
		for _, c := range e.clients {
			if s := e.conns[c.peer]; s == nil || !s.killed {
				n++
			}
		}
		return strconv.Itoa(n)
	case "maxclients":
		return e.configValue("maxclients")
	case "number_of_cached_scripts":
		return strconv.Itoa(len(e.runner.cache))
	case "maxmemory":
		return e.configValue("maxmemory")
	case "maxmemory_human":
		n, _ := strconv.ParseInt(e.configValue("maxmemory"), 10, 64)
		return humanBytes(n)
	case "maxmemory_policy":
		return e.configValue("maxmemory-policy")
	case "aof_enabled":
		if e.configValue("appendonly") == "yes" {
			return "1"
		}
		return "0"
	case "rdb_last_save_time":
		return itoa(Start / 1000)
	case "total_connections_received":
		return itoa(int64(e.stats.connections + len(e.clients)))
	case "total_commands_processed":
		return itoa(e.stats.commands)
	case "total_error_replies":
		return itoa(e.stats.errors)
	case "repl_backlog_size":
		return e.configValue("repl-backlog-size")
	case "cluster_enabled":
		return "0"
	}
	return ""
}

// humanBytes prints n as Redis's bytesToHuman does: B, K, M, G... with two
// decimals past bytes.
func humanBytes(n int64) string {
	if n < 1024 {
		return strconv.FormatInt(n, 10) + "B"
	}
	f, unit := float64(n)/1024, "K"
	for _, u := range []string{"M", "G", "T", "P"} {
		if f < 1024 {
			break
		}
		f, unit = f/1024, u
	}
	return strconv.FormatFloat(f, 'f', 2, 64) + unit
}

// keyspaceLines writes db<n>:keys=...,expires=...,avg_ttl=... for each
// database that holds a key. Redis's avg_ttl is an estimate its expiry
// cycle keeps from samples; the engine's is the true mean of the TTLs left,
// in milliseconds.
func (e *Engine) keyspaceLines(b *strings.Builder) {
	for n := range databases {
		db := e.db(n)
		keys := db.Keys()
		if len(keys) == 0 {
			continue
		}
		var expires, total int64
		for _, k := range keys {
			if ttl := db.TTL(k); ttl > 0 {
				expires++
				total += ttl.Milliseconds()
			}
		}
		avg := int64(0)
		if expires > 0 {
			avg = total / expires
		}
		b.WriteString("db" + strconv.Itoa(n) + ":keys=" + strconv.Itoa(len(keys)) + ",expires=" +
			strconv.FormatInt(expires, 10) + ",avg_ttl=" + strconv.FormatInt(avg, 10) + "\r\n")
	}
}

// serverStats is what INFO counts of the commands clients sent, since the
// engine started or CONFIG RESETSTAT: Redis's commandstats, errorstats and
// the totals. Commands a script calls are not counted (Redis counts them).
type serverStats struct {
	commands, errors int64
	connections      int // connections closed (the open ones are counted live)
	byCommand        map[string]*commandStat
	byError          map[string]int64
}

// commandStat is one command's (or subcommand's) counts.
type commandStat struct {
	calls, rejected, failed int64
}

// countCommand counts one command a client sent and its reply: a call
// refused before it ran (its arity, an unknown subcommand, maxmemory) is rejected,
// one that ran and answered an error failed; an unknown command counts
// only as an error.
func (e *Engine) countCommand(peer *server.Peer, args []string, r resp.Reply) {
	if len(args) == 0 {
		return
	}
	s := &e.stats
	if s.byCommand == nil {
		s.byCommand, s.byError = map[string]*commandStat{}, map[string]int64{}
	}
	rc := redisTable()[ascii.Upper(args[0])]
	name := ""
	if rc != nil {
		name = rc.name
		if sub := rc.entryFor(args); sub != nil && sub != rc {
			name = sub.name
		}
	}
	isErr := r.Kind == resp.Error
	if isErr {
		code, _, _ := strings.Cut(r.Str, " ")
		if len(s.byError) < 128 || s.byError[code] > 0 {
			s.byError[code]++
		}
		s.errors++
	}
	if name == "" {
		return
	}
	e.noteCommand(peer, name)
	st := s.byCommand[name]
	if st == nil {
		st = &commandStat{}
		s.byCommand[name] = st
	}
	switch {
	case isErr && (strings.HasPrefix(r.Str, "ERR wrong number of arguments") || strings.HasPrefix(r.Str, "ERR unknown subcommand") || r.Str == errOOM):
		st.rejected++
	case isErr:
		st.calls++
		st.failed++
		s.commands++
	default:
		st.calls++
		s.commands++
	}
}

func (s *serverStats) sortedCommands() []string {
	names := make([]string, 0, len(s.byCommand))
	for n := range s.byCommand {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// commandLines writes cmdstat_<name>:calls=...: Redis lists them in its
// dictionary's order, the engine by name. The engine keeps no times.
func (s *serverStats) commandLines(b *strings.Builder) {
	for _, n := range s.sortedCommands() {
		st := s.byCommand[n]
		b.WriteString("cmdstat_" + n + ":calls=" + strconv.FormatInt(st.calls, 10) + ",usec=0,usec_per_call=0.00,rejected_calls=" +
			strconv.FormatInt(st.rejected, 10) + ",failed_calls=" + strconv.FormatInt(st.failed, 10) + "\r\n")
	}
}

// errorLines writes errorstat_<CODE>:count=..., by code, as Redis does.
func (s *serverStats) errorLines(b *strings.Builder) {
	codes := make([]string, 0, len(s.byError))
	for c := range s.byError {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	for _, c := range codes {
		b.WriteString("errorstat_" + c + ":count=" + strconv.FormatInt(s.byError[c], 10) + "\r\n")
	}
}

// latencyLines writes a command's percentiles, each as the engine's one
// measure of a command: it keeps none, so they read as Redis's smallest
// bucket, 1 µs.
func (s *serverStats) latencyLines(b *strings.Builder) {
	for _, n := range s.sortedCommands() {
		if s.byCommand[n].calls > 0 {
			b.WriteString("latency_percentiles_usec_" + n + ":p50=1.003,p99=1.003,p99.9=1.003\r\n")
		}
	}
}
