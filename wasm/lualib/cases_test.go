package lualib

import (
	"fmt"
	"math"
	"os"
	"strings"
)

// exprs makes one case per Lua expression, each returned by the script.
func exprs(group string, list ...string) []luaCase {
	out := make([]luaCase, len(list))
	for i, e := range list {
		out[i] = luaCase{desc: group + ": " + e, lua: "return " + e}
	}
	return out
}

// allCases is every differential case, checked against redis-server by
// TestAgainstRedis and against the recorded replies by
// TestMatchesRecordedRedis.
func allCases() []luaCase {
	var cs []luaCase
	for _, group := range [][]luaCase{
		tonumberCases(), tostringCases(), formatCases(), formatMatrixCases(), caseCases(),
		stringNumberCases(), tableCases(), randomCases(), bitCases(), structCases(),
		msgpackCases(), cjsonEncodeCases(), cjsonDecodeCases(), cjsonConfigCases(), nameCases(), patternCases(),
	} {
		cs = append(cs, group...)
	}
	return cs
}

func tonumberCases() []luaCase {
	var list []string
	for _, s := range []string{"1e3", "0x10", " 10 ", "010", "0b11", "1_000", "0x", "0x1p4", "0X1P-2", "inf", "-Infinity",
		"INF", "nan", "-nan", "NaN", "nan(123)", "nan(", "infinit", "1e", "1e+", ".5", "5.", ".", "0x.8", "\\t\\v\\f\\r\\n5\\n",
		"10\\0abc", "1e400", "-1e400", "1e-400", "0x1.8p1", "+5", "+-5", "- 5", "0xg", "1 2", "", " ", "-0", "-0x0",
		"0x1P", "0x1p+", "1.5e+3", "1E2", "123456789012345678901234567890", "0.1", "4.9e-324", "2.5e-324",
		"0xffffffffffffffffffff", "0x1.fffffffffffff8p1023", "1.7976931348623157e308", "1.7976931348623159e308", "  +.5e1  ",
		"\\0", "5\\0", "1e3x", "0x10p", "00x10", "0x-1", "1.2.3", "--1", "1e3.5", "\\1905"} {
		list = append(list, fmt.Sprintf("E(tonumber, '%s')", s))
	}
	for _, args := range []string{"'10', 16", "'z', 36", "'Z', 36", "'1e3', 10", "' ff ', 16", "'0x10', 16", "'0X1f', 16", "'-1', 10",
		"'-1', 16", "'ffffffffffffffffffff', 16", "'18446744073709551615', 10", "'18446744073709551616', 36", "'1', 1", "'1', 37", "'1', 0",
		"'1', -16", "'1', 'x'", "{}, 16", "nil, 16", "10, 16", "1/3, 10", "1e15, 16", "'10', 16.9", "'10', '16'", "'', 16",
		"'0x', 16", "'+ff', 16", "'- 1', 16", "'1', nil", "nil", "'0x10', 10", "'11', 2", "'12', 2", "'1.5', 10",
		"'10\\0', 16", "' 7 \\t\\n', 8", "'8', 8", "'zz', 35", "'-zz', 36", "true", "{}", "'10', 2^32+16", "'1', 1/0",
		"'777', 8", "'0x1p4', 10", "'1e1', 16", "'.5', 2", "'10', 10.5"} {
		list = append(list, "E(tonumber, "+args+")")
	}
	return exprs("tonumber", list...)
}

func tostringCases() []luaCase {
	cs := exprs("tostring",
		"tostring(1e15)", "tostring(1/3)", "tostring(2^53)", "tostring(-2^53)", "tostring(2^63)", "tostring(1e14)", "tostring(1e14-1)",
		"tostring(0.1)", "tostring(-0.1)", "tostring(1e-5)", "tostring(123456.789)", "tostring(1e100)", "tostring(-2.5e-300)",
		"tostring(1/0)", "tostring(-1/0)", "tostring(tonumber('nan'))", "tostring(tonumber('-nan'))", "tostring(4.9e-324)",
		"tostring(1.7976931348623157e308)", "tostring(3.14159265358979)", "tostring(100)", "tostring(-100)", "tostring(0.5)",
		"tostring(12345678901234)", "tostring(123456789012345)", "tostring(1234567890123456)", "tostring(0.1+0.2)",
		"tostring(1e21)", "tostring(2^31)", "tostring(-2^31)", "tostring(2^32)", "tostring(1.5e-7)", "tostring(99999999999999.5)",
		"tostring('x')", "tostring(true)", "tostring(nil)", "tostring(cjson.null)", "E(tostring)", "E(tostring, nil)",
		"tostring(setmetatable({}, {__tostring = function() return 'T!' end}))",
		"V(tostring(setmetatable({}, {__tostring = function() return 42 end})))",
		"type(tostring({}))", "string.sub(tostring({}), 1, 7)", "E(tonumber)",
		"E(tonumber(tostring(1/3)) == 1/3)", "V(tonumber(tostring(2^53)))",
	)
	cs = append(cs,
		luaCase{desc: "tostring: negative zero", lua: "local z = 0 return tostring(-z)"},
		luaCase{desc: "tostring: 0/0 at run time", lua: "local z = 0 return tostring(z/z)", skip: skipNaNArith},
		luaCase{desc: "tostring: -(0/0) at run time", lua: "local z = 0 return tostring(-(z/z))", skip: skipNaNArith},
	)
	return cs
}

// skipNaNArith is set where the CPU's 0/0 is a NaN of another sign than
// x86-64's (arm64's is positive): Redis prints -nan, which is the VM's to
// reproduce, not this package's.
var skipNaNArith = func() string {
	zero := float64(len(os.Args) * 0)
	if math.Signbit(zero / zero) {
		return ""
	}
	return "known difference: on this CPU 0/0 is a positive NaN, which prints nan where Redis on x86-64 prints -nan"
}()

