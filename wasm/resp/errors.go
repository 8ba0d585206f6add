package resp

// The error texts Redis 7.0 gives from many commands, word for word, in
// one place: the engine and the commands of wasm/extracmds both answer
// with them, and a copy in each would be two texts to keep the same.
const (
	// WrongTypeError is the reply to a command on a key of another type.
	WrongTypeError = "WRONGTYPE Operation against a key holding the wrong kind of value"
	// NotIntegerError is the reply to an argument that must be an integer
	// (a 64-bit one, as string2ll reads it) and is not.
	NotIntegerError = "ERR value is not an integer or out of range"
	// SyntaxError is the reply to an option a command does not know, or
	// one given in the wrong place.
	SyntaxError = "ERR syntax error"
	// BitOffsetError is the reply to a bit offset (SETBIT, GETBIT,
	// BITFIELD) that is not an integer, is negative, or is past 512 MiB.
	BitOffsetError = "ERR bit offset is not an integer or out of range"
)
