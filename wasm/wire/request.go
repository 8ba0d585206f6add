package wire

import "strconv"

// The request side of the wire, as Redis 7.0 reads a client's bytes
// (networking.c's processInlineBuffer and processMultibulkBuffer): each
// request is a multibulk array of bulk strings when its first byte is '*',
// and an inline command (a line of words, with quotes) otherwise.

// Limits and error texts Redis 7.0 uses.
const (
	// inlineMax is PROTO_INLINE_MAX_SIZE: the most bytes Redis waits for
	// without finding the end of an inline request or of a count line.
	inlineMax = 64 * 1024
	// bulkMax is proto-max-bulk-len's default, 512 MiB.
	bulkMax = 512 * 1024 * 1024
	// multibulkMax is INT_MAX, the most arguments a request may announce.
	multibulkMax = 1<<31 - 1

	errTooBigInline    = "ERR Protocol error: too big inline request"
	errUnbalanced      = "ERR Protocol error: unbalanced quotes in request"
	errTooBigCount     = "ERR Protocol error: too big mbulk count string"
	errMultibulkLength = "ERR Protocol error: invalid multibulk length"
	errTooBigBulkCount = "ERR Protocol error: too big bulk count string"
	errBulkLength      = "ERR Protocol error: invalid bulk length"
)

// reader holds what a connection has sent and not yet run: the bytes from
// pos on, and the multibulk request it is in the middle of, so that a
// request arriving in many pieces is read once, not again from its start
// at every piece.
type reader struct {
	buf  []byte
	pos  int
	args []string // the multibulk request read so far
	left int      // its arguments still to come; 0 between requests
	bulk int      // the length of the next argument, or -1 before its $ line
}

// feed appends bytes the client sent.
func (r *reader) feed(in []byte) {
	if r.pos > 0 && r.pos == len(r.buf) {
		r.buf, r.pos = r.buf[:0], 0
	}
	r.buf = append(r.buf, in...)
}

// compact drops the bytes already read, keeping the buffer's memory only
// while it is small.
func (r *reader) compact() {
	rest := len(r.buf) - r.pos
	switch {
	case rest == 0 && cap(r.buf) > keepBuffer:
		r.buf, r.pos = nil, 0
	case rest == 0:
		r.buf, r.pos = r.buf[:0], 0
	case r.pos > 0:
		r.buf = r.buf[:copy(r.buf, r.buf[r.pos:])]
		r.pos = 0
	}
}

// keepBuffer is the largest input buffer a connection keeps between reads.
const keepBuffer = 64 * 1024

// next reads the next whole request. It returns ok false when the bytes
// so far hold no whole request; perr, when they are not a request at all,
// is the error Redis replies before it closes the connection. A request
// with no arguments (an empty line, "*0") is skipped, as Redis skips it.
func (r *reader) next() (args []string, ok bool, perr string) {
	for r.pos < len(r.buf) || r.left > 0 {
		if r.left == 0 {
			if r.buf[r.pos] != '*' {
				args, ok, perr = r.inline()
			} else {
				args, ok, perr = r.multibulk()
			}
		} else {
			args, ok, perr = r.bulks()
		}
		if !ok || perr != "" || len(args) > 0 {
			return args, ok, perr
		}
	}
	return nil, false, ""
}

// inline reads one inline request: a line ending in \n (or \r\n), split
// into words as Redis splits them (see splitArgs).
func (r *reader) inline() ([]string, bool, string) {
	rest := r.buf[r.pos:]
	end := indexByte(rest, '\n')
	if end < 0 {
		if len(rest) > inlineMax {
			return nil, true, errTooBigInline
		}
		return nil, false, ""
	}
	line := rest[:end]
	if end > 0 && line[end-1] == '\r' {
		line = line[:end-1]
	}
	args, ok := splitArgs(line)
	if !ok {
		return nil, true, errUnbalanced
	}
	r.pos += end + 1
	return args, true, ""
}

// multibulk reads a request's "*<count>" line, then as many of its
// arguments as have arrived.
func (r *reader) multibulk() ([]string, bool, string) {
	line, ok := r.line()
	if !ok {
		if len(r.buf)-r.pos > inlineMax {
			return nil, true, errTooBigCount
		}
		return nil, false, ""
	}
	n, ok := parseInt(line[1:])
	if !ok || n > multibulkMax {
		return nil, true, errMultibulkLength
	}
	r.pos += len(line) + 2
	if n <= 0 {
		return nil, true, "" // an empty request: nothing to run or answer
	}
	r.left, r.bulk = int(n), -1
	r.args = make([]string, 0, min(n, 1024))
	return r.bulks()
}