func formatCases() []luaCase {
	return exprs("string.format",
		"string.format('%d', 3.7)", "string.format('%d', -3.7)", "string.format('%i', 2^53)", "string.format('%d', 1e30)",
		"string.format('%d', tonumber('nan'))", "string.format('%d', -1/0)", "string.format('%d', '0x10')", "string.format('%d', ' 12 ')",
		"string.format('%x', -1)", "string.format('%x', 2^64)", "string.format('%x', 2^63)", "string.format('%X', 1e30)",
		"string.format('%x', -1e30)", "string.format('%x', -2^63)", "string.format('%x', 1/0)", "string.format('%x', -1/0)",
		"string.format('%x', tonumber('nan'))", "string.format('%o', -1)", "string.format('%u', -1)", "string.format('%u', 3.99)",
		"string.format('%c', 65)", "string.format('%c', 321)", "string.format('%c', 0)", "string.format('[%5c]', 0)",
		"string.format('[%-5c]', 0)", "string.format('[%5c]', 65)", "string.format('%c', 2^40+65)", "string.format('%c%c', 104, 105)",
		"string.format('%c', -191)", "string.format('%c', 255)", "string.format('%05c', 66)",
		"string.format('%s', 'a\\0b')", "string.format('%s', string.rep('a\\0', 60))", "string.format('%.3s', string.rep('x', 200))",
		"string.format('%5s|%-5s|%05s|%.1s|%5.1s', 'ab', 'ab', 'ab', 'xyz', 'xyz')", "string.format('%s %s', 1/3, 1e15)",
		"string.format('%s', 12)", "string.format('%10s', 1/3)", "string.format('%s', -0.0)", "string.format('%.20s', 'short')",
		"string.format('%q', 'a\\0b\\n\"\\\\\\r\\026z')", "string.format('%q', 1/3)", "string.format('%10q', 'x')", "string.format('%q', '')",
		"string.format('%q', '\\0001')", "string.format('%q', '\\255\\128')",
		"string.format('%%')", "string.format('100%%')", "string.format('%5.2f%%', 99.555)", "string.format('a\\0b%d', 1)",
		"string.format(12)", "string.format(1/3)", "string.format('%d')", "string.format('%-----d', 1)",
		"E(string.format, '%')", "E(string.format, '%', 1)", "E(string.format, '%5', 1)", "E(string.format, '%------d', 1)",
		"E(string.format, '%100d', 1)", "E(string.format, '%1.100d', 1)", "E(string.format, '%.123f', 1)", "E(string.format, '%a', 1)",
		"E(string.format, '%y', 1)", "E(string.format, '%y')", "E(string.format, '%ld', 1)", "E(string.format, '%hd', 1)",
		"E(string.format, '%n', 1)", "E(string.format, '%p', 1)", "E(string.format, '%b', 1)", "E(string.format, '%F', 1)",
		"E(string.format)", "E(string.format, nil)", "E(string.format, {})", "E(string.format, '%d', 'x')", "E(string.format, '%d', {})",
		"E(string.format, '%d', nil)", "E(string.format, '%d', true)", "E(string.format, '%s', {})", "E(string.format, '%s', nil)",
		"E(string.format, '%s', true)", "E(string.format, '%q', {})", "E(string.format, '%c', 'x')", "E(string.format, '%f', '1e2')",
		"E(string.format, '%d %d', 1)", "E(string.format, '%s %s %s', 'a', 'b')", "E(string.format, '%\\0', 1)",
		"E(string.format, '%5\\0d', 1)", "E(string.format, '%0000000d', 1)", "E(string.format, '%-5.5-d', 1)",
		"string.format('%5.3s|', 'abcdef')", "string.format('%.0s|', 'abc')", "string.format('%e', 0)", "string.format('%g', 0)",
		"string.format('%g', -0.0)", "string.format('%.0e', 12345)", "string.format('%#.0e', 12345)", "string.format('%#.0f', 3)",
		"string.format('%#g', 1)", "string.format('%#.3g', 1)", "string.format('%#x', 0)", "string.format('%#o', 0)",
		"string.format('%#.0o', 0)", "string.format('%.0d', 0)", "string.format('%5.0d|', 0)", "string.format('%+.0d', 0)",
		"string.format('%g', 1e-5)", "string.format('%g', 123456789)", "string.format('%g', 0.0001)", "string.format('%g', 100000)",
		"string.format('%g', 1000000)", "string.format('%.14g', 2^63)", "string.format('%.99f', 1/3)", "string.format('%99.99f', -1/3)",
		"string.format('%.99e', 1e308)", "string.format('%f', 1e308)", "string.format('%.3f', 2.0005)", "string.format('%.2f', 0.125)",
		"string.format('%.0f', 0.5)", "string.format('%.0f', 1.5)", "string.format('%.0f', 2.5)", "string.format('%.1f', 0.25)",
		"string.format('%.1f', 0.35)", "string.format('%.15g', 0.1)", "string.format('%.17g', 0.1)", "string.format('%.20g', 0.1)",
		"string.format('%.3e', 1.0005)", "string.format('%G', 1e-20)", "string.format('%E', 123.456)", "string.format('%g', 5e-324)",
		"string.format('%.40f', 5e-324)", "string.format('%f', 2^70)", "string.format('%d', 2^62+1)", "string.format('%d', -2^63)",
		"string.format('%+f|% f|%05f|%-8f|%08.2f', tonumber('-nan'), tonumber('-nan'), 1/0, -1/0, tonumber('nan'))",
		"string.format('%E|%G|%e|%F', tonumber('-nan'), 1/0, -1/0, 1)",
	)
}

// formatMatrixCases runs every conversion over many flag, width and
// precision combinations and values, a few cases with thousands of
// formats each.
func formatMatrixCases() []luaCase {
	flags := []string{"", "-", "+", " ", "#", "0", "-0", "+0", " 0", "#0", "+ ", "-+", "-#", "+#0", "- +#0"}
	widths := []string{"", "1", "8", "25"}
	precs := []string{"", ".", ".0", ".1", ".3", ".10", ".20"}
	var fmts []string
	for _, f := range flags {
		for _, w := range widths {
			for _, p := range precs {
				fmts = append(fmts, "'%"+f+w+p+"'")
			}
		}
	}
	fmtList := "{" + strings.Join(fmts, ",") + "}"
	matrix := func(convs, values string) string {
		return `local fmts, vals, r = ` + fmtList + `, ` + values + `, {}
for _, c in ipairs(` + convs + `) do
  for _, f in ipairs(fmts) do
    local line = {f .. c}
    for _, v in ipairs(vals) do line[#line + 1] = string.format(f .. c, v) end
    r[#r + 1] = table.concat(line, '|')
  end
end
return r`
	}
	nums := `{0, 1, -1, 3.7, -3.7, 255, 0.5, 1.5, 2.5, 1e-5, 123.456, 2^31, 2^53, 1e20, -1e20, 1e300, 5e-324, 1/3, -0.0,
  1/0, -1/0, tonumber('nan'), tonumber('-nan'), 99.995, 0.000123456, 123456789, 1e15, 9.9999999, 0.05}`
	ints := `{0, 1, -1, 3.7, -3.7, 255, 65535, 2^31, -2^31, 2^32, 2^53, 2^63, -2^63, 2^64, 1e20, -1e20, 1/0, -1/0, tonumber('nan'), 7, 8, 16, 42}`
	return []luaCase{
		{desc: "format matrix: d i", lua: matrix(`{'d', 'i'}`, ints)},
		{desc: "format matrix: o u", lua: matrix(`{'o', 'u'}`, ints)},
		{desc: "format matrix: x X", lua: matrix(`{'x', 'X'}`, ints)},
		{desc: "format matrix: c", lua: matrix(`{'c'}`, `{65, 97, 48, 255, 32}`)},
		{desc: "format matrix: e E", lua: matrix(`{'e', 'E'}`, nums)},
		{desc: "format matrix: f", lua: matrix(`{'f'}`, nums)},
		{desc: "format matrix: g G", lua: matrix(`{'g', 'G'}`, nums)},
		{desc: "format matrix: s", lua: matrix(`{'s'}`, `{'', 'a', 'hello', 'a longer string here', 1/3, 12, 'x\0y'}`)},
	}
}

