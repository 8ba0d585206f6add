// Package cli is the redis-cli half of the playground's console: it turns a
// line a learner typed into a command's arguments the way redis-cli's
// prompt does, and a reply into the text redis-cli prints for it. Both
// follow redis-cli 7.0 exactly, because a learner who later opens a real
// redis-cli should meet the same quoting rules and the same output.
//
// The package only converts: running the command is the engine's job.
package cli

import "echomq.dev/playground/wasm/sdsargs"

// ErrInvalid is returned by Split for a line redis-cli refuses to send: an
// unbalanced quote, or a closing quote with a character right after it.
// Its text is what redis-cli prints for such a line.
var ErrInvalid = sdsargs.ErrInvalid

// Split cuts a line into arguments as redis-cli's prompt does: Redis's
// sdssplitargs, which wasm/sdsargs describes.
func Split(line string) ([]string, error) { return sdsargs.Split(line) }
