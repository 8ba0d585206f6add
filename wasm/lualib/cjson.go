package lualib

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/cescape"
)

// cjson as Redis ships it (lua-cjson 2.1.0). Each module table (cjson
// itself and each cjson.new()) has its own settings, which last for the
// life of the Lua state, as they do in Redis.

type cjsonConfig struct {
	sparseConvert  bool
	sparseRatio    int32
	sparseSafe     int32
	encodeMaxDepth int32
	decodeMaxDepth int32
	invalidNumbers int // encode: 0 off, 1 on, 2 null
	decodeInvalid  bool
	keepBuffer     bool
	precision      int32
}

func defaultCJSONConfig() *cjsonConfig {
	return &cjsonConfig{
		sparseRatio:    2,
		sparseSafe:     10,
		encodeMaxDepth: 1000,
		decodeMaxDepth: 1000,
		decodeInvalid:  true,
		keepBuffer:     true,
		precision:      14,
	}
}

// cjsonModule builds a cjson table with settings of its own.
func cjsonModule(L *lua.LState, st *state) *lua.LTable {
	cfg := defaultCJSONConfig()
	t := L.NewTable()
	setFuncs(L, t, map[string]lua.LGFunction{
		"encode": func(L *lua.LState) int { return cjsonEncode(L, st, cfg) },
		"decode": func(L *lua.LState) int { return cjsonDecode(L, st, cfg) },
		"new": func(L *lua.LState) int {
			L.Push(cjsonModule(L, st))
			return 1
		},
		"encode_sparse_array": func(L *lua.LState) int {
			cjsonArgs(L, 3)
			boolOption(L, 1, &cfg.sparseConvert)
			intOption(L, 2, &cfg.sparseRatio, 0, math.MaxInt32)
			intOption(L, 3, &cfg.sparseSafe, 0, math.MaxInt32)
			return 3
		},
		"encode_max_depth": func(L *lua.LState) int {
			cjsonArgs(L, 1)
			intOption(L, 1, &cfg.encodeMaxDepth, 1, math.MaxInt32)
			return 1
		},
		"decode_max_depth": func(L *lua.LState) int {
			cjsonArgs(L, 1)
			intOption(L, 1, &cfg.decodeMaxDepth, 1, math.MaxInt32)
			return 1
		},
		"encode_number_precision": func(L *lua.LState) int {
			cjsonArgs(L, 1)
			intOption(L, 1, &cfg.precision, 1, 14)
			return 1
		},
		"encode_keep_buffer": func(L *lua.LState) int {
			cjsonArgs(L, 1)
			boolOption(L, 1, &cfg.keepBuffer)
			return 1
		},
		"encode_invalid_numbers": func(L *lua.LState) int {
			cjsonArgs(L, 1)
			enumOption(L, 1, &cfg.invalidNumbers, []string{"off", "on", "null"})
			return 1
		},
		"decode_invalid_numbers": func(L *lua.LState) int {
			cjsonArgs(L, 1)
			boolOption(L, 1, &cfg.decodeInvalid)
			return 1
		},
	})
	t.RawSetString("null", st.null)
	t.RawSetString("_NAME", lua.LString("cjson"))
	t.RawSetString("_VERSION", lua.LString("2.1.0"))
	return t
}

// cjsonArgs checks a settings function got at most n arguments and pads
// the missing ones with nil.
func cjsonArgs(L *lua.LState, n int) {
	if L.GetTop() > n {
		argError(L, n+1, "found too many arguments")
	}
	for L.GetTop() < n {
		L.Push(lua.LNil)
	}
}

func intOption(L *lua.LState, i int, setting *int32, min, max int32) {
	if L.Get(i) != lua.LNil {
		v := int32(checkInteger(L, i))
		if v < min || v > max {
			argError(L, 1, "expected integer between "+strconv.Itoa(int(min))+" and "+strconv.Itoa(int(max)))
		}
		*setting = v
	}
	L.Push(lua.LNumber(*setting))
}

func boolOption(L *lua.LState, i int, setting *bool) {
	v := 0
	if *setting {
		v = 1
	}
	enumOption(L, i, &v, []string{"off", "on"})
	*setting = v == 1
}