func caseCases() []luaCase {
	all := `local t = {} for i = 0, 255 do t[#t + 1] = string.char(i) end local s = table.concat(t) `
	return append(exprs("upper/lower",
		"string.upper('héllo wörld')", "string.lower('HÉLLO WÖRLD')", "string.upper(1e100)", "string.lower(1/3)",
		"string.upper('\\0abc\\0')", "E(string.upper)", "E(string.lower, {})", "('MiXeD'):lower()", "('MiXeD'):upper()", "('\\195\\169x'):upper()", "('%5.1f'):format(1/3)", "('abc'):len()",
		"string.upper('\\195\\169\\195\\182')", "string.lower('\\195\\137')",
	),
		luaCase{desc: "upper/lower: every byte", lua: all + "return {string.upper(s), string.lower(s)}"},
	)
}

func stringNumberCases() []luaCase {
	return exprs("string functions read numbers as %.14g",
		"string.len(1/3)", "string.rep(1/3, 2)", "string.rep(1e15, 2, ',')", "string.sub(1e15, 1, 3)", "string.sub(2^53, -4)",
		"S(string.byte(0.5, 1, -1))", "S(string.find(1e15, '+', 1, true))", "S(string.find(1/3, '3+'))", "S(string.gsub(1/3, '3', 4/3))",
		"S(string.gsub('a b', '%s', 0.1))", "S(string.match(2^53, 'e.*'))", "string.reverse(0.1)", "S(string.gsub(1e15, 'e', 'E'))",
		"S(string.find('x1.5y', 1.5, 1, true))", "string.len(-0.0)", "S(string.match('n=0.25', 0.25))",
		"E(string.rep)", "E(string.rep, 'x', 'y')", "E(string.rep, 'x', '2')", "S(string.rep('x', 2.7), string.rep('x', -1), string.rep('', 5))",
		"S(string.sub('hello', 2.9, '4'), string.sub('hello', -3), string.sub('hello', 0), string.sub('hello', 10), string.sub('hello', -100, 2))",
		"E(string.sub, 'x')", "E(string.char, 256)", "E(string.char, 'x')", "E(string.char, '65', 66.9)", "E(string.char, -1)", "string.char()",
		"E(string.gsub, 'x', 'x', true)", "E(string.byte, 'abc', 'x')", "S(string.byte('abc', -1))", "S(string.byte('abc', 10))",
		"S(string.byte('abc', 1, -1))", "S(string.byte(''))", "E(string.find, 'abc', 'b', 'x')", "E(string.find)", "E(string.len, nil)",
		"E(string.gmatch, 'x')", "E(string.gsub, 'abc', '%w', '%2')", "E(string.rep, 'ab', 3, 'x')", "S(string.find('abc', 'c', 3))",
		"S(string.find('abc', '', 3))", "S(string.find('abc', '', 4))", "S(string.match('abc', '()', 99))",
		"S(string.gsub('hello world', 'o', {o = 0.5}))", "S(string.gsub('abc', '', '-'))", "S(string.find('abc', 'b', -10))",
		"S(string.find('abc', '', 10))", "S(string.gsub('abc', 'b', '%%'))",
		"S(string.format('%5.1f', '3.14159'))", "E(string.gsub, 'abc', 'b', 'x', 'y')", "S(string.gsub('abc', '%w', 'x', 1.9))",
		"E(string.sub, 'abc', {})", "S(string.sub('abc', '2'))", "S(string.byte('abc', 2.9))",
	)
}

func tableCases() []luaCase {
	return exprs("table",
		"table.concat({1.5, 1/3}, ',')", "table.concat({1, 2, 3})", "table.concat({1e15, 2^53, -0.0}, ' ')", "table.concat({'a', 'b'}, 1.5)",
		"table.concat({1, 2, 3}, ', ', 2, 3)", "table.concat({1, 2, 3}, ', ', 3, 2)", "table.concat({1, 2, 3}, '-', 2)",
		"table.concat({}, 'x')", "table.concat({'a'}, 'x', 1, 1)", "E(table.concat, {1, {}, 3})", "E(table.concat, {1, 2}, ',', 1, 3)",
		"E(table.concat, {}, {})", "E(table.concat, nil)", "E(table.concat)", "E(table.concat, {1, true})", "E(table.concat, {}, ',', 'x')",
		"table.concat({'a', 'b', 'c'}, '', '2')", "E(table.concat, 'abc')",
		"ED(function() local r = {} table.foreach({10, 20, x = 'y'}, function(k, v) r[#r + 1] = tostring(k) .. '=' .. tostring(v) end) table.sort(r) return table.concat(r, ' ') end)",
		"ED(function() local r = {} table.foreachi({10, 20, nil, 40}, function(i, v) r[#r + 1] = tostring(i) .. '=' .. tostring(v) end) return table.concat(r, ' ') end)",
		"ED(table.foreachi, {1, 2, 3}, function(i, v) if i == 2 then return 'stop' end end)",
		"ED(table.foreach, {a = 1}, function(k, v) return k, v end)", "E(table.foreach, {})", "E(table.foreachi, 1, type)",
		"E(table.setn, {}, 1)", "E(table.getn, {1, 2, 3})", "E(table.maxn, {1, 2, [10] = 3})",
	)
}

