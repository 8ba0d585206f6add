package fidelity

// The randomized Lua programs: small scripts of the kinds a learner writes
// (a pattern over a string, operations on a table, numbers turned into
// text), made from a fixed seed and run as one case, each program its own
// EVAL, compared as every case is.

import (
	"fmt"
	"strconv"
	"strings"

	"echomq.dev/playground/internal/redisdiff"
)

const (
	luaProgramsSeed = 51
	luaPrograms     = 2000
)

func randomLuaCase() fcase {
	g := &luaGen{r: redisdiff.NewRandPCG(luaProgramsSeed, luaProgramsSeed)}
	c := fcase{id: "random/lua-programs",
		desc: fmt.Sprintf("%d small Lua programs from seed %d: patterns over random strings (find, match, gmatch, gsub, "+
			"malformed ones too), table operations (insert, remove, sort, concat, #, pairs over string keys) and "+
			"numbers as text (tostring, string.format, math)", luaPrograms, luaProgramsSeed)}
	for i := 0; i < luaPrograms; i++ {
		var exprs []string
		switch i % 3 {
		case 0:
			exprs = g.patternProgram()
		case 1:
			exprs = g.tableProgram()
		default:
			exprs = g.numberProgram()
		}
		c.cmds = append(c.cmds, luaExprs(exprs...))
		if i%500 == 499 {
			c.cmds = append(c.cmds, []string{"SCRIPT", "FLUSH"})
		}
	}
	return c
}

type luaGen struct{ r *redisdiff.Rand }

func (g *luaGen) pick(xs ...string) string { return redisdiff.Pick(g.r, xs...) }