// enumOption is lua-cjson's json_enum_option with booleans standing for
// the first two options.
func enumOption(L *lua.LState, i int, setting *int, options []string) {
	switch v := L.Get(i).(type) {
	case *lua.LNilType:
	case lua.LBool:
		*setting = 0
		if v {
			*setting = 1
		}
	default:
		name := checkString(L, i)
		found := false
		for j, o := range options {
			if o == name {
				*setting, found = j, true
			}
		}
		if !found {
			argError(L, i, "invalid option '"+name+"'")
		}
	}
	if *setting <= 1 {
		L.Push(lua.LBool(*setting == 1))
	} else {
		L.Push(lua.LString(options[*setting]))
	}
}

// ---- encode ----

type cjsonEncoder struct {
	L   *lua.LState
	st  *state
	cfg *cjsonConfig
	b   strings.Builder
}

func cjsonEncode(L *lua.LState, st *state, cfg *cjsonConfig) int {
	if L.GetTop() != 1 {
		argError(L, 1, "expected 1 argument")
	}
	e := &cjsonEncoder{L: L, st: st, cfg: cfg}
	e.value(L.Get(1))
	L.Push(lua.LString(e.b.String()))
	return 1
}

func (e *cjsonEncoder) fail(v lua.LValue, reason string) {
	e.L.RaiseError("Cannot serialise %s: %s", v.Type().String(), reason)
}

// encodeOpen is a table the encoder is writing: an array's length and next
// index, or an object's pairs and the next of them.
type encodeOpen struct {
	t     *lua.LTable
	n, i  int32
	isObj bool
	pairs [][2]lua.LValue
	next  int
}

// value writes v. It keeps a stack of the tables it is inside rather than
// recursing, as the decoder does, and polls the script's budget: a table
// of a million values is one call.
func (e *cjsonEncoder) value(v lua.LValue) {
	var stack []encodeOpen
	m := meter{L: e.L}
	for {
		m.spend(1)
		if t, ok := v.(*lua.LTable); ok {
			depth := int32(len(stack)) + 1
			if depth > e.cfg.encodeMaxDepth {
				e.L.RaiseError("Cannot serialise, excessive nesting (%d)", depth)
			}
			if n := e.arrayLength(t); n > 0 {
				e.b.WriteByte('[')
				stack = append(stack, encodeOpen{t: t, n: n, i: 1})
			} else {
				e.b.WriteByte('{')
				stack = append(stack, encodeOpen{t: t, isObj: true, pairs: luaOrder(t)})
			}
		} else {
			before := e.b.Len()
			e.scalar(v)
			m.spend(e.b.Len() - before)
		}
		// The next value to write, closing the tables that have no more.
		for {
			if len(stack) == 0 {
				return
			}
			top := &stack[len(stack)-1]
			if !top.isObj && top.i <= top.n {
				if top.i > 1 {
					e.b.WriteByte(',')
				}
				v = top.t.RawGetInt(int(top.i))
				top.i++
				break
			}
			if top.isObj && top.next < len(top.pairs) {
				kv := top.pairs[top.next]
				if top.next > 0 {
					e.b.WriteByte(',')
				}
				top.next++
				switch k := kv[0].(type) {
				case lua.LNumber:
					e.b.WriteByte('"')
					e.number(k)
					e.b.WriteString("\":")
				case lua.LString:
					cjsonQuote(&e.b, string(k))
					e.b.WriteByte(':')
				default:
					e.fail(k, "table key must be a number or string")
				}
				v = kv[1]
				break
			}
			if !top.isObj {
				e.b.WriteByte(']')
			} else {
				e.b.WriteByte('}')
			}
			stack = stack[:len(stack)-1]
		}
	}
}

