package stream

// Listpack sizes, for where a macro node ends. Redis 7.0 starts a new node
// when the last one's listpack, plus the new entry's field and value bytes,
// reaches stream-node-max-bytes, or when it holds stream-node-max-entries
// entries, deleted ones included. Only the sizes matter here: the engine
// keeps the entries themselves as Go values.

const lpEmpty = 7 // a listpack's header (6 bytes) and end byte

// lpInt is the size of an integer element: its encoding and its back
// length.
func lpInt(v int64) int {
	switch {
	case v >= 0 && v <= 127:
		return 2
	case v >= -4096 && v <= 4095:
		return 3
	case v >= -32768 && v <= 32767:
		return 4
	case v >= -8388608 && v <= 8388607:
		return 5
	case v >= -2147483648 && v <= 2147483647:
		return 6
	}
	return 10
}

// lpString is the size of a string element, which a listpack keeps as an
// integer when it reads as one (string2ll's rules).
func lpString(s string) int {
	if len(s) <= 20 {
		if v, ok := string2ll(s); ok {
			return lpInt(v)
		}
	}
	var l int
	switch n := len(s); {
	case n < 64:
		l = 1 + n
	case n < 4096:
		l = 2 + n
	default:
		l = 5 + n
	}
	return l + backlen(l)
}

// backlen is how many bytes an element of l bytes needs to say its length.
func backlen(l int) int {
	switch {
	case l <= 127:
		return 1
	case l < 16383:
		return 2
	case l < 2097151:
		return 3
	case l < 268435455:
		return 4
	}
	return 5
}