func randomCases() []luaCase {
	seq := func(seed string, calls string) luaCase {
		return luaCase{
			desc: "math.random: seed " + seed + ", " + calls,
			lua: `math.randomseed(` + seed + `) local r = {}
for i = 1, 40 do r[#r + 1] = tostring(` + calls + `) end
return r`,
		}
	}
	cs := []luaCase{
		seq("0", "math.random()"), seq("42", "math.random()"), seq("-1", "math.random()"), seq("2^31-1", "math.random()"),
		seq("1.9", "math.random()"), seq("'12'", "math.random()"), seq("2^40", "math.random()"), seq("-2^31", "math.random()"),
		seq("7", "math.random(10)"), seq("7", "math.random(1)"), seq("7", "math.random(5, 7)"), seq("7", "math.random(-3, 3)"),
		seq("7", "math.random(2^31-1)"), seq("7", "math.random(-2^31, 2^31-1)"), seq("7", "math.random(2^32+5)"),
		seq("7", "math.random('6')"), seq("7", "math.random(3.9)"), seq("7", "math.random(-2^31, -2^31)"), seq("8", "math.random(0, 2^30)"),
		{desc: "math.random: draws before checking", lua: `math.randomseed(1) local a = {pcall(math.random, 0)} local b = math.random()
math.randomseed(1) math.random() return {V(a[2]), tostring(b), tostring(math.random())}`},
		{desc: "math.random: state carries on", lua: `math.randomseed(3) local a = math.random() local b = math.random()
math.randomseed(3) return {tostring(math.random() == a), tostring(math.random() == b)}`},
	}
	cs = append(cs, exprs("math.random",
		"E(math.random, 0)", "E(math.random, 3, 2)", "E(math.random, 1, 2, 3)", "E(math.random, 'x')", "E(math.random, 2^31)",
		"E(math.random, 1, 'x')", "E(math.random, nil)", "E(math.random, -5)", "E(math.randomseed)", "E(math.randomseed, 'x')",
		"E(math.randomseed, {})", "S(math.randomseed(5))", "E(math.random, 0/0)", "E(math.random, 1, 2^31)",
	)...)
	return cs
}

func bitCases() []luaCase {
	vals := `{0, 1, -1, 2, 3, 255, 0x7fffffff, 0x80000000, 0xffffffff, 2^32, 2^32+1, -2^31, -2^31-1, 2^52, 2^53, 2^53+3, 2^60, 1e20, -1e20,
  1.5, 2.5, -1.5, -2.5, 0.4999, 0x12345678, 1/0, -1/0, tonumber('nan'), '0x10', ' 42 ', -0.0, 1e-300, 4294967295.5, 2^51, 2^51+0.5}`
	unary := `local vals, r = ` + vals + `, {}
for _, name in ipairs({'tobit', 'bnot', 'bswap', 'tohex'}) do
  local line = {name}
  for _, v in ipairs(vals) do line[#line + 1] = tostring(bit[name](v)) end
  r[#r + 1] = table.concat(line, ' ')
end
return r`
	// grid applies each of bit's functions in names to every a of vals and
	// every b of args: one line of results per function and a.
	grid := func(args, names string) string {
		return `local vals, args, r = ` + vals + `, ` + args + `, {}
for _, name in ipairs(` + names + `) do
  for _, a in ipairs(vals) do
    local line = {name, tostring(a)}
    for _, b in ipairs(args) do line[#line + 1] = tostring(bit[name](a, b)) end
    r[#r + 1] = table.concat(line, ' ')
  end
end
return r`
	}
	binary := grid(vals, "{'band', 'bor', 'bxor'}")
	shifts := grid("{-33, -1, 0, 1, 4, 15, 31, 32, 33, 63, 1.5, 2.5, 2^32+3, '7'}", "{'lshift', 'rshift', 'arshift', 'rol', 'ror', 'tohex'}")
	cs := []luaCase{
		{desc: "bit: unary over values", lua: unary},
		{desc: "bit: band bor bxor over value pairs", lua: binary},
		{desc: "bit: shifts, rotations and tohex widths", lua: shifts},
	}
	return append(cs, exprs("bit",
		"bit.tohex(-1)", "bit.tohex(255, -4)", "bit.tohex(255, 2)", "bit.tohex(0x12345678, 12)", "bit.tohex(1, 0)",
		"bit.tohex(0xabcdef, -8)", "bit.tobit(2^32+1)", "bit.band(0xffffffff)", "bit.band(7, 3, 1)", "bit.bor(1, 2, 4, 8, 16)",
		"bit.bxor(1, 3, 7, 15)", "bit.bor()  == nil", "E(bit.band)", "E(bit.band, 'x')", "E(bit.band, 1, 'x')", "E(bit.band, 'x', 'y')",
		"E(bit.bor, 1, 2, {})", "E(bit.tohex)", "E(bit.tohex, 1, nil)", "E(bit.lshift, 1)", "E(bit.bnot, nil)", "E(bit.tobit, '0')",
		"E(bit.tobit, 'abc')", "E(bit.tobit, true)", "E(bit.rol, 1, 'x')", "E(bit.bswap, 0x12345678)", "E(bit.tohex, 0x7f, -2^31+1)",
		"S(bit.band(1, 2, 3, nil))",
	)...)
}