// scalar writes a value that is not a table.
func (e *cjsonEncoder) scalar(v lua.LValue) {
	switch v := v.(type) {
	case lua.LString:
		cjsonQuote(&e.b, string(v))
	case lua.LNumber:
		e.number(v)
	case lua.LBool:
		if v {
			e.b.WriteString("true")
		} else {
			e.b.WriteString("false")
		}
	case *lua.LNilType:
		e.b.WriteString("null")
	case *lua.LUserData:
		if v == e.st.null {
			e.b.WriteString("null")
			return
		}
		e.fail(v, "type not supported")
	default:
		e.fail(v, "type not supported")
	}
}

// arrayLength is the largest key of a table whose keys are all integers
// from 1 up, 0 for an empty table, -1 for anything else (an object). A
// table too sparse to be an array is an error unless the settings say to
// encode it as an object.
func (e *cjsonEncoder) arrayLength(t *lua.LTable) int32 {
	var max, items int32
	array := true
	for _, kv := range luaOrder(t) { // the order matters for keys past 2^31
		n, ok := kv[0].(lua.LNumber)
		f := float64(n)
		if !ok || f == 0 || math.Floor(f) != f || f < 1 {
			array = false
			break
		}
		if f > float64(max) {
			max = cInt32(f)
		}
		items++
	}
	if !array {
		return -1
	}
	c := e.cfg
	if c.sparseRatio > 0 && max > items*c.sparseRatio && max > c.sparseSafe {
		if !c.sparseConvert {
			e.fail(t, "excessively sparse array")
		}
		return -1
	}
	return max
}

func (e *cjsonEncoder) number(n lua.LNumber) {
	f := float64(n)
	bad := math.IsInf(f, 0) || math.IsNaN(f)
	switch {
	case bad && e.cfg.invalidNumbers == 0:
		e.fail(n, "must not be NaN or Inf")
	case bad && e.cfg.invalidNumbers == 2:
		e.b.WriteString("null")
	case math.IsNaN(f):
		e.b.WriteString("nan")
	default:
		e.b.WriteString(printfSpec{prec: int(e.cfg.precision)}.float(f, 'g'))
	}
}

