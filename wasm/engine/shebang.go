package engine

import (
	"strings"

	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/sdsargs"
)

// scriptFlags are the flags a Redis 7 script may declare in a first line
// such as "#!lua flags=no-writes". A script without that line declares
// nothing and may write.
type scriptFlags struct {
	shebang  bool // the script has a "#!lua" line
	noWrites bool
	allowOOM bool // it may write past maxmemory (see maxmemory.go)
}

// knownFlags are the flags Redis 7.0 accepts. Only no-writes and
// allow-oom change anything in a single-node playground; the others are
// accepted and noted.
var knownFlags = map[string]bool{
	"no-writes": true, "allow-oom": true, "allow-stale": true,
	"no-cluster": true, "allow-cross-slot-keys": true,
}

// parseShebang reads a script's "#!lua ..." line. It returns the flags and
// the source to compile, which is the script with that line emptied, so
// that every other line keeps its number in error messages as in Redis.
func parseShebang(src string) (scriptFlags, string, *resp.Reply) {
	if !strings.HasPrefix(src, "#!") {
		return scriptFlags{}, src, nil
	}
	line, rest, found := strings.Cut(src, "\n")
	if !found {
		r := resp.ErrorReply("ERR Invalid script shebang")
		return scriptFlags{}, "", &r
	}
	// Redis splits the line as redis-cli splits a command (sdssplitargs, wasm/sdsargs):
	// "#! lua" is the engine "#!", and flags="no-writes" is quoted.
	words, err := sdsargs.Split(line)
	if err != nil {
		r := resp.ErrorReply("ERR Invalid engine in script shebang")
		return scriptFlags{}, "", &r
	}
	if words = append(words, ""); words[0] != "#!lua" {
		r := resp.Errorf("ERR Unexpected engine in script shebang: %s", words[0])
		return scriptFlags{}, "", &r
	}
	flags := scriptFlags{shebang: true}
	for _, opt := range words[1 : len(words)-1] {
		list, ok := strings.CutPrefix(opt, "flags=")
		if !ok {
			r := resp.Errorf("ERR Unknown lua shebang option: %s", opt)
			return scriptFlags{}, "", &r
		}
		for _, f := range strings.Split(list, ",") {
			if f == "" {
				continue
			}
			if !knownFlags[f] {
				r := resp.Errorf("ERR Unexpected flag in script shebang: %s", f)
				return scriptFlags{}, "", &r
			}
			switch f {
			case "no-writes":
				flags.noWrites = true
			case "allow-oom":
				flags.allowOOM = true
			}
		}
	}
	return flags, "\n" + rest, nil
}
