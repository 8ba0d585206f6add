package fidelity

import (
	"slices"
	"strings"

	"echomq.dev/playground/internal/redisdiff"
)

// The server commands' replies hold facts no two servers share: a
// connection's id and address, memory and CPU figures, uptime, and the
// order of a dictionary (CONFIG GET of a pattern, COMMAND LIST). These
// keep what a learner reads and can hold the engine to (field names in
// their order, the version, the configuration, the counts, the keyspace)
// and mark the rest "(not compared)" on both sides.

// serverNormal is cmd's normalizer, or nil for a command that needs none.
func serverNormal(cmd []string) func(redisdiff.Node) redisdiff.Node {
	sub := ""
	if len(cmd) > 1 {
		sub = strings.ToUpper(cmd[1])
	}
	switch strings.ToUpper(cmd[0]) {
	case "INFO":
		return eachText(normalInfo)
	case "CLIENT":
		switch sub {
		case "ID":
			return func(n redisdiff.Node) redisdiff.Node {
				if n.T == ':' && !strings.HasPrefix(n.S, "-") {
					n.S = "(not compared)"
				}
				return n
			}
		case "LIST", "INFO":
			return eachText(normalClientList)
		}
	case "CONFIG":
		if sub == "GET" {
			return redisdiff.SortedPairs
		}
	case "COMMAND":
		if sub == "LIST" {
			return redisdiff.SortedElems
		}
	}
	return nil
}

// eachText applies f to a text reply (a bulk or verbatim string), and to
// each text in a script's table of them.
func eachText(f func(string) string) func(redisdiff.Node) redisdiff.Node {
	var g func(redisdiff.Node) redisdiff.Node
	g = func(n redisdiff.Node) redisdiff.Node {
		switch {
		case n.T == '$' || n.T == '=':
			n.S = f(n.S)
		case n.IsAggregate():
			el := make([]redisdiff.Node, len(n.Elems))
			for i, e := range n.Elems {
				el[i] = g(e)
			}
			n.Elems = el
		}
		return n
	}
	return g
}

// infoCompared are the INFO fields whose values are compared.
var infoCompared = map[string]bool{
	"redis_version": true, "redis_mode": true, "arch_bits": true, "process_supervised": true, "config_file": true,
	"hz": true, "configured_hz": true, "maxclients": true, "blocked_clients": true,
	"number_of_cached_scripts": true, "number_of_functions": true, "number_of_libraries": true,
	"maxmemory": true, "maxmemory_human": true, "maxmemory_policy": true,
	"loading": true, "aof_enabled": true, "rdb_bgsave_in_progress": true,
	"total_commands_processed": true, "total_error_replies": true, "expired_keys": true, "evicted_keys": true,
	"role": true, "connected_slaves": true, "repl_backlog_size": true, "cluster_enabled": true,
}

// normalInfo keeps INFO's sections and field names, the values of
// infoCompared, the errorstats, each command's counts and the keyspace
// but for avg_ttl, which Redis only estimates.
func normalInfo(s string) string {
	lines := strings.Split(s, "\r\n")
	for i, l := range lines {
		field, v, ok := strings.Cut(l, ":")
		switch {
		case !ok || strings.HasPrefix(l, "#") || infoCompared[field] || strings.HasPrefix(field, "errorstat_"):
		case strings.HasPrefix(field, "cmdstat_"):
			var kept []string
			for _, kv := range strings.Split(v, ",") {
				if k, _, _ := strings.Cut(kv, "="); k != "usec" && k != "usec_per_call" {
					kept = append(kept, kv)
				}
			}
			lines[i] = field + ":" + strings.Join(kept, ",")
		case strings.HasPrefix(field, "db"):
			if at := strings.Index(v, ",avg_ttl="); at >= 0 {
				lines[i] = field + ":" + v[:at]
			}
		default:
			lines[i] = field + ":(not compared)"
		}
	}
	// Redis lists the commands in its dictionary's order.
	for _, prefix := range []string{"cmdstat_", "latency_percentiles_usec_"} {
		from := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
		if from < 0 {
			continue
		}
		to := from
		for to < len(lines) && strings.HasPrefix(lines[to], prefix) {
			to++
		}
		slices.Sort(lines[from:to])
	}
	return strings.Join(lines, "\r\n")
}

// clientCompared are CLIENT LIST's fields whose values are compared.
var clientCompared = map[string]bool{
	"name": true, "flags": true, "db": true, "sub": true, "psub": true, "ssub": true, "multi": true,
	"cmd": true, "user": true, "redir": true, "resp": true, "events": true,
}

func normalClientList(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		for j, kv := range f {
			if k, _, ok := strings.Cut(kv, "="); ok && !clientCompared[k] {
				f[j] = k + "=(not compared)"
			}
		}
		lines[i] = strings.Join(f, " ")
	}
	return strings.Join(lines, "\n")
}
