// The error texts the engine's own commands share, in Redis 7.0's words;
// those that wasm/extracmds gives too are wasm/resp's.

package engine

import (
	"echomq.dev/playground/wasm/resp"
)

var errWrongType = resp.ErrorReply(resp.WrongTypeError)

const (
	errNotInt        = resp.NotIntegerError
	errScoreRange    = "ERR min or max is not a float"
	errLexRange      = "ERR min or max not valid string range item"
	errNaNScore      = "ERR resulting score is not a number (NaN)"
	errSyntax        = resp.SyntaxError
	errNotPositive   = "ERR value is out of range, must be positive"
	errWrongArgCount = "ERR wrong number of arguments for '%s' command"
)