// cjsonQuote writes s as a JSON string the way lua-cjson escapes it: the
// two-letter escapes, \/ for the slash, \u00XX for other control bytes and
// DEL, and every other byte as it is.
func cjsonQuote(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '/':
			b.WriteString(`\/`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 || c == 0x7f {
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}

// ---- decode ----

type jsonToken int

const (
	tObjBegin jsonToken = iota
	tObjEnd
	tArrBegin
	tArrEnd
	tString
	tNumber
	tBoolean
	tNull
	tColon
	tComma
	tEnd
	tWhitespace
	tError
	tUnknown
)

var jsonTokenNames = [...]string{"T_OBJ_BEGIN", "T_OBJ_END", "T_ARR_BEGIN", "T_ARR_END", "T_STRING",
	"T_NUMBER", "T_BOOLEAN", "T_NULL", "T_COLON", "T_COMMA", "T_END", "T_WHITESPACE", "T_ERROR", "T_UNKNOWN"}

// jsonClass is what lua-cjson makes of a byte where a token starts.
func jsonClass(c byte) jsonToken {
	switch c {
	case '{':
		return tObjBegin
	case '}':
		return tObjEnd
	case '[':
		return tArrBegin
	case ']':
		return tArrEnd
	case ':':
		return tColon
	case ',':
		return tComma
	case ' ', '\t', '\n', '\r':
		return tWhitespace
	case 0:
		return tEnd
	case '"', '+', '-', 'f', 'i', 'I', 'n', 'N', 't':
		return tUnknown
	}
	if isDigit(c) {
		return tUnknown
	}
	return tError
}

type token struct {
	typ   jsonToken
	index int
	str   string // the string of tString, the message of tError
	num   float64
	b     bool
}

type cjsonDecoder struct {
	L     *lua.LState
	st    *state
	cfg   *cjsonConfig
	data  string // up to the first NUL, as C sees it
	pos   int
	depth int32
}

func cjsonDecode(L *lua.LState, st *state, cfg *cjsonConfig) int {
	if L.GetTop() != 1 {
		argError(L, 1, "expected 1 argument")
	}
	s := checkString(L, 1)
	if len(s) >= 2 && (s[0] == 0 || s[1] == 0) {
		L.RaiseError("JSON parser does not support UTF-16 or UTF-32")
	}
	d := &cjsonDecoder{L: L, st: st, cfg: cfg, data: cString(s)}
	t := d.next()
	v := d.value(t)
	if t := d.next(); t.typ != tEnd {
		d.fail("the end", t)
	}
	L.Push(v)
	return 1
}

func (d *cjsonDecoder) fail(expected string, t token) {
	found := jsonTokenNames[t.typ]
	if t.typ == tError {
		found = t.str
	}
	d.L.RaiseError("Expected %s but found %s at character %d", expected, found, t.index+1)
}

func (d *cjsonDecoder) errToken(msg string) token {
	return token{typ: tError, index: d.pos, str: msg}
}

func (d *cjsonDecoder) at(i int) byte {
	if i < len(d.data) {
		return d.data[i]
	}
	return 0
}

func (d *cjsonDecoder) next() token {
	var c byte
	var typ jsonToken
	for {
		c = d.at(d.pos)
		typ = jsonClass(c)
		if typ != tWhitespace {
			break
		}
		d.pos++
	}
	switch typ {
	case tError:
		return d.errToken("invalid token")
	case tEnd:
		return token{typ: tEnd, index: d.pos}
	case tUnknown:
	default:
		d.pos++
		return token{typ: typ, index: d.pos - 1}
	}
	rest := d.data[d.pos:]
	switch {
	case c == '"':
		return d.stringToken()
	case c == '-' || isDigit(c):
		if !d.cfg.decodeInvalid && d.invalidNumber() {
			return d.errToken("invalid number")
		}
		return d.numberToken()
	case strings.HasPrefix(rest, "true"):
		d.pos += 4
		return token{typ: tBoolean, index: d.pos - 4, b: true}
	case strings.HasPrefix(rest, "false"):
		d.pos += 5
		return token{typ: tBoolean, index: d.pos - 5}
	case strings.HasPrefix(rest, "null"):
		d.pos += 4
		return token{typ: tNull, index: d.pos - 4}
	case d.cfg.decodeInvalid && d.invalidNumber():
		return d.numberToken()
	}
	return d.errToken("invalid token")
}

// invalidNumber spots the numbers JSON does not allow but strtod reads: a
// leading +, hex, leading zeros, inf and nan.
func (d *cjsonDecoder) invalidNumber() bool {
	p := d.data[d.pos:]
	if strings.HasPrefix(p, "+") {
		return true
	}
	p = strings.TrimPrefix(p, "-")
	if strings.HasPrefix(p, "0") {
		c := byte(0)
		if len(p) > 1 {
			c = p[1]
		}
		return c|0x20 == 'x' || isDigit(c)
	}
	if len(p) == 0 || p[0] <= '9' {
		return false
	}
	return hasPrefixFold(p, "inf") || hasPrefixFold(p, "nan")
}

func (d *cjsonDecoder) numberToken() token {
	f, n := strtod(d.data[d.pos:])
	if n == 0 {
		return d.errToken("invalid number")
	}
	t := token{typ: tNumber, index: d.pos, num: f}
	d.pos += n
	return t
}

// jsonLetters are the one-letter escapes JSON takes from C (RFC 8259):
// no \a and no \v.
const jsonLetters = "bfnrt"

func (d *cjsonDecoder) stringToken() token {
	start := d.pos
	d.pos++ // the opening quote
	var b []byte
	for {
		c := d.at(d.pos)
		if c == '"' {
			break
		}
		if c == 0 {
			return d.errToken("unexpected end of string")
		}
		if c == '\\' {
			e := d.at(d.pos + 1)
			if l, ok := cescape.Letter(e, jsonLetters); ok {
				c = l
			} else {
				switch e {
				case '"', '\\', '/':
					c = e
				case 'u':
					var ok bool
					if b, ok = d.unicodeEscape(b); !ok {
						return d.errToken("invalid unicode escape code")
					}
					continue
				default:
					return d.errToken("invalid escape code")
				}
			}
			d.pos++
		}
		b = append(b, c)
		d.pos++
	}
	d.pos++ // the closing quote
	return token{typ: tString, index: start, str: string(b)}
}

func (d *cjsonDecoder) hex4(at int) int {
	v := 0
	for i := at; i < at+4; i++ {
		n := digitValue(d.at(i))
		if n >= 16 {
			return -1
		}
		v = v<<4 | n
	}
	return v
}

// unicodeEscape appends the UTF-8 of the \uXXXX escape at d.pos (with its
// low surrogate, for a high one) and moves past it.
func (d *cjsonDecoder) unicodeEscape(b []byte) ([]byte, bool) {
	cp := d.hex4(d.pos + 2)
	if cp < 0 {
		return b, false
	}
	n := 6
	if cp&0xF800 == 0xD800 {
		if cp&0x400 != 0 || d.at(d.pos+6) != '\\' || d.at(d.pos+7) != 'u' {
			return b, false
		}
		lo := d.hex4(d.pos + 8)
		if lo < 0 || lo&0xFC00 != 0xDC00 {
			return b, false
		}
		cp = ((cp&0x3FF)<<10 | lo&0x3FF) + 0x10000
		n = 12
	}
	b = utf8.AppendRune(b, rune(cp))
	d.pos += n
	return b, true
}

func (d *cjsonDecoder) descend() {
	d.depth++
	if d.depth > d.cfg.decodeMaxDepth {
		d.L.RaiseError("Found too many nested data structures (%d) at character %d", d.depth, d.pos)
	}
}

// jsonOpen is an object or array the decoder is filling: for an object
// the key whose value comes next, for an array the next index.
type jsonOpen struct {
	t     *lua.LTable
	isObj bool
	key   string
	next  int
}

// value decodes the value that starts with token t. It fills nested
// objects and arrays with a stack of its own, not by recursion: in
// WebAssembly each Go call is a call on the browser's small stack, and a
// thousand levels (what decode_max_depth allows) of a recursive descent
// came close to its end. It polls the script's budget as it reads.
func (d *cjsonDecoder) value(t token) lua.LValue {
	var stack []jsonOpen
	m := meter{L: d.L}
	for {
		m.spend(1)
		var v lua.LValue
		switch t.typ {
		case tString:
			m.spend(len(t.str))
			v = lua.LString(t.str)
		case tNumber:
			v = lua.LNumber(t.num)
		case tBoolean:
			v = lua.LBool(t.b)
		case tNull:
			v = d.st.null
		case tObjBegin:
			d.descend()
			obj := d.L.NewTable()
			if t = d.next(); t.typ != tObjEnd {
				stack = append(stack, jsonOpen{t: obj, isObj: true, key: d.objectKey(t)})
				t = d.next()
				continue
			}
			d.depth--
			v = obj
		case tArrBegin:
			d.descend()
			arr := d.L.NewTable()
			if t = d.next(); t.typ != tArrEnd {
				stack = append(stack, jsonOpen{t: arr, next: 1})
				continue
			}
			d.depth--
			v = arr
		default:
			d.fail("value", t)
		}
		// v is whole: into the object or array that awaits it, which may
		// end with it, and so on up, until one has more to read.
		for {
			if len(stack) == 0 {
				return v
			}
			top := &stack[len(stack)-1]
			if top.isObj {
				top.t.RawSetString(top.key, v)
			} else {
				top.t.RawSetInt(top.next, v)
				top.next++
			}
			t = d.next()
			end, what := tArrEnd, "comma or array end"
			if top.isObj {
				end, what = tObjEnd, "comma or object end"
			}
			if t.typ == end {
				d.depth--
				v = top.t
				stack = stack[:len(stack)-1]
				continue
			}
			if t.typ != tComma {
				d.fail(what, t)
			}
			t = d.next()
			if top.isObj {
				top.key = d.objectKey(t)
				t = d.next()
			}
			break
		}
	}
}

// objectKey reads an object's key, t, and the colon after it.
func (d *cjsonDecoder) objectKey(t token) string {
	if t.typ != tString {
		d.fail("object key string", t)
	}
	key := t.str
	if t = d.next(); t.typ != tColon {
		d.fail("colon", t)
	}
	return key
}