func structCases() []luaCase {
	return exprs("struct",
		"struct.pack('b', -1)", "struct.pack('B', 255)", "struct.pack('B', 256)", "struct.pack('b', 200)", "struct.pack('h', -2)",
		"struct.pack('>h', 258)", "struct.pack('<H', 258)", "struct.pack('i', 1)", "struct.pack('>i', -1)", "struct.pack('I', 2^32-1)",
		"struct.pack('l', -2)", "struct.pack('>L', 2^63)", "struct.pack('>L', 2^64)", "struct.pack('T', 5)", "struct.pack('>i3', 0x123456)",
		"struct.pack('<i3', -2)", "struct.pack('>i16', -2)", "struct.pack('<I9', 1)", "struct.pack('>i1', 300)", "struct.pack('i', 3.9)",
		"struct.pack('i', -3.9)", "struct.pack('i', 1e30)", "struct.pack('i', -1e30)", "struct.pack('I', tonumber('nan'))",
		"struct.pack('i', '12')", "struct.pack('f', 1.5)", "struct.pack('>f', 1.5)", "struct.pack('f', 1/3)", "struct.pack('d', 1/3)",
		"struct.pack('>d', -0.0)", "struct.pack('f', 1e300)", "struct.pack('d', 1/0)", "struct.pack('c5', 'abcdefg')",
		"struct.pack('c0', 'abc')", "struct.pack('s', 'abc')", "struct.pack('s', 'a\\0b')", "struct.pack('c2s', 'xy', 'z')",
		"struct.pack('x')", "struct.pack('bxb', 1, 2)", "struct.pack('!bi', 1, 2)", "struct.pack('!4bh', 1, 2)", "struct.pack('!2bi', 1, 2)",
		"struct.pack('!bd', 1, 2)", "struct.pack('!8bxd', 1, 2)", "struct.pack('!bc3i', 1, 'abc', 2)", "struct.pack('! b i', 1, 2)",
		"struct.pack('>!4 h i <i', 1, 2, 3)", "struct.pack('!1bi', 1, 2)", "struct.pack('!16bi', 1, 2)", "struct.pack('!bi3', 1, 2)",
		"struct.pack('s', 12)", "struct.pack('c3', 1/3)", "struct.pack('', 1)", "struct.pack('i\\0i', 1, 2)", "struct.pack('b', -0.0)",
		"E(struct.pack, 'y', 1)", "E(struct.pack, 'i40', 1)", "E(struct.pack, 'i33', 1)", "E(struct.pack, '!3i', 1)", "E(struct.pack, '!0i', 1)",
		"E(struct.pack, 'c5', 'abc')", "E(struct.pack, 'i99999999999', 1)", "E(struct.pack, 'i2147483647', 1)", "E(struct.pack, 'i', 'x')",
		"E(struct.pack, 'i')", "E(struct.pack, 's')", "E(struct.pack, 's', {})", "E(struct.pack)", "E(struct.pack, 'i', 1, 2)",
		"E(struct.pack, '=i', 1)", "E(struct.pack, 'c99999999999', 'x')", "E(struct.pack, 'c2147483647', 'x')",
		"struct.size('i')", "struct.size('bhilTfd')", "struct.size('!bhilTfd')", "struct.size('!4bd')", "struct.size('c10i3')", "struct.size('y')",
		"struct.size('x')", "struct.size('>')", "E(struct.size, 's')", "E(struct.size, 'c0')", "E(struct.size, '!3')", "E(struct.size, '!')",
		"struct.size('')", "E(struct.size)", "E(struct.size, 'i40')",
		"S(struct.unpack('b', '\\255'))", "S(struct.unpack('B', '\\255'))", "S(struct.unpack('>h', '\\1\\2'))", "S(struct.unpack('<h', '\\255\\255'))",
		"S(struct.unpack('i', '\\1\\0\\0\\0'))", "S(struct.unpack('>I', '\\255\\255\\255\\255'))", "S(struct.unpack('l', '\\255\\255\\255\\255\\255\\255\\255\\255'))",
		"S(struct.unpack('L', '\\255\\255\\255\\255\\255\\255\\255\\255'))", "S(struct.unpack('>i3', '\\255\\0\\1'))",
		"S(struct.unpack('i9', '\\255\\255\\255\\255\\255\\255\\255\\255\\255'))", "S(struct.unpack('I9', '\\1\\0\\0\\0\\0\\0\\0\\0\\1'))",
		"S(struct.unpack('>i12', '\\128\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\1'))", "S(struct.unpack('f', struct.pack('f', 1/3)))",
		"S(struct.unpack('>d', struct.pack('>d', 1/3)))", "S(struct.unpack('c3', 'abcdef'))", "S(struct.unpack('c3c2', 'abcdef'))",
		"S(struct.unpack('s', 'abc\\0def'))", "S(struct.unpack('ss', 'ab\\0\\0x'))", "S(struct.unpack('c1c0', '3abcd'))",
		"S(struct.unpack('bc0', '\\2abc'))", "S(struct.unpack('b', 'abc', 2))", "S(struct.unpack('b', 'abc', 3))", "S(struct.unpack('', 'abc', -1))",
		"S(struct.unpack('', 'abc', 2^63))", "S(struct.unpack('', 'abc', 10))", "S(struct.unpack('x', 'a'))", "S(struct.unpack('!4bi', '\\1\\0\\0\\0\\2\\0\\0\\0'))",
		"S(struct.unpack('i', 'abcdefgh', 5))", "S(struct.unpack('c2', 12345))", "S(struct.unpack(' b ', '\\1'))",
		"E(struct.unpack, 'i', 'abc')", "E(struct.unpack, 'c0', 'abc')", "E(struct.unpack, 'bc0', '')", "E(struct.unpack, 'c1c0', 'xabc')",
		"E(struct.unpack, 'bc0', '\\9ab')", "E(struct.unpack, 'bc0', '\\255ab')", "E(struct.unpack, 's', 'abc')", "E(struct.unpack, 'b', 'abc', 0)",
		"E(struct.unpack, 'b', 'abc', 5)", "E(struct.unpack, 'b', 'abc', -1)", "E(struct.unpack, 'b', 'abc', 4)", "E(struct.unpack, 'y', 'abc')",
		"E(struct.unpack, 'b')", "E(struct.unpack)", "E(struct.unpack, 'b', {})", "E(struct.unpack, 'b', 'a', 'x')", "E(struct.unpack, 'i40', 'x')",
		"S(struct.unpack('>bhilTI3fd', struct.pack('>bhilTI3fd', -1, -300, 70000, -5, 9, 65537, 0.5, 0.1)))",
		"S(struct.unpack('<!8 b d s c4', struct.pack('<!8 b d s c4', 7, 2.25, 'str', 'four')))",
	)
}

