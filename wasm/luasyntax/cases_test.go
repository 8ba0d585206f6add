package luasyntax

import (
	"fmt"
	"strings"
	"testing"

	emqlua "echomq.dev/playground/lua"
)

// syntaxCase is a chunk and what redis-server 7.0.15 answers when asked to
// compile it, after "ERR Error compiling script (new function): ", or ""
// when it compiles. Redis shows a line break in a message as a space.
type syntaxCase struct {
	chunk, want string
}

// syntaxCases were each tried on redis-server; the differential test asks
// it again.
var syntaxCases = []syntaxCase{
	{"local 1 = 2", "user_script:1: '<name>' expected near '1'"},
	{"end", "user_script:1: '<eof>' expected near 'end'"},
	{"return 'abc", "user_script:1: unfinished string near '<eof>'"},
	{"for", "user_script:1: '<name>' expected near '<eof>'"},
	{"return 0x", "user_script:1: malformed number near '0x'"},
	{"local t = {1, 2", "user_script:1: '}' expected near '<eof>'"},
	{"if true then", "user_script:1: 'end' expected near '<eof>'"},
	{"return [[never closed", "user_script:1: unfinished long string near '<eof>'"},
	{"return 1 & 2", "user_script:1: '<eof>' expected near '&'"},
	{"--[[ unclosed comment", "user_script:1: unfinished long comment near '<eof>'"},
	{"return function", "user_script:1: '(' expected near '<eof>'"},
	{"a.a:c = 1", "user_script:1: function arguments expected near '='"},
	{"a.b:c = 1", "user_script:1: function arguments expected near '='"},
	{"\x1breturn 1", "user_script:1: unexpected symbol near 'char(27)'"},
	{"return \x00", "user_script:1: unexpected symbol"},
	{"return \x01", "user_script:1: unexpected symbol near 'char(1)'"},
	{"return \x7f", "user_script:1: unexpected symbol near 'char(127)'"},
	{"return é", "user_script:1: unexpected symbol near '\xc3'"},
	{"x = 1;;", "user_script:1: unexpected symbol near ';'"},
	{";", "user_script:1: unexpected symbol near ';'"},
	{"return 1;;", "user_script:1: '<eof>' expected near ';'"},
	{"return [[ a [[ b ]] ]]", "user_script:1: '<eof>' expected near ']'"},
	{"--[[ a [[ b ]] ]]", "user_script:1: unexpected symbol near ']'"},
	{"return [=[ a [[ b ]=]", ""},
	{"return [=x", "user_script:1: invalid long string delimiter near '[='"},
	{"return [==[", "user_script:1: unfinished long string near '<eof>'"},
	{"--[==[ x", "user_script:1: unfinished long comment near '<eof>'"},
	{"--[== x\nreturn 1", ""},
	{"return '\\300'", "user_script:1: escape sequence too large near '''"},
	{"return 'ab\\0cd\\400'", "user_script:1: escape sequence too large near ''ab'"},
	{"return 'ab\ncd'", "user_script:1: unfinished string near ''ab'"},
	{"return 'ab\\\ncd", "user_script:2: unfinished string near '<eof>'"},
	{"return 0x1p4", ""},
	{"return 0x1p", "user_script:1: malformed number near '0x1p'"},
	{"return 0x1.8", "user_script:1: '<eof>' expected near '.8'"},
	{"return 1..2", "user_script:1: malformed number near '1..2'"},
	{"return 1e", "user_script:1: malformed number near '1e'"},
	{"return 5.e3", ""},
	{"return 3end", "user_script:1: malformed number near '3end'"},
	{"return 08", ""},
	{"return 0xe+1", ""},
	{"x = f\n(1)", "user_script:2: ambiguous syntax (function call x new statement) near '('"},
	{"x = {f\n(1)}", ""},
	{"function f() return ... end", "user_script:1: cannot use '...' outside a vararg function near '...'"},
	{"function f(..., a) end", "user_script:1: ')' expected near ','"},
	{"function f(a, 1) end", "user_script:1: <name> or '...' expected near '1'"},
	{"for i in", "user_script:1: unexpected symbol near '<eof>'"},
	{"for i do", "user_script:1: '=' or 'in' expected near 'do'"},
	{"local x <const> = 1", "user_script:1: unexpected symbol near '<'"},
	{"return 1 // 2", "user_script:1: unexpected symbol near '/'"},
	{"::a::", "user_script:1: unexpected symbol near ':'"},
	{"(a) = 1", "user_script:1: syntax error near '='"},
	{"a, f() = 1", "user_script:1: syntax error near '='"},
	{"(f())", "user_script:1: syntax error near '<eof>'"},
	{"f() = 1", "user_script:1: unexpected symbol near '='"},
	{"x = ~1", "user_script:1: unexpected symbol near '~'"},
	{"if x then return 1 x = 2 end", "user_script:1: 'end' expected near 'x'"},
	{"if x then\nreturn 1\nx = 2\nend", "user_script:3: 'end' expected (to close 'if' at line 1) near 'x'"},
	{"while true do break x = 1 end", "user_script:1: 'end' expected near 'x'"},
	{"local function f() return 1 end f() = 3", "user_script:1: unexpected symbol near '='"},
	{"return 'abc\\", "user_script:1: unfinished string near '<eof>'"},
	{"x = \"a\\tb\" y", "user_script:1: '=' expected near '<eof>'"},
	{"x = [[\nab\r\ncd]] y", "user_script:3: '=' expected near '<eof>'"},
	{"x = 'a\\0b' y", "user_script:1: '=' expected near '<eof>'"},
	{"return 1\n\n(f)()", "user_script:3: '<eof>' expected near '('"},
	{"local a = 1 return a b", "user_script:1: '<eof>' expected near 'b'"},
	{"return \"\\z\"", ""},
	{"x = 1 \"a\\tb\\65\"", "user_script:1: unexpected symbol near '\"a\tbA\"'"},
	{"x = 1 'a\\0b'", "user_script:1: unexpected symbol near ''a'"},
	{"x = 1 [[\nab\r\ncd]]", "user_script:3: unexpected symbol near '[[ab cd]]'"},
	{"x = 1 [==[x]==]", "user_script:1: unexpected symbol near '[==[x]==]'"},
	{"x = 1 0x10", "user_script:1: unexpected symbol near '0x10'"},
	{"x = 1 abc", "user_script:1: '=' expected near '<eof>'"},
	{"x = 1 ...", "user_script:1: unexpected symbol near '...'"},
	{"x = 1 \"a\\\nb\"", "user_script:2: unexpected symbol near '\"a b\"'"},
	{"return [[\n\nab", "user_script:3: unfinished long string near '<eof>'"},
	{"x = 'a\r\nb'", "user_script:1: unfinished string near ''a'"},
	{"x = 'a\\\r\nb\\\n\rc\\\n\nd", "user_script:4: unfinished string near ''a b c '"},
	{"x = 1\r\n\r\n\n\r\r\n y", "user_script:5: '=' expected near '<eof>'"},
	{"local function", "user_script:1: '<name>' expected near '<eof>'"},
	{"local function 1", "user_script:1: '<name>' expected near '1'"},
	{"local function f", "user_script:1: '(' expected near '<eof>'"},
	{"function", "user_script:1: '<name>' expected near '<eof>'"},
	{"function a.b.c:d.e() end", "user_script:1: '(' expected near '.'"},
	{"function a:b:c() end", "user_script:1: '(' expected near ':'"},
	{"f:g", "user_script:1: function arguments expected near '<eof>'"},
	{"f:g()", ""},
	{"a.b.c", "user_script:1: '=' expected near '<eof>'"},
	{"a[1", "user_script:1: ']' expected near '<eof>'"},
	{"a[1]", "user_script:1: '=' expected near '<eof>'"},
	{"local a, = 1", "user_script:1: '<name>' expected near '='"},
	{"return return", "user_script:1: unexpected symbol near 'return'"},
	{"return 1, ", "user_script:1: unexpected symbol near '<eof>'"},
	{"x = function(a, b,) end", "user_script:1: <name> or '...' expected near ')'"},
	{"repeat x = 1", "user_script:1: 'until' expected near '<eof>'"},
	{"repeat\nx = 1", "user_script:2: 'until' expected (to close 'repeat' at line 1) near '<eof>'"},
	{"repeat local x = 1 until x", ""},
	{"while true do\n\nend\nbreak", "user_script:4: no loop to break near '<eof>'"},
	{"for i = 1 do end", "user_script:1: ',' expected near 'do'"},
	{"for i = 1, 2, 3, 4 do end", "user_script:1: 'do' expected near ','"},
	{"for a, b in pairs(t) do end", ""},
	{"for a, 1 in pairs(t) do end", "user_script:1: '<name>' expected near '1'"},
	{"for a.b = 1, 2 do end", "user_script:1: '=' or 'in' expected near '.'"},
	{"if x then elseif y then else elseif z then end", "user_script:1: 'end' expected near 'elseif'"},
	{"if x then else else end", "user_script:1: 'end' expected near 'else'"},
	{"if then end", "user_script:1: unexpected symbol near 'then'"},
	{"if x end", "user_script:1: 'then' expected near 'end'"},
	{"t = {a = 1, [b] = 2; 3, f(x), ...}", ""},
	{"t = {a = }", "user_script:1: unexpected symbol near '}'"},
	{"t = {[1] 2}", "user_script:1: '=' expected near '2'"},
	{"t = {,}", "user_script:1: unexpected symbol near ','"},
	{"t = {1,,2}", "user_script:1: unexpected symbol near ','"},
	{"t = {1;}", ""},
	{"x = not", "user_script:1: unexpected symbol near '<eof>'"},
	{"x = - - - 1", ""},
	{"x = #", "user_script:1: unexpected symbol near '<eof>'"},
	{"x = a ===", "user_script:1: unexpected symbol near '='"},
	{"x = a ~ b", "user_script:1: unexpected symbol near '~'"},
	{"x = a != b", "user_script:1: unexpected symbol near '!'"},
	{"x = a and or b", "user_script:1: unexpected symbol near 'or'"},
	{"return (1", "user_script:1: ')' expected near '<eof>'"},
	{"return (1\n", "user_script:2: ')' expected (to close '(' at line 1) near '<eof>'"},
	{"return f(1\n,2", "user_script:2: ')' expected (to close '(' at line 1) near '<eof>'"},
	{"do\nx = 1\n", "user_script:3: 'end' expected (to close 'do' at line 1) near '<eof>'"},
	{"do x = 1", "user_script:1: 'end' expected near '<eof>'"},
	{"function f()\nreturn 1", "user_script:2: 'end' expected (to close 'function' at line 1) near '<eof>'"},
	{"local t = {\n1,\n2", "user_script:3: '}' expected (to close '{' at line 1) near '<eof>'"},
	{"x = f{1}'s'[[l]]:m'n'.o", ""},
	{"f 'x' 'y'", ""},
	{"return ...", ""},
	{"local function f(...) return ... end", ""},
	{"local function f(...) return arg end", ""},
	{"x = function(...) local t = {...} end", ""},
	{"x = 'abc' .. 1 ..2", ""},
	{"x = 1 .. 2", ""},
	{"x = 1..2", "user_script:1: malformed number near '1..2'"},
	{"return nil = 1", "user_script:1: '<eof>' expected near '='"},
	{"return true.x", "user_script:1: '<eof>' expected near '.'"},
	{"return 'x':upper()", "user_script:1: '<eof>' expected near ':'"},
	{"return ('x'):upper()", ""},
	{"return {}.x", "user_script:1: '<eof>' expected near '.'"},
	{"return #{} .. -1 ^ 2", ""},
	{"return 1 --[[ c ]] + 1", ""},
	{"return 1 --[==[ c ]] ]==] + 1", ""},
	{"--[=[ x ]]", "user_script:1: unfinished long comment near '<eof>'"},
	{"x = 1 '\\0'", "user_script:1: unexpected symbol near '''"},
	{"return 1e+", "user_script:1: malformed number near '1e+'"},
	{"return 1e+5x", "user_script:1: malformed number near '1e+5x'"},
	{"return 0x.5", "user_script:1: malformed number near '0x'"},
	{"return .5.", "user_script:1: malformed number near '.5.'"},
	{"return 1 .5", "user_script:1: '<eof>' expected near '.5'"},
	{"return 1e5.5", "user_script:1: '<eof>' expected near '.5'"},
	{"return 0X", "user_script:1: malformed number near '0X'"},
	{"return 00x1", "user_script:1: malformed number near '00x1'"},
	{"return 0x1P+4", "user_script:1: malformed number near '0x1P'"},
	{"return 0xg", "user_script:1: malformed number near '0xg'"},
	{"return 1.5e", "user_script:1: malformed number near '1.5e'"},
	{"return 9e999", ""},
	{"return 0xfffffffffffffffffffffffff", ""},
	{"return 1nan", "user_script:1: malformed number near '1nan'"},
	{"return 1.e", "user_script:1: malformed number near '1.e'"},
	{"return 0e+x", "user_script:1: malformed number near '0e+x'"},
	{"return 0.x", "user_script:1: malformed number near '0.x'"},
	{"return $", "user_script:1: unexpected symbol near '$'"},
	{"return @", "user_script:1: unexpected symbol near '@'"},
	{"return `x`", "user_script:1: unexpected symbol near '`'"},
	{"return ?", "user_script:1: unexpected symbol near '?'"},
	{"return \\", "user_script:1: unexpected symbol near '\\'"},
	{"= 1", "user_script:1: unexpected symbol near '='"},
	{"x = a.5", "user_script:1: unexpected symbol near '.5'"},
	{"local x = y\n(f)()", "user_script:2: ambiguous syntax (function call x new statement) near '('"},
	{"return f\n(1)", "user_script:2: ambiguous syntax (function call x new statement) near '('"},
	{"x = f\n:g()", ""},
	{"x = f\n'str'", ""},
	{"x = f\n{1}", ""},
	{"local a = {...}", ""},
	{"function f() local t = {...} end", "user_script:1: cannot use '...' outside a vararg function near '...'"},
	{"function f(...) return function() return ... end end", "user_script:1: cannot use '...' outside a vararg function near '...'"},
	{"local function f(a, ...) local b = arg return ... end", ""},
	{"if x then\n  y = 1\nelse\n  z = 2\n", "user_script:5: 'end' expected (to close 'if' at line 1) near '<eof>'"},
	{"while x do\n  y()\n", "user_script:3: 'end' expected (to close 'while' at line 1) near '<eof>'"},
	{"for i = 1, 10 do\n  x = i\n", "user_script:3: 'end' expected (to close 'for' at line 1) near '<eof>'"},
	{"for k, v in pairs(t) do\n", "user_script:2: 'end' expected (to close 'for' at line 1) near '<eof>'"},
	{"function f(a,\nb)\n  return a\n", "user_script:4: 'end' expected (to close 'function' at line 1) near '<eof>'"},
	{"local function f()\n  if x then\n    return 1\n  end\n", "user_script:5: 'end' expected (to close 'function' at line 1) near '<eof>'"},
	{"t = {\n  a = 1,\n  b = 2\n", "user_script:4: '}' expected (to close '{' at line 1) near '<eof>'"},
	{"x = f(1,\n  2\n", "user_script:3: ')' expected (to close '(' at line 1) near '<eof>'"},
	{"return (1 +\n 2", "user_script:2: ')' expected (to close '(' at line 1) near '<eof>'"},
	{"return redis.call('GET', KEYS[1]", "user_script:1: ')' expected near '<eof>'"},
	{"return redis.call('GET' KEYS[1])", "user_script:1: ')' expected near 'KEYS'"},
	{"return redis.call('GET', KEYS[1]))", "user_script:1: '<eof>' expected near ')'"},
	{"local v = redis.call('GET', KEYS[1])\nif v = nil then return 0 end", "user_script:2: 'then' expected near '='"},
	{"if x == 1 then return 1 else if x == 2 then return 2 end", "user_script:1: 'end' expected near '<eof>'"},
	{"local x = 1\nx += 1", "user_script:2: '=' expected near '+'"},
	{"local x = 1\nx++", "user_script:2: '=' expected near '+'"},
	{"return x != nil", "user_script:1: '<eof>' expected near '!'"},
	{"return x ? 1 : 2", "user_script:1: '<eof>' expected near '?'"},
	{"local s = 'it's'", "user_script:1: unfinished string near '<eof>'"},
	{"local s = \"say \"hi\"\"", ""},
	{"return #KEYS[1", "user_script:1: ']' expected near '<eof>'"},
	{"return KEYS[1]..ARGV[1]..'x", "user_script:1: unfinished string near '<eof>'"},
	{"for i = 1, #ARGV do\n  redis.call('SET', KEYS[i], ARGV[i])\nend\nend", "user_script:4: '<eof>' expected near 'end'"},
	{"local function f() return 1 end end", "user_script:1: '<eof>' expected near 'end'"},
	{"repeat until", "user_script:1: unexpected symbol near '<eof>'"},
	{"repeat x = 1 until", "user_script:1: unexpected symbol near '<eof>'"},
	{"return function() end()", "user_script:1: '<eof>' expected near '('"},
	{"return (function() end)()", ""},
	{"x = function() end ()", "user_script:1: unexpected symbol near ')'"},
	{"a.b = 1, 2", ""},
	{"a = 1 b = 2 c", "user_script:1: '=' expected near '<eof>'"},
	{"local function f(self.x) end", "user_script:1: ')' expected near '.'"},
	{"function t:m(self) return self end", ""},
	{"function t.a.b:c(x, ...) return ... end", ""},
	{"return nil, true, false, 1, 'a', {}, ...", ""},
	{"return -1 ^ 2, not nil == true, #'abc'", ""},
	{"return 1 < 2 < 3", ""},
	{"return a or b and c", ""},
	{"x, y = y, x", ""},
	{"x.y, z[1] = 1, 2", ""},
	{"local t = {} t.x, t[1], t.y.z = 1, 2, 3", ""},
	{"x = {[1] = 1, [2] = 2, x = 3, 'y'; 'z',}", ""},
	{"do end do return end", ""},
	{"do break end", "user_script:1: no loop to break near 'end'"},
	{"while true do do break end end", ""},
	{"while true do local function f() break end end", "user_script:1: no loop to break near 'end'"},
	{"repeat local function f() break end until true", "user_script:1: no loop to break near 'end'"},
	{"for i = 1, 2 do return end", ""},
	{"for i = 1, 2 do return x end", ""},
	{"for i = 1, 2 do return; end", ""},
	{"for i = 1, 2 do break; x = 1 end", "user_script:1: 'end' expected near 'x'"},
	{"if x then break end", "user_script:1: no loop to break near 'end'"},
	{"return\n", ""},
	{"return;", ""},
	{"return 1; x = 1", "user_script:1: '<eof>' expected near 'x'"},
	{"return \n;", ""},
	{"local", "user_script:1: '<name>' expected near '<eof>'"},
	{"local x =", "user_script:1: unexpected symbol near '<eof>'"},
	{"local x = 1,", "user_script:1: unexpected symbol near '<eof>'"},
	{"x =", "user_script:1: unexpected symbol near '<eof>'"},
	{"x = ,", "user_script:1: unexpected symbol near ','"},
	{"x, = 1", "user_script:1: unexpected symbol near '='"},
	{"x, y", "user_script:1: '=' expected near '<eof>'"},
	{"x.y", "user_script:1: '=' expected near '<eof>'"},
	{"x:y", "user_script:1: function arguments expected near '<eof>'"},
	{"x:y:z()", "user_script:1: function arguments expected near ':'"},
	{"x[1][2]", "user_script:1: '=' expected near '<eof>'"},
	{"x()()()", ""},
	{"x'a''b'", ""},
	{"x[[a]]", ""},
	{"x{}{}", ""},
	{"x = {} ()", "user_script:1: unexpected symbol near ')'"},
	{"f{...}", ""},
	{"print('a' 'b')", "user_script:1: ')' expected near ''b''"},
	{"print 'a' 'b'", ""},
	{"(x)", "user_script:1: syntax error near '<eof>'"},
	{"(x)()", ""},
	{"(x).y = 1", ""},
	{"(x)[1] = 1", ""},
	{"(x):y()", ""},
	{"((x)) = 1", "user_script:1: syntax error near '='"},
	{"x.y() = 1", "user_script:1: unexpected symbol near '='"},
	{"x:y().z = 1", ""},
	{"nil = 1", "user_script:1: unexpected symbol near 'nil'"},
	{"true()", "user_script:1: unexpected symbol near 'true'"},
	{"'x'()", "user_script:1: unexpected symbol near ''x''"},
	{"{}.x = 1", "user_script:1: unexpected symbol near '{'"},
	{"...()", "user_script:1: unexpected symbol near '...'"},
	{"local ... = 1", "user_script:1: '<name>' expected near '...'"},
	{"function f(...) local x = ... end", ""},
	{"return {..., ...}", ""},
	{"return 'a' .. 'b' .. 'c", "user_script:1: unfinished string near '<eof>'"},
	{"return 'a\\\\'", ""},
	{"return '\\''", ""},
	{"return \"\\\"\"", ""},
	{"return '\\\"'", ""},
	{"return '\\x41'", ""},
	{"return '\\u{41}'", ""},
	{"return '\\255'", ""},
	{"return '\\256'", "user_script:1: escape sequence too large near '''"},
	{"return '\\0009'", ""},
	{"return '\\1a'", ""},
	{"return '\\\r\n'", ""},
	{"return [[]]", ""},
	{"return [==[]==]", ""},
	{"return [==[]=]", "user_script:1: unfinished long string near '<eof>'"},
	{"return [=[", "user_script:1: unfinished long string near '<eof>'"},
	{"return [\n[x]]", "user_script:1: unexpected symbol near '['"},
	{"x = [[\n]]", ""},
	{"x = [[\r\n\r\n]] y", "user_script:3: '=' expected near '<eof>'"},
	{"x = [[\n\r]] y", "user_script:2: '=' expected near '<eof>'"},
	{"x = [=[\n\nhello\n]=] y", "user_script:4: '=' expected near '<eof>'"},
	{"--", ""},
	{"--\n", ""},
	{"-- comment\nreturn 1", ""},
	{"--[[\n]]return 1", ""},
	{"--[[x]]--[[y]]", ""},
	{"---[[x\nreturn 1", ""},
	{"--[ [x\nreturn 1", ""},
	{"x = 1 --[[unclosed", "user_script:1: unfinished long comment near '<eof>'"},
	{"x = 'a\\\n", "user_script:2: unfinished string near '<eof>'"},
	{"x = 'a\\", "user_script:1: unfinished string near '<eof>'"},
	{"x = '", "user_script:1: unfinished string near '<eof>'"},
	{"x = \"", "user_script:1: unfinished string near '<eof>'"},
	{"x = '\n'", "user_script:1: unfinished string near '''"},
	{"x = 'abc\x00def", "user_script:1: unfinished string near '<eof>'"},
	{"x = 'abc\x00def\n", "user_script:1: unfinished string near ''abc'"},
	{"\x00", "user_script:1: unexpected symbol"},
	{"x = 1 \x00", "user_script:1: unexpected symbol"},
	{"return \xff", "user_script:1: unexpected symbol near '\xff'"},
	{"return \x80abc", "user_script:1: unexpected symbol near '\x80'"},
	{"return a\xffb", "user_script:1: '<eof>' expected near '\xff'"},
	{"\tx\v=\f1", ""},
	{"x = 1\r\r\r\ry", "user_script:5: '=' expected near '<eof>'"},
	{"x = 1\n\r\n\ry", "user_script:3: '=' expected near '<eof>'"},
	{"x = 1\r\n\n\ry", "user_script:3: '=' expected near '<eof>'"},
	{"goto continue", "user_script:1: '=' expected near 'continue'"},
	// A NUL is a token of its own that errors show no near part for, but
	// it also passes for a dot after a dot and for a number's exponent
	// letter or sign.
	{"return 1\x00 + 2", ""},
	{"string.\x00 = 1", "user_script:1: '=' expected near '..'"},
	{".\x00(4)", "user_script:1: unexpected symbol near '..'"},
	{"return redis.\x00('INCRBY', 'c', 2.0)", "user_script:1: ')' expected near ','"},
	{"return 1e\x00", "user_script:1: malformed number near '1e'"},
	{"return 1\x00\x00", ""},
	{"return 2\x00-1074", ""},
	{"function f(.\x00\x00) return ... end", ""},
	{"return 1 \x00 == 1", "user_script:1: '<eof>' expected"},
	// Blocks left open, limits' line numbers and other stragglers.
	{"local function f()\n  return {1,\n    2\nend", "user_script:4: '}' expected (to close '{' at line 2) near 'end'"},
	{"x = function\n(a\n", "user_script:3: ')' expected near '<eof>'"},
	{"local function f\n(a\n", "user_script:3: ')' expected near '<eof>'"},
	{"for i = 1, 3 do\n  if i == 2 then goto continue end\nend", "user_script:2: '=' expected near 'continue'"},
	{"return 0x1p4, 0x1P-2", "user_script:1: malformed number near '0x1P'"},
	{"return '\\9999'", "user_script:1: escape sequence too large near '''"},
	{"return [[\n]]..[==[\r\n]==]", ""},
	{"f(\n[[\n]]", "user_script:3: ')' expected (to close '(' at line 1) near '<eof>'"},
	{"t = {x\n= 1, y\n(1)}", ""},
	{"return 1 -- comment\n+ 2", ""},
	{"return 1\t--[==[\n\n]==]\t+ 2 )", "user_script:3: '<eof>' expected near ')'"},
}