// bulks reads the arguments of the request in progress, each a "$<len>"
// line and that many bytes; the two bytes after them are skipped unread,
// as Redis skips them.
func (r *reader) bulks() ([]string, bool, string) {
	for r.left > 0 {
		if r.bulk < 0 {
			line, ok := r.line()
			if !ok {
				if len(r.buf)-r.pos > inlineMax {
					return nil, true, errTooBigBulkCount
				}
				return nil, false, ""
			}
			if got := r.buf[r.pos]; got != '$' {
				// Redis writes no line break inside an error: a CR or LF
				// shows as a space.
				if got == '\r' || got == '\n' {
					got = ' '
				}
				return nil, true, "ERR Protocol error: expected '$', got '" + string([]byte{got}) + "'"
			}
			n, ok := parseInt(line[1:])
			if !ok || n < 0 || n > bulkMax {
				return nil, true, errBulkLength
			}
			r.pos += len(line) + 2
			r.bulk = int(n)
		}
		if len(r.buf)-r.pos < r.bulk+2 {
			return nil, false, ""
		}
		r.args = append(r.args, string(r.buf[r.pos:r.pos+r.bulk]))
		r.pos += r.bulk + 2
		r.bulk = -1
		r.left--
	}
	args := r.args
	r.args = nil
	return args, true, ""
}

// line returns the bytes from pos up to the next \r, when a \n has had
// room to follow it (Redis looks for the \r and then steps over two
// bytes, whatever the second is).
func (r *reader) line() ([]byte, bool) {
	rest := r.buf[r.pos:]
	end := indexByte(rest, '\r')
	if end < 0 || end+2 > len(rest) {
		return nil, false
	}
	return rest[:end], true
}

// indexByte is where c first is in b, as C's strchr finds it in the
// NUL-terminated buffer Redis reads requests from: a NUL before it ends
// the search, so a line with a NUL in it never ends (until it is too
// long). Once a bulk's length is read, its bytes are taken by count, NULs
// and all.
func indexByte(b []byte, c byte) int {
	for i, x := range b {
		switch x {
		case c:
			return i
		case 0:
			return -1
		}
	}
	return -1
}

// parseInt reads a count or a length as Redis's string2ll does: optional
// '-', then digits with no leading zero (a lone "0" aside), nothing else,
// within int64.
func parseInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	if len(b) == 1 && b[0] == '0' {
		return 0, true
	}
	digits := b
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || digits[0] < '1' || digits[0] > '9' {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}

// splitArgs splits an inline request into words as Redis's sdssplitargs
// does: words are separated by white space; a word may hold "double
// quotes", with the escapes \n \r \t \b \a \\ \" and \xHH, or 'single
// quotes', where only \' is an escape. A closing quote must end its word,
// and a quote left open makes the line unreadable (ok false). A NUL byte
// ends the line, as it ends the C string Redis splits.
func splitArgs(line []byte) (args []string, ok bool) {
	i := 0
	for {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) || line[i] == 0 {
			return args, true
		}
		var word []byte
		inDouble, inSingle := false, false
		for done := false; !done; {
			if i == len(line) || line[i] == 0 {
				if inDouble || inSingle {
					return nil, false
				}
				break
			}
			c := line[i]
			switch {
			case inDouble:
				switch {
				case c == '\\' && i+3 < len(line) && line[i+1] == 'x' && isHex(line[i+2]) && isHex(line[i+3]):
					word = append(word, hexValue(line[i+2])<<4|hexValue(line[i+3]))
					i += 3
				case c == '\\' && i+1 < len(line) && line[i+1] != 0:
					i++
					word = append(word, unescape(line[i]))
				case c == '"':
					if i+1 < len(line) && !isSpace(line[i+1]) && line[i+1] != 0 {
						return nil, false
					}
					done = true
				default:
					word = append(word, c)
				}
			case inSingle:
				switch {
				case c == '\\' && i+1 < len(line) && line[i+1] == '\'':
					i++
					word = append(word, '\'')
				case c == '\'':
					if i+1 < len(line) && !isSpace(line[i+1]) && line[i+1] != 0 {
						return nil, false
					}
					done = true
				default:
					word = append(word, c)
				}
			default:
				switch c {
				case ' ', '\n', '\r', '\t':
					done = true
					continue // the separator is skipped with the spaces
				case '"':
					inDouble = true
				case '\'':
					inSingle = true
				default:
					word = append(word, c)
				}
			}
			i++
		}
		args = append(args, string(word))
	}
}

// isSpace is C's isspace in the C locale.
func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexValue(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// unescape is the byte a backslash escape in double quotes stands for.
func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'a':
		return '\a'
	}
	return c
}