func msgpackCases() []luaCase {
	return exprs("cmsgpack",
		"cmsgpack.pack(nil)", "cmsgpack.pack(true)", "cmsgpack.pack(false)", "cmsgpack.pack(0)", "cmsgpack.pack(127)", "cmsgpack.pack(128)",
		"cmsgpack.pack(255)", "cmsgpack.pack(256)", "cmsgpack.pack(65535)", "cmsgpack.pack(65536)", "cmsgpack.pack(2^32-1)", "cmsgpack.pack(2^32)",
		"cmsgpack.pack(2^53)", "cmsgpack.pack(2^63)", "cmsgpack.pack(2^64)", "cmsgpack.pack(-1)", "cmsgpack.pack(-32)", "cmsgpack.pack(-33)",
		"cmsgpack.pack(-128)", "cmsgpack.pack(-129)", "cmsgpack.pack(-32768)", "cmsgpack.pack(-32769)", "cmsgpack.pack(-2^31)",
		"cmsgpack.pack(-2^31-1)", "cmsgpack.pack(-2^63)", "cmsgpack.pack(-0.0)", "cmsgpack.pack(0.5)", "cmsgpack.pack(1.5)", "cmsgpack.pack(0.1)",
		"cmsgpack.pack(1/3)", "cmsgpack.pack(-2.25)", "cmsgpack.pack(1e300)", "cmsgpack.pack(1/0)", "cmsgpack.pack(-1/0)", "cmsgpack.pack(tonumber('nan'))",
		"cmsgpack.pack(3.4028234663852886e38)", "cmsgpack.pack(1e-45)", "cmsgpack.pack(2^63+2^20)",
		"cmsgpack.pack('')", "cmsgpack.pack('a')", "cmsgpack.pack(string.rep('x', 31))", "cmsgpack.pack(string.rep('x', 32))",
		"cmsgpack.pack(string.rep('x', 255))", "cmsgpack.pack(string.rep('x', 256))", "string.sub(cmsgpack.pack(string.rep('x', 65535)), 1, 5)",
		"string.sub(cmsgpack.pack(string.rep('x', 65536)), 1, 6)", "#cmsgpack.pack(string.rep('x', 65536))",
		"cmsgpack.pack({})", "cmsgpack.pack({1, 2, 3})", "cmsgpack.pack({'a', {'b', {'c'}}})", "cmsgpack.pack({1, nil, 3})",
		"cmsgpack.pack({[1] = 'a', [2] = 'b'})", "cmsgpack.pack({[2] = 'b'})", "cmsgpack.pack({a = 1})", "cmsgpack.pack({[1.5] = 1})",
		"cmsgpack.pack({[0] = 1})", "cmsgpack.pack({[-1] = 1})", "cmsgpack.pack({[2^31] = 1})", "cmsgpack.pack({x = {y = {z = true}}})",
		"string.sub(cmsgpack.pack((function() local t = {} for i = 1, 16 do t[i] = i end return t end)()), 1, 5)",
		"string.sub(cmsgpack.pack((function() local t = {} for i = 1, 70000 do t[i] = 0 end return t end)()), 1, 7)",
		"cmsgpack.pack((function() local t = {} for i = 1, 20 do t['k' .. string.char(64 + i)] = nil end t.only = 1 return t end)())",
		"cmsgpack.pack(type)", "cmsgpack.pack(cjson.null)", "cmsgpack.pack(1, 'two', {3})", "cmsgpack.pack(nil, nil)",
		"cmsgpack.pack((function() local t = {} t[1] = t return t end)())",
		"cmsgpack.pack({{{{{{{{{{{{{{{{{{'deep'}}}}}}}}}}}}}}}}}})", "cmsgpack.pack({{{{{{{{{{{{{{{{'d16'}}}}}}}}}}}}}}}})", "E(cmsgpack.pack)",
		"DS(cmsgpack.unpack(cmsgpack.pack(1, -1, 0.5, 'x', true, false, {1, 2, {3}}, {a = {b = 'c'}})))",
		"DS(cmsgpack.unpack(''))", "DS(cmsgpack.unpack('\\192'))", "DS(cmsgpack.unpack('\\1\\2\\3'))", "DS(cmsgpack.unpack('\\204\\255\\205\\1\\0\\206\\0\\1\\0\\0'))",
		"DS(cmsgpack.unpack('\\207\\255\\255\\255\\255\\255\\255\\255\\255'))", "DS(cmsgpack.unpack('\\208\\128\\209\\128\\0\\210\\128\\0\\0\\0'))",
		"DS(cmsgpack.unpack('\\211\\128\\0\\0\\0\\0\\0\\0\\0'))", "DS(cmsgpack.unpack('\\202\\63\\192\\0\\0\\203\\63\\248\\0\\0\\0\\0\\0\\0'))",
		"DS(cmsgpack.unpack('\\224\\255\\127'))", "DS(cmsgpack.unpack('\\196\\3abc'))", "DS(cmsgpack.unpack('\\197\\0\\1x'))",
		"DS(cmsgpack.unpack('\\198\\0\\0\\0\\2xy'))", "DS(cmsgpack.unpack('\\217\\1z\\218\\0\\1z\\219\\0\\0\\0\\1z'))",
		"DS(cmsgpack.unpack('\\220\\0\\2\\1\\2'))", "DS(cmsgpack.unpack('\\221\\0\\0\\0\\1\\192'))", "DS(cmsgpack.unpack('\\146\\192\\1'))",
		"DS(cmsgpack.unpack('\\222\\0\\1\\161a\\1'))", "DS(cmsgpack.unpack('\\223\\0\\0\\0\\1\\1\\2'))", "DS(cmsgpack.unpack('\\130\\1\\2\\161k\\192'))",
		"DS(cmsgpack.unpack('\\144\\128'))",
		"E(cmsgpack.unpack, '\\193')", "E(cmsgpack.unpack, '\\199\\1\\1x')", "E(cmsgpack.unpack, '\\212\\1x')", "E(cmsgpack.unpack, '\\205')",
		"E(cmsgpack.unpack, '\\205\\1')", "E(cmsgpack.unpack, '\\162a')", "E(cmsgpack.unpack, '\\146\\1')", "E(cmsgpack.unpack, '\\129\\1')",
		"E(cmsgpack.unpack, '\\221\\255\\255\\255\\255')", "E(cmsgpack.unpack, '\\129\\192\\1')", "E(cmsgpack.unpack, '\\1\\193')",
		"E(cmsgpack.unpack)", "E(cmsgpack.unpack, {})", "DS(cmsgpack.unpack(12))",
		"DS(cmsgpack.unpack_one('\\1\\2\\3'))", "DS(cmsgpack.unpack_one('\\1\\2\\3', 1))", "DS(cmsgpack.unpack_one('\\1\\2\\3', 2))",
		"DS(cmsgpack.unpack_one('\\1\\2\\3', 3))", "DS(cmsgpack.unpack_one(''))", "DS(cmsgpack.unpack_one('\\1', 0, 'extra'))",
		"E(cmsgpack.unpack_one, '\\1\\2', 5)", "E(cmsgpack.unpack_one, '\\1\\2', -1)", "E(cmsgpack.unpack_one, '\\1\\2', 'x')",
		"DS(cmsgpack.unpack_limit('\\1\\2\\3', 2))", "DS(cmsgpack.unpack_limit('\\1\\2\\3', 2, 2))", "DS(cmsgpack.unpack_limit('\\1\\2\\3', 0))",
		"DS(cmsgpack.unpack_limit('\\1\\2\\3', 0, 1))", "DS(cmsgpack.unpack_limit('\\1\\2\\3', 5))", "E(cmsgpack.unpack_limit, '\\1\\2\\3')",
		"E(cmsgpack.unpack_limit, '\\1\\2\\3', -1)", "E(cmsgpack.unpack_limit, '\\1\\2\\3', 1, 9)", "E(cmsgpack.unpack_limit, '\\1', 1.9)",
		"cmsgpack._NAME", "cmsgpack._VERSION", "cmsgpack._COPYRIGHT", "cmsgpack._DESCRIPTION",
	)
}

