// Lua 5.1's words for what gopher-lua words otherwise, and a reply's text
// kept on one RESP line.

package luarun

import (
	"regexp"
	"strings"
	"sync"
)

// OneLine keeps a reply on one RESP line, as Redis does by turning CR and LF
// in error and status replies into spaces.
func OneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// badArgument matches gopher-lua's argument errors, which name the function
// bare ("bad argument #1 to sub (...)") where Lua 5.1 quotes it. It is
// compiled when an error first needs it, not as the program starts: in
// WebAssembly, compiling it (and first running Go's regexp code) would
// add to every learner's page load for the sake of an error path.
var badArgument = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`bad argument #(\d+) to ([^\s'(]+) \(`)
})

// Lua51Wording rewrites the error messages gopher-lua's libraries raise into
// Lua 5.1's words. (The VM's own messages are raised in Lua 5.1's words in
// the first place; see luavm.go in wasm/engine.)
func Lua51Wording(msg string) string {
	if !strings.Contains(msg, "bad argument #") {
		return msg
	}
	return badArgument().ReplaceAllString(msg, "bad argument #$1 to '$2' (")
}