// limitCases are chunks at and just past Lua 5.1's parsing limits.
func limitCases() []syntaxCase {
	names := func(n int) string {
		var ns []string
		for i := range n {
			ns = append(ns, fmt.Sprintf("a%d", i))
		}
		return strings.Join(ns, ", ")
	}
	lines := func(n int, format string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	levels := "user_script:1: chunk has too many syntax levels"
	locals61 := lines(61, "local a%d ")
	return []syntaxCase{
		// Levels: the chunk is one, an expression one more, and so is each
		// block, parenthesis, unary operator, table, argument list and
		// right operand of a right-associative ".." or "^".
		{"return " + strings.Repeat("(", 198) + "1" + strings.Repeat(")", 198), ""},
		{"return " + strings.Repeat("(", 199) + "1" + strings.Repeat(")", 199), levels},
		{strings.Repeat("do ", 199) + strings.Repeat("end ", 199), ""},
		{strings.Repeat("do ", 200) + strings.Repeat("end ", 200), levels},
		{"x = " + strings.Repeat("- ", 198) + "1", ""},
		{"x = " + strings.Repeat("- ", 199) + "1", levels},
		{"x = 1" + strings.Repeat(" .. 1", 198), ""},
		{"x = 1" + strings.Repeat(" .. 1", 199), levels},
		{"x = 2" + strings.Repeat("^2", 198), ""},
		{"x = 2" + strings.Repeat("^2", 199), levels},
		{"x = 1" + strings.Repeat(" + 1", 500), ""},
		{"x = " + strings.Repeat("{", 199) + strings.Repeat("}", 199), ""},
		{"x = " + strings.Repeat("f(", 199) + strings.Repeat(")", 199), ""},
		{"x = " + strings.Repeat("function() return ", 99) + strings.Repeat("end ", 99), ""},
		{"x = " + strings.Repeat("function() return ", 100) + strings.Repeat("end ", 100), levels},
		{"x = " + strings.Repeat("(\n", 199) + "1" + strings.Repeat(")", 199), "user_script:200: chunk has too many syntax levels"},
		{"do do do return " + strings.Repeat("(", 195) + "1" + strings.Repeat(")", 195) + " end end end", ""},
		{strings.Repeat("do local a end ", 300), ""},

		// Locals: 200 in scope at once, the hidden ones of a for loop, self
		// and a vararg function's arg included.
		{lines(200, "local a%d\n"), ""},
		{lines(201, "local a%d\n"), "user_script:202: main function has more than 200 local variables"},
		{"local " + names(200) + " = 1", ""},
		{"local " + names(201) + " = 1", "user_script:1: main function has more than 200 local variables"},
		{strings.Repeat("local a ", 199) + "\nlocal b, c", "user_script:2: main function has more than 200 local variables"},
		{strings.Repeat("local a ", 199) + "\nlocal function b() end", ""},
		{strings.Repeat("local a ", 200) + "\nlocal function b() end", "user_script:2: main function has more than 200 local variables"},
		{strings.Repeat("local a ", 200) + "\nfunction x(b) end", ""},
		{strings.Repeat("local a ", 199) + "\nfor k, v in t do end", "user_script:2: main function has more than 200 local variables"},
		{strings.Repeat("local a ", 196) + "\nfor k,\nv\nin t do end", "user_script:4: main function has more than 200 local variables"},
		{strings.Repeat("local a ", 196) + "\nfor\nk\n=\n1,2 do end", ""},
		{strings.Repeat("local a ", 199) + "\nlocal\nb\n,\nc\n= 1", "user_script:6: main function has more than 200 local variables"},
		{"local function f(a, b, ...)\n" + lines(194, "local a%d\n") + "for i = 1, 2 do end\nend",
			"user_script:196: function at line 1 has more than 200 local variables"},
		{"x = function(self)\n" + lines(195, "local a%d\n") + "for k, v in next, t do end\nend",
			"user_script:197: function at line 1 has more than 200 local variables"},
		{"x = function\n()\n" + lines(201, "local a%d\n") + "end", "user_script:204: function at line 2 has more than 200 local variables"},
		{"local function f\n()\n" + lines(201, "local a%d\n") + "end", "user_script:204: function at line 2 has more than 200 local variables"},

		// Variables in one assignment: as many as levels are left.
		{names(200) + " = 1", ""},
		{names(201) + " = 1", "user_script:1: main function has more than 199 variables in assignment"},
		{"do " + names(199) + " = 1 end", ""},
		{"do " + names(200) + " = 1 end", "user_script:1: main function has more than 198 variables in assignment"},
		{"do do\n" + names(199) + "\n = 1 end end", "user_script:3: main function has more than 197 variables in assignment"},
		{"x = function()\n" + names(198) + " = 1 end", ""},
		{"x = function()\n" + names(199) + " = 1 end", "user_script:2: function at line 1 has more than 197 variables in assignment"},

		// Upvalues: 60 outer locals per function, counted from the
		// outermost function in, each once.
		{lines(60, "local a%d\n") + "\nlocal function f()\nreturn " + names(60) + "\nend", ""},
		{lines(61, "local a%d\n") + "\nlocal function f()\nreturn " + names(61) + "\nend",
			"user_script:65: function at line 63 has more than 60 upvalues"},
		{locals61 + "\nlocal function f()\nlocal function g()\nreturn " + names(61) + "\nend\nend",
			"user_script:5: function at line 2 has more than 60 upvalues"},
		{locals61 + "\nlocal function f()\nlocal a60\nlocal function g()\nreturn " + names(61) + "\nend\nend",
			"user_script:6: function at line 4 has more than 60 upvalues"},
		{locals61 + "\nlocal function f()\nreturn " + names(60) + ", a0, a1 , a59\nend", ""},
		{locals61 + "\nx = function() for a0 = a0, a1 do end return " + names(60) + ", a0 end", ""},
		{locals61 + "\nx = function() for a0 = 1, 2 do end return " + names(60) + ", a60 end",
			"user_script:2: function at line 2 has more than 60 upvalues"},
		{locals61 + "\nx = function() local function a0() return a0 end return " + names(61) + " end", ""},
	}
}

// oneLine is a message as a Redis error reply shows it.
func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// verdict is Check's answer as the playground replies it.
func verdict(chunk string) string {
	if err := Check("user_script", chunk); err != nil {
		return oneLine(err.Error())
	}
	return ""
}

func TestCheck(t *testing.T) {
	for _, c := range append(syntaxCases, limitCases()...) {
		if got := verdict(c.chunk); got != c.want {
			t.Errorf("Check(%s)\n got %q\nwant %q", show(c.chunk), got, c.want)
		}
	}
}

// show quotes a chunk for a failure message, shortened if it is long.
func show(chunk string) string {
	if len(chunk) > 200 {
		return fmt.Sprintf("%q... (%d bytes)", chunk[:200], len(chunk))
	}
	return fmt.Sprintf("%q", chunk)
}

// BenchmarkCheck is the cost of checking a protocol script: the engine
// pays it once per script it compiles.
func BenchmarkCheck(b *testing.B) {
	src := emqlua.Claim().Source
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if err := Check("user_script", src); err != nil {
			b.Fatal(err)
		}
	}
}