func cjsonEncodeCases() []luaCase {
	return exprs("cjson.encode",
		"cjson.encode({})", "cjson.encode({1, 2, 3})", "cjson.encode({1, nil, 3})", "cjson.encode({[1] = 1, [3] = 3})",
		"cjson.encode({[5] = 1})", "cjson.encode({[10] = 1})", "cjson.encode({[11] = 1})", "E(cjson.encode, {[12] = 1, [1] = 1})",
		"E(cjson.encode, {[100] = 1})", "cjson.encode({a = 1})", "cjson.encode({[1.5] = 'x'})", "cjson.encode({[0] = 'z'})",
		"cjson.encode({[-1] = 'z'})", "cjson.encode({[2^40] = 1})", "cjson.encode({[2^31] = 1})", "cjson.encode({[2^31-1] = 1})",
		"E(cjson.encode, {[2^31+2] = 1})", "E(cjson.encode, {[2^32+1] = 1})", "cjson.encode({x = {}})", "cjson.encode({{}, {{}}})", "cjson.encode('')",
		"cjson.encode('a/b')", "cjson.encode('q\"b\\\\s')", "cjson.encode('\\b\\f\\n\\r\\t')", "cjson.encode('\\0\\1\\31\\127\\128\\255')",
		"cjson.encode('héllo')", "cjson.encode(1)", "cjson.encode(-1)", "cjson.encode(0.1)", "cjson.encode(1/3)", "cjson.encode(1e15)",
		"cjson.encode(2^53)", "cjson.encode(-0.0)", "cjson.encode(1e-7)", "cjson.encode(123456789012345)", "cjson.encode(true)",
		"cjson.encode(false)", "cjson.encode(nil)", "cjson.encode(cjson.null)", "cjson.encode({cjson.null})", "cjson.encode({a = cjson.null})",
		"E(cjson.encode, 1/0)", "E(cjson.encode, -1/0)", "E(cjson.encode, tonumber('nan'))", "E(cjson.encode, {1/0})", "E(cjson.encode, type)",
		"E(cjson.encode, {type})", "E(cjson.encode, {[true] = 1})", "E(cjson.encode, {[{}] = 1})", "E(cjson.encode)", "E(cjson.encode, 1, 2)",
		"E(cjson.encode, (function() local t = {} t[1] = t return t end)())", "E(cjson.encode, {[type] = 1})",
		"cjson.encode({{{{{{{{{{'ten'}}}}}}}}}})", "cjson.encode({1.5, 'two', true, {3}})", "cjson.encode({[1] = 'a', [2] = 'b', [4] = 'd'})",
		"cjson.encode({[1] = 'a', [2] = 'b', [5] = 'd'})", "cjson.encode({'\\226\\130\\172'})",
		"cjson.encode((function() local t = {} for i = 1, 20 do t[i] = i * 1.5 end return t end)())",
		"E(cjson.encode, (function() local t = {} local c = t for i = 1, 1000 do c[1] = {} c = c[1] end return t end)())",
		"#cjson.encode((function() local t = {} local c = t for i = 1, 999 do c[1] = {} c = c[1] end return t end)())",
		"cjson.encode({1, 2, x = 3})",
		"(function() local t = {} t.id = 7 t.state = 'pending' t.attempts = 0 t.payload = 'x' t.lease = 1.5 return cjson.encode(t) end)()",
		"cjson.encode(cjson.decode('{\"job\":\"JOB-1\",\"queue\":\"q\",\"tries\":3,\"at\":1700000000000,\"ok\":true,\"tags\":[\"a\",\"b\"]}'))",
		"cmsgpack.pack(cjson.decode('{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9}'))",
		"(function() local t = {} for i = 1, 20 do t['k' .. i] = i end return cjson.encode(t) end)()",
		"(function() local t = {} t[2.5] = 'a' t[-1] = 'b' t[0] = 'c' t[1e20] = 'd' t.x = 'e' return cjson.encode(t) end)()",
	)
}

func cjsonDecodeCases() []luaCase {
	var list []string
	for _, j := range []string{`{}`, `[]`, `[1,2,3]`, `{"a":1}`, `"x"`, `1`, `-1.5e3`, `true`, `false`, `null`, `[null]`, `{"a":null}`,
		` [ 1 , 2 ] `, `1e400`, `-1e400`, `123456789012345678901234567890`, `0.1`, `-0`, `1E2`, `1e+2`, `0`, `"\u00e9"`,
		`"\u20ac"`, `"\ud83d\ude00"`, `"\u0000x"`, `"\/\\\"\b\f\n\r\t"`, `"raw \t tab"`, `{"a":{"b":[1,{"c":"d"}]}}`, `[[[[[]]]]]`,
		`{"a":1,"a":2}`, `{"1":"one"}`, `[1,null,3]`, `"\u00"`, `"\ud83d"`, `"\ud83dx"`, `"\ude00"`, `"\ud83d\u0041"`, `"\uZZZZ"`,
		`"\x"`, `"abc`, `"`, ``, ` `, `[`, `]`, `{`, `}`, `[1,]`, `[1 2]`, `{"a" 1}`, `{"a":1,}`, `{1:2}`, `{"a":}`, `nul`, `tru`,
		`truex`, `true false`, `nan`, `NaN`, `-nan`, `inf`, `-inf`, `Infinity`, `-Infinity`, `0x10`, `-0x10`, `010`, `-010`,
		`+5`, `+`, `-`, `- 1`, `1.`, `.5`, `1.5e`, `01.5`, `1e5x`, `[1]x`, `x`, `'single'`, `1 2`, `{"a":[1,2}`, `[1}`, `\u0041`,
		`[1,2,3]    `, "\t\n\r [1]", `"\u0041\u0042"`, `"\uD83D\uDE00"`, `{"":0}`, `[-]`, `[--1]`, `[1e]`, `9007199254740993`,
		`[0.30000000000000004]`, `1.7976931348623157e308`, `4.9e-324`, `[true,false,null]`, `{"a":true,"b":false}`,
	} {
		list = append(list, fmt.Sprintf("ED(cjson.decode, %q)", j))
	}
	list = append(list,
		"ED(cjson.decode, '[1]\\0garbage')", "ED(cjson.decode, '1\\0')", "ED(cjson.decode, '\\0[1]')", "ED(cjson.decode, 'x\\0')",
		"ED(cjson.decode, '\"a\\0b\"')", "ED(cjson.decode)", "ED(cjson.decode, '1', 2)", "ED(cjson.decode, {})", "ED(cjson.decode, 12)",
		"ED(cjson.decode, nil)", "ED(cjson.decode, '\"\\255\\254\"')",
		"(function() local t, n = cjson.decode(string.rep('[', 1000) .. string.rep(']', 1000)), 0 while t do n = n + 1 t = t[1] end return n end)()",
		"ED(cjson.decode, string.rep('[', 1001) .. string.rep(']', 1001))",
		"ED(cjson.decode, string.rep('{\"a\":', 1001) .. '1' .. string.rep('}', 1001))",
		"type(cjson.decode('null'))", "tostring(cjson.decode('null') == cjson.null)", "tostring(cjson.decode('[null]')[1] == cjson.null)",
		"tostring(cjson.decode('null'))",
	)
	return exprs("cjson.decode", list...)
}