// quote is s as a Lua string literal, every unprintable byte escaped
// with three digits (so that a digit after it is not read as its own).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 32 || c > 126:
			fmt.Fprintf(&b, "\\%03d", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// subject is a short string over the bytes patterns care about.
func (g *luaGen) subject() string {
	const alphabet = "aab bc1 2x.()[]%-^$_A\x00\xe9,;="
	n := g.r.IntN(13)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

// patternItem is one single-character class, perhaps quantified.
func (g *luaGen) patternItem() string {
	var item string
	switch g.r.IntN(9) {
	case 0, 1:
		item = g.pick("a", "b", "x", "1", " ", "_", ",")
	case 2:
		item = "."
	case 3, 4:
		item = "%" + g.pick("a", "d", "s", "w", "p", "x", "u", "l", "c", "z", "A", "D", "S", "W", "P", ".", "%", "(", "-", "g")
	case 5, 6:
		set := g.pick("a-c", "%d", "^a", "^%s", "%a_", "]a", "a%-", "1-3x", "^%w", "%p", "b-a", "a-")
		item = "[" + set + "]"
	case 7:
		item = g.pick("%b()", "%b[]", "%f[%w]", "%f[%W]", "%f[a]", "%1")
	default:
		item = g.pick("(", ")", "()", "[", "%", "[a", "%f", "%b")
	}
	if strings.HasPrefix(item, "%b") || strings.HasPrefix(item, "%f") || item == "(" || item == ")" || item == "()" {
		return item
	}
	if g.r.IntN(3) == 0 {
		item += g.pick("*", "+", "-", "?")
	}
	return item
}

func (g *luaGen) pattern() string {
	var b strings.Builder
	if g.r.IntN(4) == 0 {
		b.WriteByte('^')
	}
	n := 1 + g.r.IntN(4)
	open := 0
	for i := 0; i < n; i++ {
		if g.r.IntN(5) == 0 {
			b.WriteByte('(')
			open++
		}
		b.WriteString(g.patternItem())
		if open > 0 && g.r.IntN(3) == 0 {
			b.WriteByte(')')
			open--
		}
	}
	for ; open > 0 && g.r.IntN(4) != 0; open-- {
		b.WriteByte(')')
	}
	if g.r.IntN(5) == 0 {
		b.WriteByte('$')
	}
	return b.String()
}

func (g *luaGen) patternProgram() []string {
	s, p := quote(g.subject()), quote(g.pattern())
	var exprs []string
	for range 1 + g.r.IntN(3) {
		switch g.r.IntN(8) {
		case 0:
			exprs = append(exprs, "string.find("+s+", "+p+")")
		case 1:
			exprs = append(exprs, fmt.Sprintf("string.find(%s, %s, %d)", s, p, g.r.IntN(9)-3))
		case 2:
			exprs = append(exprs, "string.find("+s+", "+p+", 1, true)")
		case 3:
			exprs = append(exprs, "string.match("+s+", "+p+")")
		case 4:
			exprs = append(exprs, "gm("+s+", "+p+")")
		case 5:
			repl := quote(g.pick("<%0>", "%1", "%%", "-", "", "%2", "x%", "[%1|%0]"))
			exprs = append(exprs, "string.gsub("+s+", "+p+", "+repl+")")
		case 6:
			exprs = append(exprs, fmt.Sprintf("string.gsub(%s, %s, %s, %d)", s, p, g.pick("'#'", "{a = 'A', [' '] = '_', b = false}",
				"function(c) return c:upper() end", "function() return nil end", "{}", "string.len"), g.r.IntN(4)))
		default:
			exprs = append(exprs, "string.match("+s+", "+p+", "+strconv.Itoa(g.r.IntN(6)-2)+")")
		}
	}
	return exprs
}

func (g *luaGen) value() string {
	switch g.r.IntN(6) {
	case 0:
		return quote(g.pick("a", "b", "c", "10", "9", "", "B"))
	default:
		return strconv.Itoa(g.r.IntN(20) - 5)
	}
}

func (g *luaGen) tableProgram() []string {
	var b strings.Builder
	b.WriteString("(function() local t = {")
	for i := range g.r.IntN(6) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(g.value())
	}
	b.WriteString("} local out = {}\n")
	for range 1 + g.r.IntN(5) {
		switch g.r.IntN(10) {
		case 0:
			b.WriteString("table.insert(t, " + g.value() + ")\n")
		case 1:
			// Within 1..#t+1: a hole makes #t one of several borders,
			// which the engine picks otherwise (see tables/insert-position).
			fmt.Fprintf(&b, "table.insert(t, math.min(%d, #t + 1), %s)\n", 1+g.r.IntN(3), g.value())
		case 2:
			b.WriteString("out[#out + 1] = tostring(table.remove(t))\n")
		case 3:
			b.WriteString("out[#out + 1] = tostring(table.remove(t, 1))\n")
		case 4:
			b.WriteString("table.sort(t)\n")
		case 5:
			b.WriteString("table.sort(t, " + g.pick("function(a, b) return a > b end", "function(a, b) return tostring(a) < tostring(b) end",
				"function(a, b) return #tostring(a) < #tostring(b) end") + ")\n")
		case 6:
			b.WriteString("out[#out + 1] = table.concat(t, " + g.pick("','", "''", "' '") + ")\n")
		case 7:
			b.WriteString("out[#out + 1] = #t\n")
		case 8:
			// String keys, set by assignment: pairs follows Lua 5.1's order.
			b.WriteString("local h = {} ")
			for range 1 + g.r.IntN(8) {
				b.WriteString("h[" + quote(g.pick("id", "name", "state", "a", "b", "c", "job", "lease", "x1", "x2", "payload", "attempts")) +
					"] = " + strconv.Itoa(g.r.IntN(9)) + " ")
			}
			b.WriteString("for k, v in pairs(h) do out[#out + 1] = k .. '=' .. v end\n")
		default:
			b.WriteString("out[#out + 1] = select('#', unpack(t))\n")
		}
	}
	b.WriteString("return table.concat(out, ';') end)()")
	return []string{b.String()}
}

func (g *luaGen) number() string {
	switch g.r.IntN(10) {
	case 0:
		return g.pick("z/z", "-(z/z)", "1/z", "-1/z", "z", "-z")
	case 1:
		return g.pick("2^53", "2^63", "1e15", "1e16", "1e-5", "123456789012", "0.1", "1/3", "-2.5", "1e308*10")
	default:
		n := strconv.Itoa(g.r.IntN(2001) - 1000)
		if g.r.IntN(2) == 0 {
			n += "." + strconv.Itoa(g.r.IntN(1000))
		}
		return n
	}
}

func (g *luaGen) numberProgram() []string {
	var exprs []string
	for range 1 + g.r.IntN(3) {
		a, b := g.number(), g.number()
		var e string
		switch g.r.IntN(7) {
		case 0:
			// Through z, so that the compiler does not fold the constants
			// (see numbers/folded-modulo).
			e = fmt.Sprintf("tostring((z + %s) %s (z + %s))", a, g.pick("+", "-", "*", "/", "%"), b)
		case 1:
			e = fmt.Sprintf("string.format(%s, %s)", quote(g.pick("%d", "%5.2f", "%g", "%.3g", "%x", "%e", "%.0f", "%s", "%q", "%10.4f", "%-8d|", "%+d", "%i", "%o")), a)
		case 2:
			// Functions whose results are exact, or correctly rounded, in
			// both Go and glibc; the others (exp, log, sin...) only where
			// their results are exact (see numbers/libm-last-digit).
			if g.r.IntN(2) == 0 {
				e = fmt.Sprintf("tostring(math.%s(%s))", g.pick("floor", "ceil", "abs", "sqrt"), a)
			} else {
				e = fmt.Sprintf("tostring(math.%s(%s))", g.pick("log", "log10", "exp", "sin", "cos", "tan", "acos", "asin", "atan"),
					g.pick("0", "1", "-1", "z", "-z", "1/z", "-1/z", "z/z", "-(z/z)", "2", "10", "1000", "0.5"))
			}
		case 3:
			e = fmt.Sprintf("tostring(math.%s(%s, %s))", g.pick("fmod", "max", "min", "ldexp"), a, b)
		case 4:
			e = fmt.Sprintf("math.modf(%s)", a)
		case 5:
			e = fmt.Sprintf("tonumber(%s)", quote(g.pick(" 12 ", "0x1F", "1e3", "1e", "", "12a", "-0", "inf", "nan", ".5", "5.", "0x", "1_0", "١")))
		default:
			e = fmt.Sprintf("(%s) .. '' .. (%s)", a, b)
		}
		exprs = append(exprs, "(function(z) return "+e+" end)(0)")
	}
	return exprs
}