func cjsonConfigCases() []luaCase {
	// Settings last for the life of the Lua state: each case puts back
	// what it changes, so the server's state stays as it started.
	restore := func(desc, body string) luaCase {
		return luaCase{desc: "cjson settings: " + desc, lua: `local r = {}
local function A(...) for _, v in ipairs(S(...)) do r[#r + 1] = v end end
` + body + `
cjson.encode_sparse_array(false, 2, 10) cjson.encode_max_depth(1000) cjson.decode_max_depth(1000)
cjson.encode_number_precision(14) cjson.encode_keep_buffer(true) cjson.encode_invalid_numbers(false) cjson.decode_invalid_numbers(true)
return r`}
	}
	return []luaCase{
		restore("defaults", `A(cjson.encode_sparse_array()) A(cjson.encode_max_depth()) A(cjson.decode_max_depth())
A(cjson.encode_number_precision()) A(cjson.encode_keep_buffer()) A(cjson.encode_invalid_numbers()) A(cjson.decode_invalid_numbers())`),
		restore("sparse arrays", `A(cjson.encode_sparse_array(true)) A(cjson.encode({[20] = 1}))
A(cjson.encode_sparse_array(false, 0)) A(cjson.encode({[20] = 1}))
A(cjson.encode_sparse_array(false, 3, 5)) A(pcall(cjson.encode, {[9] = 1, [1] = 1})) A(cjson.encode({[6] = 1, [1] = 1, [2] = 2}))
A(cjson.encode_sparse_array(nil, nil, 0)) A(pcall(cjson.encode, {[4] = 1}))
A(pcall(cjson.encode_sparse_array, 'on', -1)) A(pcall(cjson.encode_sparse_array, 'yes')) A(pcall(cjson.encode_sparse_array, 1, 2, 3, 4))
A(pcall(cjson.encode_sparse_array, 'off', 'x')) A(cjson.encode_sparse_array('on', 2.9, '7'))`),
		restore("depth", `A(cjson.encode_max_depth(2)) A(cjson.encode({{1}})) A(pcall(cjson.encode, {{{1}}}))
A(cjson.decode_max_depth(2)) A(D(cjson.decode('[[1]]'))) A(pcall(cjson.decode, '[[[1]]]')) A(pcall(cjson.decode, '{"a":{"b":{}}}'))
A(pcall(cjson.encode_max_depth, 0)) A(pcall(cjson.decode_max_depth, -1)) A(pcall(cjson.encode_max_depth, 'x'))
A(pcall(cjson.encode_max_depth, 1, 2)) A(cjson.encode_max_depth(2^31-1)) A(pcall(cjson.encode_max_depth, 2^31))`),
		restore("precision", `A(cjson.encode_number_precision(3)) A(cjson.encode({1/3, 12345, 0.5}))
A(cjson.encode_number_precision(1)) A(cjson.encode(1/3)) A(cjson.encode({[1.25] = 1}))
A(pcall(cjson.encode_number_precision, 15)) A(pcall(cjson.encode_number_precision, 0))`),
		restore("invalid numbers", `A(cjson.encode_invalid_numbers(true)) A(cjson.encode({1/0, -1/0, tonumber('nan'), tonumber('-nan')}))
A(cjson.encode_invalid_numbers('null')) A(cjson.encode({1/0, -1/0, tonumber('nan')}))
A(cjson.encode_invalid_numbers('off')) A(pcall(cjson.encode, 1/0)) A(pcall(cjson.encode_invalid_numbers, 'maybe'))
A(cjson.encode_invalid_numbers('on')) A(cjson.encode_invalid_numbers())
A(cjson.decode_invalid_numbers(false)) A(pcall(cjson.decode, 'nan')) A(pcall(cjson.decode, '0x10')) A(pcall(cjson.decode, '+1'))
A(pcall(cjson.decode, '010')) A(pcall(cjson.decode, '-inf')) A(pcall(cjson.decode, '[1, Infinity]')) A(pcall(cjson.decode, '-0'))
A(pcall(cjson.decode, '0.5'))`),
		restore("keep buffer", `A(cjson.encode_keep_buffer(false)) A(cjson.encode({1})) A(cjson.encode_keep_buffer('on'))
A(pcall(cjson.encode_keep_buffer, 'null'))`),
		restore("cjson.new", `local c = cjson.new() A(c.encode_max_depth(1)) A(pcall(c.encode, {{}})) A(cjson.encode({{}}))
A(c._NAME, c._VERSION, c.null == cjson.null, type(c.new)) A(c.encode({})) A(D(c.decode('[null]')))`),
		{desc: "cjson settings: fields", lua: `return {cjson._NAME, cjson._VERSION, type(cjson.null), type(cjson.new)}`},
	}
}

// patternCases are malformed patterns, which gopher-lua's matcher read
// otherwise before this package had its own (pattern.go).
func patternCases() []luaCase {
	return exprs("patterns", "E(string.match, 'x', '(')", "E(string.find, 'x', '[a')", "E(string.gsub, 'x', '(', '')",
		"E(string.find, 'a', '%')", "E(string.gsub, 'abc', 'b', '%')")
}

// nameCases check that argument errors name the function as it was
// called, as Lua 5.1 does.
func nameCases() []luaCase {
	cs := exprs("error names",
		"ED(function() return string.format('%d', 'x') end)", "ED(function() local f = string.format return f('%d', 'x') end)",
		"ED(function() local t = {string.rep} return t[1]() end)", "ED(function() return tonumber('1', 99) end)",
		"ED(function() return math.random(0) end)", "ED(function() return bit.band('x') end)", "ED(function() return struct.pack('y') end)",
		"ED(function() return cjson.encode() end)", "ED(function() return cmsgpack.pack() end)", "ED(function() return tostring() end)",
		"ED(function() local s = string.upper(nil) return s end)", "ED(function() return table.concat({{}}) end)",
		"ED(function() return cjson.decode('[') end)", "ED(function() return struct.unpack('i', '') end)",
	)
	cs = append(cs, luaCase{desc: "error names: method call",
		lua:  "return ED(function() return ('%d'):format('x') end)",
		skip: "known difference: gopher-lua does not tell a method call from a plain one, so it cannot take self off the argument number as Lua 5.1 does ('bad argument #1 to 'format'')"})
	cs = append(cs, luaCase{desc: "error names: uncaught", lua: "return string.format('%d', 'x')"})
	return cs
}
