package fidelity

// The cases of the Lua a learner writes off the lesson's path: patterns,
// the string library, tables, numbers and the redis API. Each case is a
// handful of Lua expressions run in one EVAL; each expression's results (all
// of them, counted, or the error it raised) come back as one string, so a
// difference shows which expression parted from Redis.

import "strings"

// luaPrelude is put in front of every expression list. ALL is every byte
// from 0 to 255; show prints a call's results as "n: v1, v2", strings
// quoted with %q, so that one nil, no value and "" stay apart.
const luaPrelude = `local ALL = {} for i = 0, 255 do ALL[#ALL + 1] = string.char(i) end ALL = table.concat(ALL)
local function show(...)
  local n = select('#', ...)
  local out = {}
  for i = 1, n do
    local v = select(i, ...)
    local t = type(v)
    if t == 'string' then out[i] = string.format('%q', v)
    elseif t == 'number' or t == 'boolean' or t == 'nil' then out[i] = tostring(v)
    else out[i] = t end
  end
  return n .. ': ' .. table.concat(out, ', ')
end
local function gm(s, p)
  local out = {}
  for a, b, c in string.gmatch(s, p) do out[#out + 1] = show(a, b, c) end
  return #out .. ' [' .. table.concat(out, ' | ') .. ']'
end
local r = {}
`

// luaExprs is an EVAL that runs each expression under pcall and returns
// what each one gave.
func luaExprs(exprs ...string) []string {
	var b strings.Builder
	b.WriteString(luaPrelude)
	for _, e := range exprs {
		b.WriteString("r[#r + 1] = show(pcall(function() return " + e + " end))\n")
	}
	b.WriteString("return r")
	return eval(b.String())
}

// lc is a case of expressions.
func lc(id, desc string, exprs ...string) fcase {
	return fcase{id: id, desc: desc, cmds: [][]string{luaExprs(exprs...)}}
}

// lcScript is a case of whole scripts, each its own EVAL.
func lcScript(id, desc string, scripts ...string) fcase {
	c := fcase{id: id, desc: desc}
	for _, s := range scripts {
		c.cmds = append(c.cmds, eval(s))
	}
	return c
}

func luaCases() []fcase {
	var cs []fcase
	cs = append(cs, patternClassCases()...)
	cs = append(cs, patternCases()...)
	cs = append(cs, gsubCases()...)
	cs = append(cs, gmatchCases()...)
	cs = append(cs, patternErrorCases()...)
	cs = append(cs, stringLibCases()...)
	cs = append(cs, tableCases()...)
	cs = append(cs, walkCases()...)
	cs = append(cs, numberCases()...)
	cs = append(cs, redisAPICases()...)
	cs = append(cs, moreLuaCases()...)
	cs = append(cs, gateCases()...)
	cs = append(cs, randomLuaCase())
	return cs
}

// patternClassCases check each class, and its complement, against every
// byte: the bytes it keeps, as gsub leaves them.
func patternClassCases() []fcase {
	var cs []fcase
	for _, cl := range "acdlpsuwxz" {
		for _, c := range []string{string(cl), strings.ToUpper(string(cl))} {
			name := c
			if c != string(cl) {
				name = "not-" + string(cl)
			}
			cs = append(cs, lc("patterns/class-"+name, "The class %"+c+" over the bytes 0 to 255, in the C locale, and in a set",
				"string.gsub(ALL, '%"+c+"', '')", "string.gsub(ALL, '[^%"+c+"]', '')", "string.find(ALL, '%"+c+"+')"))
		}
	}
	for _, e := range []struct{ name, c string }{{"g", "g"}, {"G", "G"}, {"q", "q"}, {"dot", "."}, {"bracket", "]"}, {"percent", "%"},
		{"paren", "("}, {"dash", "-"}, {"caret", "^"}, {"dollar", "$"}, {"star", "*"}, {"question", "?"}} {
		c := e.c
		cs = append(cs, lc("patterns/escape-"+e.name, "%"+c+" names no class: it stands for the character itself",
			"string.gsub(ALL, '%"+c+"', '')", "string.find('ab%"+c+"cd', '%"+c+"')", "string.match('x"+c+"y', '(%"+c+")')"))
	}
	return cs
}

func patternCases() []fcase {
	return []fcase{
		lc("patterns/find-plain", "string.find with no special character, or plain = true, searches for the text itself",
			"string.find('hello world', 'o w')", "string.find('a.b', '.', 1, true)", "string.find('a+b', '+', 1, true)",
			"string.find('abc', 'x')", "string.find('a%b', '%', 1, true)", "string.find('', '')"),
		lc("patterns/find-init", "string.find's start: negative, zero, past the end, and with an empty pattern",
			"string.find('abcabc', 'b', 3)", "string.find('abcabc', 'b', -2)", "string.find('abcabc', 'b', -100)",
			"string.find('abc', 'c', 0)", "string.find('abc', '', 10)", "string.find('abc', '', 4)", "string.find('abc', '', -1)"),
		lc("patterns/find-init-pattern", "string.find with a pattern and a start: anchors start at the start",
			"string.find('abcabc', '^b', 2)", "string.find('abcabc', '^b', 3)", "string.find('abc', '.-$', 2)",
			"string.find('abc', 'x*', 10)", "string.find('abc', '()', 2)"),
		lc("patterns/find-plain-arg", "find's fourth argument: any true value searches plainly, nil and false do not",
			"string.find('a.b', '.', 1, 1)", "string.find('a.b', '.', 1, false)", "string.find('a.b', '.', 1, nil)",
			"string.find('a.b', '.', 1, 'yes')", "string.find('a.b', '.', nil, true)"),
		lc("patterns/find-captures", "string.find returns start, end, then the captures",
			"string.find('key=value', '(%w+)=(%w+)')", "string.find('abc', '()b()')", "string.find('abc', '(b)')",
			"string.find('  x', '^%s*()')"),
		lc("patterns/match-basic", "string.match returns the match, or its captures",
			"string.match('hello world', 'o w')", "string.match('key=value', '(%w+)=(%w+)')", "string.match('abc', '.')",
			"string.match('2024-01-02', '(%d+)-(%d+)-(%d+)')"),
		lc("patterns/match-none", "string.match with no match returns exactly one nil",
			"string.match('abc', 'x')", "select('#', string.match('abc', 'x'))", "string.match('', '.')",
			"select('#', string.match('abc', '(x)(y)'))"),
		lc("patterns/match-init", "string.match from a start, negative or past the end",
			"string.match('abcabc', 'b.', 3)", "string.match('abc', '.', -1)", "string.match('abc', '.*', 10)",
			"string.match('abc', '.', 0)", "string.match('abc', '^a', 2)"),
		lc("patterns/match-position", "Position captures () give numbers",
			"string.match('hello', '()ll()')", "string.match('', '()')", "string.match('abc', '()$')",
			"string.match('abc', 'a()b()c()')"),
		lc("patterns/anchors", "^ anchors at the start, $ at the end; elsewhere they are ordinary characters",
			"string.match('abc', '^abc$')", "string.match('xabc', '^abc')", "string.match('a^b', 'a^b')",
			"string.match('a$b', 'a$b')", "string.match('ab$', 'b$$')", "string.find('abc', '$')", "string.find('abc', '^')",
			"string.match('^x', '^^x')"),
		lc("patterns/dot", ". matches any byte, NUL and newlines too",
			"string.match('a\\0b', 'a.b')", "string.match('a\\nb', 'a.b')", "#string.match(ALL, '.*')", "string.match('', '.')"),
		lc("patterns/star", "* matches the longest run, backtracking as needed",
			"string.match('aaab', 'a*')", "string.match('aaab', 'a*b')", "string.match('b', 'a*b')", "string.match('aaa', 'a*a')",
			"string.match('<a><b>', '<.*>')", "string.match('', 'x*')"),
		lc("patterns/plus", "+ matches one or more, the longest run",
			"string.match('aaab', 'a+')", "string.match('b', 'a+')", "string.match('xaaay', 'a+y')", "string.match('123abc', '%d+')"),
		lc("patterns/minus", "- matches the shortest run that lets the rest match",
			"string.match('<a><b>', '<.->')", "string.match('aaab', 'a-b')", "string.match('abc', 'a-')", "string.match('/* x */ y */', '/%*.-%*/')",
			"string.match('abc', '.-$')"),
		lc("patterns/question", "? matches one or none",
			"string.match('color', 'colou?r')", "string.match('colour', 'colou?r')", "string.match('ab', 'a?b?c?')",
			"string.match('-12', '^[+-]?%d+$')", "string.match('12', '^[+-]?%d+$')"),
		lc("patterns/quantifier-after-class", "Quantifiers apply to a class, a set or an escape, not to a capture",
			"string.match('a1b2', '%d+')", "string.match('xyz', '[xy]*')", "string.match('a%%b', '%%+')", "string.match('aa', '(a)*')"),
		lc("patterns/quantifier-first", "A quantifier with nothing before it is an ordinary character",
			"string.match('*a', '*a')", "string.match('+a', '+')", "string.match('?', '?')", "string.match('-x', '-x')",
			"string.match('a', '^*')"),
		lc("patterns/set-ranges", "Sets with ranges, several ranges, and classes inside",
			"string.gsub(ALL, '[a-fA-F0-9]', '')", "string.match('x_y-z', '[%w_]+')", "string.match('Hello', '[A-Z][a-z]+')",
			"string.match('abc', '[c-a]')", "string.gsub('a-z', '[a-]', '.')"),
		lc("patterns/set-negated", "[^...] is the complement of the set",
			"string.gsub('hello world', '[^aeiou]', '')", "string.match('abc123', '[^%a]+')", "string.match('^^a', '[^^]')",
			"string.gsub(ALL, '[^%z]', '')"),
		lc("patterns/set-bracket", "A ] first in a set is part of it; %] anywhere",
			"string.match('a]b', '[]]')", "string.match(']x', '[^]]')", "string.match('a]', '[%]]')", "string.match('-]', '[]-]+')",
			"string.match('x', '[]')"),
		lc("patterns/set-dash", "A - at the start or the end of a set is a dash; a range needs two ends",
			"string.gsub('a-b+c', '[-+]', '.')", "string.gsub('a-b+c', '[+-]', '.')", "string.gsub('a-%', '[%%-]', '.')",
			"string.match('b', '[a-]')", "string.gsub('a-c', '[a-c-]', '')"),
		lc("patterns/set-escapes", "Escapes inside sets: %a, %d, %%, %-, %.",
			"string.gsub('a.b-c%d', '[%.%-%%]', '')", "string.gsub('a1 b2', '[%d%s]', '')", "string.gsub(ALL, '[%A]', '')"),
		lc("patterns/set-high-bytes", "Sets and ranges compare bytes unsigned: UTF-8 and bytes past 127",
			"string.gsub('caf\\195\\169', '[\\128-\\255]', '?')", "string.gsub(ALL, '[\\200-\\210]', '')", "string.match('\\255', '[\\254-\\255]')"),
		lc("patterns/captures", "Nested captures come out in the order of their opening parenthesis",
			"string.match('abcd', '((a)(b)((c)d))')", "string.match('x=1, y=2', '(%w)=(%d), (%w)=(%d)')", "string.match('ab', '(a)()(b)')"),
		lc("patterns/capture-empty", "An empty capture, and captures of an empty match",
			"string.match('abc', '()')", "string.match('abc', '(x*)')", "string.find('abc', '(x*)c')", "string.match('', '(.*)')"),
		lc("patterns/backref", "%1 to %9 match the text of a capture again",
			"string.match('hello', '(l)%1')", "string.match('abab', '(ab)%1')", "string.match('\"q\" x', '([\"\\']).-%1')",
			"string.find('abcabc', '(a)(b)(c)%1%2%3')", "string.match('aa', '(a)%1%1')"),
		lc("patterns/backref-position", "A back-reference to a position capture matches nothing",
			"string.match('aa', '()a%1')", "string.find('aa', '()%1')"),
		lc("patterns/balance", "%bxy matches a balanced run from x to y",
			"string.match('f(a(b)c) d', '%b()')", "string.match('((x)', '%b()')", "string.match('[[a]][b]', '%b[]')",
			"string.gsub('a (b) c (d (e))', '%b()', '')", "string.match('xx', '%bxx')", "string.match('abba', '%bab')"),
		lc("patterns/balance-edges", "%b at the end of the subject, unclosed, or with the same opener and closer",
			"string.match('(', '%b()')", "string.match(')', '%b()')", "string.match('', '%b()')", "string.match('\"a\" b', '%b\"\"')"),
		lc("patterns/frontier", "%f[set] matches where the previous byte is not in the set and the next one is",
			"string.gsub('THE (quick) fox', '%f[%a]%a+', 'W')", "string.find('THE (quick) fox', '%f[%a]%a+%f[%A]')",
			"string.match('hello world', '%f[%w]%w+$')", "string.gsub('a1b2', '%f[%d]', '#')"),
		lc("patterns/frontier-edges", "%f at the start and the end of the subject: the byte there counts as NUL",
			"string.find('abc', '%f[%a]')", "string.find('abc', '%f[%A]')", "string.find('abc', '%f[%z]')", "string.gsub('one two', '%f[%w]', '<')",
			"string.gsub('one two', '%f[%W]', '>')", "string.find('', '%f[%z]')"),
		lc("patterns/frontier-sets", "%f with negated sets, ranges and escapes",
			"string.gsub('aXbYc', '%f[A-Z]', '_')", "string.gsub('ab  cd', '%f[^ ]', '|')", "string.gsub('x.y', '%f[%.]', '!')"),
		lc("patterns/nul-in-subject", "A NUL in the subject is an ordinary byte; %z matches it",
			"string.find('a\\0b', '\\0', 1, true)", "string.find('a\\0b', '%z')", "string.gsub('a\\0b\\0', '%z', '0')", "string.match('a\\0b', '[%z]')",
			"string.match('a\\0b', '%Z+')"),
		lc("patterns/nul-in-pattern", "A NUL in a pattern ends it, as C reads it",
			"string.find('abc', 'b\\0x')", "string.match('abc', 'b\\0x')", "string.gsub('abc', 'b\\0', 'X')", "string.find('a\\0b', 'a\\0b')"),
		lc("patterns/numbers-as-strings", "Numbers as subject, pattern or replacement are read as their %.14g text",
			"string.find(12345, 34)", "string.match(1/3, '%d+$')", "string.gsub(100, 0, 1)", "string.find(1e100, 'e')",
			"string.match(-0.5, '^%-')"),
		lc("patterns/long-subject", "Patterns over a long subject: greedy runs, searches that fail, and captures of it",
			"#string.match(string.rep('a', 100000), 'a*')", "string.find(string.rep('a', 100000) .. 'b', 'b')",
			"string.find(string.rep('ab', 50000), 'ba', 99990)", "#(string.match(string.rep('x', 50000) .. '=1', '(x+)='))"),
		lc("patterns/captures-max", "Up to 32 captures: 32 work, 33 are too many",
			"select('#', string.match(string.rep('a', 32), string.rep('(a)', 32)))",
			"string.match(string.rep('a', 33), string.rep('(a)', 33))"),
		lc("patterns/deep", "A pattern of many optional items, which the matcher takes in one pass when they all match",
			"#string.match(string.rep('a', 100) .. 'b', string.rep('a?', 100) .. 'b')",
			"#string.match(string.rep('a', 150), string.rep('a?', 150))", "string.match('ab', string.rep('a?', 50) .. 'b')"),
		lc("patterns/url", "What learners write: split a key, parse a URL, trim, a number check",
			"string.match('emq:{q}:job:JOB1', '^emq:{(.-)}:job:(.+)$')", "string.match('https://x.io:80/a?b=1', '^(%a+)://([^:/]+):?(%d*)(/?[^?]*)%??(.*)$')",
			"string.match('  hi  ', '^%s*(.-)%s*$')", "string.find('42', '^[1-9]%d*$')", "string.find('042', '^[1-9]%d*$')"),
		lc("patterns/csv", "Splitting and counting with find in a loop",
			"(function() local t, i = {}, 1 while true do local s, e = string.find('a,b,,c', ',', i, true) if not s then t[#t+1] = string.sub('a,b,,c', i) break end t[#t+1] = string.sub('a,b,,c', i, s - 1) i = e + 1 end return table.concat(t, '|') end)()",
			"select(2, string.gsub('a,b,,c', ',', ','))"),
		lc("patterns/method-calls", "Pattern functions called as methods of a string",
			"('hello'):find('l')", "('hello'):match('(h)(e)')", "('hello'):gsub('l', 'L')", "('a b'):gmatch('%a')()"),
	}
}

func gsubCases() []fcase {
	return []fcase{
		lc("gsub/basic", "string.gsub replaces every match and counts them",
			"string.gsub('hello world', 'o', '0')", "string.gsub('abc', 'x', 'y')", "string.gsub('', 'x', 'y')", "string.gsub('aaa', 'a', 'bb')"),
		lc("gsub/empty-matches", "Empty matches replace between every byte, and at the end",
			"string.gsub('abc', '', '-')", "string.gsub('abc', 'x*', '-')", "string.gsub('', '', '-')", "string.gsub('abc', '()', '%1')"),
		lc("gsub/max-n", "gsub's fourth argument limits the replacements",
			"string.gsub('aaaa', 'a', 'b', 2)", "string.gsub('aaaa', 'a', 'b', 0)", "string.gsub('aaaa', 'a', 'b', -1)",
			"string.gsub('aaaa', 'a', 'b', 2.9)", "string.gsub('aaaa', 'a', 'b', '3')", "string.gsub('abc', '', '-', 2)"),
		lc("gsub/anchored", "An anchored pattern replaces at most once, at the start",
			"string.gsub('aaa', '^a', 'b')", "string.gsub('baa', '^a', 'b')", "string.gsub('abc', '^', '>')", "string.gsub('', '^', '>')",
			"string.gsub('aaa', '^a*', '')"),
		lc("gsub/percent-captures", "In a replacement string %0 is the match and %1 to %9 the captures",
			"string.gsub('hello world', '(%w+)', '<%1>')", "string.gsub('abc', '%w', '%0%0')", "string.gsub('k=v', '(%w)=(%w)', '%2=%1')",
			"string.gsub('abc', 'b', '%1')", "string.gsub('abc', '()b', '%1')"),
		lc("gsub/percent-escapes", "%% is a percent; % before any other character is that character",
			"string.gsub('abc', 'b', '%%')", "string.gsub('abc', 'b', '100%%')", "string.gsub('abc', 'b', '%x')", "string.gsub('abc', 'b', '%')",
			"#string.gsub('abc', 'b', '%')"),
		lc("gsub/percent-errors", "A capture index past the pattern's captures is an error",
			"string.gsub('abc', 'b', '%2')", "string.gsub('abc', '(b)', '%2')", "string.gsub('abc', '(b)', '%9')"),
		lc("gsub/table", "A table replacement looks up the first capture (or the match); false or nil keeps the text",
			"string.gsub('$name is $age', '%$(%w+)', {name = 'Ann', age = 7})", "string.gsub('a b c', '%w', {a = 1, b = false})",
			"string.gsub('x', 'x', {x = 1.5})", "string.gsub('abc', '()', {[1] = 'one', [3] = 'three'})"),
		lc("gsub/table-bad-value", "A table replacement that gives a table or a boolean true is an error",
			"string.gsub('x', 'x', {x = {}})", "string.gsub('x', 'x', {x = true})", "string.gsub('x', 'x', {x = string.len})"),
		lc("gsub/table-metatable", "A table replacement goes through __index",
			"string.gsub('ab', '%w', setmetatable({}, {__index = function(t, k) return k:upper() end}))"),
		lc("gsub/function", "A function replacement gets the captures; nil or false keeps the text",
			"string.gsub('hello world', '%w+', string.upper)", "string.gsub('a1b2', '(%a)(%d)', function(a, d) return d .. a end)",
			"string.gsub('abc', '%w', function(c) if c == 'b' then return nil end return c .. c end)",
			"string.gsub('abc', '%w', function() return false end)", "string.gsub('abc', '%w', function() return 7 end)"),
		lc("gsub/function-bad-value", "A function replacement that returns a table or true is an error",
			"string.gsub('abc', '%w', function() return {} end)", "string.gsub('abc', '%w', function() return true end)"),
		lc("gsub/function-errors", "An error inside a replacement function reaches the caller",
			"string.gsub('abc', '%w', function() error('boom') end)", "string.gsub('abc', '%w', function() error('boom', 0) end)"),
		lc("gsub/function-positions", "A function replacement with position captures gets numbers",
			"string.gsub('abc', '()%w()', function(a, b) return a .. b end)"),
		lc("gsub/bad-replacement", "A replacement that is not a string, number, table or function",
			"string.gsub('abc', 'b', true)", "string.gsub('abc', 'b', nil)", "string.gsub('abc', 'b')", "string.gsub('abc', 'b', 1.5)"),
		lc("gsub/arguments", "gsub's argument checks, in Lua 5.1's order",
			"string.gsub()", "string.gsub('a')", "string.gsub('a', {}, 'b')", "string.gsub('a', 'a', 'b', 'x')", "string.gsub({}, 'a', 'b')",
			"string.gsub('a', 'a', true, 'x')"),
		lc("gsub/long", "gsub over long subjects: a 2-byte replacement of 100,000 bytes, and counts",
			"#string.gsub(string.rep('a', 100000), 'a', 'bb')", "select(2, string.gsub(string.rep('ab', 50000), 'b', ''))",
			"#string.gsub(string.rep('x', 100000), '', '')", "string.sub(string.gsub(string.rep('a', 100000), 'a', '%%'), 1, 10)"),
		lc("gsub/escape", "What learners write: escaping magic characters, collapsing spaces, trimming",
			"string.gsub('1+1=2?', '[%^%$%(%)%%%.%[%]%*%+%-%?]', '%%%0')", "string.gsub('a   b  c', '%s+', ' ')",
			"string.gsub('  x  ', '^%s+', '')", "string.gsub('CamelCaseName', '(%u)', ' %1')", "(string.gsub('a,b;c', '[,;]', {[','] = ';', [';'] = ','}))"),
	}
}

func gmatchCases() []fcase {
	return []fcase{
		lc("gmatch/words", "for w in string.gmatch(...) iterates every match",
			"gm('the quick brown fox', '%a+')", "gm('one, two,three', '[^,%s]+')", "gm('', '%a+')", "gm('123', '%a+')"),
		lc("gmatch/captures", "gmatch with captures gives the captures",
			"gm('a=1, b=2, c=3', '(%w+)=(%w+)')", "gm('abc', '()(.)')", "gm('k1=v1;k2=v2', '(%w+)=(%w+);?')"),
		lc("gmatch/empty", "Empty matches move on one byte each",
			"gm('abc', '')", "gm('abc', 'x*')", "gm('baaac', 'a*')", "gm('ab', '()')"),
		lc("gmatch/anchor", "In Lua 5.1's gmatch a ^ is an ordinary character, not an anchor",
			"gm('^a^a', '^a')", "gm('aaa', '^a')", "gm('hello', '^h')"),
		lc("gmatch/iterator", "The iterator can be called by hand; past the last match it returns nothing",
			"(function() local f = string.gmatch('a b', '%a') return f(), f(), f() end)()",
			"(function() local f = string.gmatch('a b', '%a') f() f() return select('#', f()) end)()",
			"type(string.gmatch('a', 'a'))", "(function() local f = string.gmatch('ab', '.') f() f() f() return f() end)()"),
		lc("gmatch/errors", "A malformed pattern in gmatch is reported at the first call",
			"type(string.gmatch('a', '['))", "string.gmatch('a', '[')()", "string.gmatch('a', '%')()", "string.gmatch('a', '(')()",
			"string.gmatch('a')", "string.gmatch()"),
		lc("gmatch/lines", "What learners write: lines, key=value pairs, numbers",
			"gm('l1\\nl2\\n\\nl4', '[^\\n]+')", "gm('x=1&y=22&z=', '([^&=]+)=([^&=]*)')", "gm('3 apples, 42 pears', '%d+')",
			"gm('a.b.c', '[^.]+')"),
		lc("gmatch/balance-frontier", "gmatch with %b and %f",
			"gm('(a)(b(c))', '%b()')", "gm('THE (quick) fox', '%f[%a]%a+')", "gm('aXbYc', '%f[%u].')"),
		lcScript("gmatch/for-loop", "A whole script with a for ... in string.gmatch loop, and a break out of it",
			"local n = 0 for w in string.gmatch('a bb ccc', '%a+') do n = n + #w end return n",
			"local out = {} for k, v in string.gmatch('a=1,b=2', '(%w+)=(%w+)') do out[#out + 1] = k .. v end return out",
			"for w in string.gmatch('a b c', '%a') do if w == 'b' then return w end end return 'none'"),
	}
}

func patternErrorCases() []fcase {
	return []fcase{
		lc("pattern-errors/ends-with-percent", "A pattern ending in % is malformed",
			"string.find('a', '%')", "string.match('a', 'a%')", "string.gsub('a', '%', '')", "string.find('a%', '%', 1, true)"),
		lc("pattern-errors/missing-bracket", "An unclosed set is malformed",
			"string.find('a', '[a')", "string.match('a', '[')", "string.match('a', '[^')", "string.match('a', '[%')", "string.match('a', '[a%]')",
			"string.find('a', '[]')"),
		lc("pattern-errors/only-when-reached", "A malformed part of a pattern is only found when the matcher reaches it",
			"string.find('abc', 'x[')", "string.find('xbc', 'x[')", "string.match('b', 'a%')", "string.match('', 'a(')"),
		lc("pattern-errors/unfinished-capture", "A capture never closed: unfinished capture, when it is returned",
			"string.match('x', '(')", "string.find('x', '(x')", "string.gsub('x', '(', '')", "string.gsub('x', '(x', '%1')", "string.match('ab', '(a(b)')"),
		lc("pattern-errors/invalid-pattern-capture", "A ) with no open capture is an invalid pattern capture",
			"string.match('x', ')')", "string.find('x', 'x)')", "string.match('x', '(x))')"),
		lc("pattern-errors/invalid-capture-index", "A back-reference to a capture that is not there, or still open",
			"string.match('aa', '%1')", "string.match('aa', '(a%1)')", "string.match('aa', '(a)%2')", "string.match('aa', '%0')",
			"string.find('aa', '(a)%9')"),
		lc("pattern-errors/balance", "%b needs two characters after it",
			"string.match('a', '%b')", "string.match('a', '%b(')", "string.find('(', '%b(')", "string.match('', '%b()')"),
		lc("pattern-errors/frontier", "%f must be followed by a set",
			"string.match('a', '%f')", "string.match('a', '%fa')", "string.match('a', '%f[a')", "string.match('a', '%f[')"),
		lc("pattern-errors/arguments", "Argument errors of find and match",
			"string.find()", "string.find('a')", "string.find('a', {})", "string.match('a', 'a', 'x')", "string.find('a', 'a', {})",
			"string.match(nil, 'a')"),
	}
}

func stringLibCases() []fcase {
	return []fcase{
		lc("string/byte", "string.byte with no range gives the first byte only; ranges, negatives and empty ranges",
			"string.byte('abc')", "string.byte('abc', 2)", "string.byte('abc', 1, -1)", "string.byte('abc', -2, -1)", "string.byte('')",
			"string.byte('abc', 3, 1)", "string.byte('abc', 0)", "string.byte('abc', 10)"),
		lc("string/byte-huge-range", "string.byte over a huge range: Lua 5.1's 'string slice too long'",
			"select('#', string.byte(string.rep('x', 1000), 1, -1))", "string.byte(string.rep('x', 100000), 1, -1)",
			"select('#', string.byte(string.rep('x', 7999), 1, -1))", "select('#', string.byte(string.rep('x', 8000), 1, -1))"),
		lc("string/unpack-limits", "unpack with huge ranges: 'too many results to unpack'",
			"select('#', unpack({}, 1, 100))", "unpack({}, 1, 1e8)", "unpack({}, 1, 2^31)", "select('#', unpack({}, 1, 7999))",
			"select('#', unpack({}, 1, 8000))", "unpack({1, 2, 3}, -1, 1)", "unpack({1, 2, 3}, 2)"),
		lc("string/char", "string.char's limits",
			"string.char()", "string.char(0, 255)", "string.char(256)", "string.char(-1)", "string.char('65')", "string.char(65.9)"),
		lc("string/sub", "string.sub with every kind of range",
			"string.sub('hello', 2, 4)", "string.sub('hello', -3)", "string.sub('hello', 0)", "string.sub('hello', 10)",
			"string.sub('hello', 3, 2)", "string.sub('hello', -100, 2)", "string.sub('hello', 2.7)", "string.sub('hello')"),
		lc("string/rep-reverse-len", "string.rep, reverse and len at their edges",
			"string.rep('ab', 3)", "string.rep('ab', 0)", "string.rep('ab', -1)", "string.rep('', 1e6)", "string.reverse('')",
			"string.reverse('a\\0b')", "string.len('a\\0b')", "#'\\0\\0'"),
		lc("string/tostring-concat", "Concatenating numbers and strings, and what cannot be",
			"1 .. 2", "'a' .. 1.5", "'a' .. {}", "'a' .. nil", "'x' .. true"),
		lcScript("string/pcall-depth", "Nested pcall: the depth at which Lua 5.1's C stack overflows",
			"local function f(n) if n == 0 then return 'bottom' end local ok, v = pcall(f, n - 1) return v end return f(150)",
			"local function f(n) if n == 0 then return 'bottom' end local ok, v = pcall(f, n - 1) return v end return f(250)",
			"local function f(n) return pcall(f, n + 1) end local ok, e = f(0) return tostring(e)"),
		lcScript("string/c-stack-overflow", "Recursion through metamethods, an iterator, tostring and coroutines: Lua 5.1's C stack overflow, and how deep each gets",
			"local m = {} m.__index = function(a, b) return a[b] end return setmetatable({}, m).x",
			"local m = {} m.__tostring = function(a) return tostring(a) end return tostring(setmetatable({}, m))",
			"local function it() for _ in it do end end for _ in it do end return 1",
			"local n = 0 local m = {} m.__index = function(a, b) n = n + 1 return a[b] end local ok, e = pcall(function() return setmetatable({}, m).x end) return {n, e}",
			"local n = 0 local m = {} m.__newindex = function(a, b, c) n = n + 1 a[b] = c end local ok, e = pcall(function() setmetatable({}, m).x = 1 end) return {n, e}",
			"local n = 0 local m = {} m.__add = function(a, b) n = n + 1 return a + b end local ok, e = pcall(function() return setmetatable({}, m) + 1 end) return {n, e}",
			"local n = 0 local m = {} m.__concat = function(a, b) n = n + 1 return a .. b end local ok, e = pcall(function() return setmetatable({}, m) .. 'x' end) return {n, e}",
			"local n = 0 local m = {} m.__eq = function(a, b) n = n + 1 return a == b end local ok, e = pcall(function() return setmetatable({}, m) == setmetatable({}, m) end) return {n, e}",
			"local n = 0 local m = {} m.__lt = function(a, b) n = n + 1 return a < b end local ok, e = pcall(function() return setmetatable({}, m) < setmetatable({}, m) end) return {n, e}",
			"local n = 0 local m = {} m.__tostring = function(a) n = n + 1 return tostring(a) end local ok, e = pcall(tostring, setmetatable({}, m)) return {n, e}",
			"local n = 0 local function it() n = n + 1 for _ in it do end end local ok, e = pcall(function() for _ in it do end end) return {n, e}",
			"local n = 0 local function f() n = n + 1 table.foreach({1}, f) end local ok, e = pcall(f) return {n, e}",
			"local n = 0 local function f() n = n + 1 local co = coroutine.wrap(f) return co() end local ok, e = pcall(f) return {n, #e}",
			"local n = 0 local function f() n = n + 1 local ok, e = pcall(function() return setmetatable({}, {__index = function() return f() end}).x end) if not ok then return e end return ok end return {f(), n}",
			"local function f(n) if n == 0 then local o = setmetatable({x = 5}, {__index = function() return 1 end}) return {o.x, o.y} end local ok, v = pcall(f, n - 1) return v end return {f(197), f(198)}",
			"return #setmetatable({1, 2}, {__len = function() return 5 end})"),
		lcScript("string/recursion", "Deep Lua recursion without pcall: the stack overflow error",
			"local function f(n) return 1 + f(n + 1) end return f(0)",
			"local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(10000)"),
		lc("string/coroutine-errors", "Coroutine errors as Lua 5.1 words them",
			"coroutine.resume(coroutine.create(function() error('x') end))", "coroutine.resume(coroutine.create(function() end), 1)",
			"(function() local co = coroutine.create(function() end) coroutine.resume(co) return coroutine.resume(co) end)()",
			"coroutine.yield()", "coroutine.create(1)", "coroutine.resume(1)", "coroutine.status(coroutine.create(type))",
			"coroutine.wrap(function() error('w') end)()"),
		lc("string/coroutine-values", "Values through resume and yield",
			"(function() local co = coroutine.create(function(a, b) local c = coroutine.yield(a + b) return c * 2 end) local _, x = coroutine.resume(co, 1, 2) local _, y = coroutine.resume(co, 10) return x, y, coroutine.status(co) end)()",
			"(function() local f = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end) return f(), f(), f() end)()",
			"coroutine.running()"),
		lc("string/loadstring", "loadstring: a chunk that compiles, one that does not, and the error's wording",
			"loadstring('return 1 + 1')()", "loadstring('return +')", "loadstring('x =')", "loadstring('return 1', 'name')()",
			"loadstring(1)", "loadstring()", "select('#', loadstring('?'))"),
		lc("string/select", "select's index checks",
			"select('#')", "select(2, 'a', 'b', 'c')", "select(-1, 'a', 'b')", "select(0, 'a')", "select(-5, 'a')", "select('x', 'a')"),
	}
}

func tableCases() []fcase {
	return []fcase{
		lc("tables/insert", "table.insert at the end and at a position",
			"(function() local t = {1, 2} table.insert(t, 3) return table.concat(t, ',') end)()",
			"(function() local t = {1, 2} table.insert(t, 1, 0) return table.concat(t, ',') end)()",
			"(function() local t = {} table.insert(t, 1, 'a') table.insert(t, 1, 'b') return table.concat(t, ',') end)()"),
		lc("tables/insert-arguments", "table.insert with the wrong number of arguments",
			"table.insert({})", "table.insert({}, 1, 2, 3)", "table.insert()", "table.insert(1, 2)", "table.insert({}, 'x', 1)"),
		lc("tables/insert-position", "table.insert at positions past the end, zero and negative",
			"(function() local t = {1} table.insert(t, 5, 'x') return #t, t[5] end)()",
			"(function() local t = {1} table.insert(t, 0, 'x') return #t, t[0] end)()",
			"(function() local t = {1} table.insert(t, -1, 'x') return #t, t[-1] end)()"),
		lc("tables/remove", "table.remove from the end, a position, and an empty table",
			"(function() local t = {1, 2, 3} return table.remove(t), #t end)()", "(function() local t = {1, 2, 3} return table.remove(t, 1), table.concat(t, ',') end)()",
			"table.remove({})", "select('#', table.remove({}))", "(function() local t = {1} return table.remove(t, 5) end)()"),
		lc("tables/sort", "table.sort of numbers and strings, with and without a comparator",
			"(function() local t = {3, 1, 2} table.sort(t) return table.concat(t, ',') end)()",
			"(function() local t = {'b', 'a', 'C'} table.sort(t) return table.concat(t, ',') end)()",
			"(function() local t = {3, 1, 2} table.sort(t, function(a, b) return a > b end) return table.concat(t, ',') end)()"),
		lc("tables/sort-compare-errors", "table.sort of values that cannot be compared",
			"table.sort({1, 'a'})", "table.sort({{}, {}})", "table.sort({1, 2, nil, 3})", "table.sort({true, false})", "table.sort(1)"),
		lc("tables/sort-invalid-order", "An order function that is not a strict order: 'invalid order function for sorting'",
			"(function() local t = {} for i = 1, 100 do t[i] = i % 7 end table.sort(t, function(a, b) return true end) return 'sorted' end)()",
			"(function() local t = {} for i = 1, 10 do t[i] = 5 end table.sort(t, function(a, b) return a <= b end) return 'sorted' end)()",
			"(function() local t = {3, 2, 1} table.sort(t, function(a, b) return true end) return table.concat(t, ',') end)()"),
		lc("tables/length", "#t of arrays, of tables with a nil at the end, and of string keys",
			"#{1, 2, 3}", "#{1, 2, nil}", "#{}", "#{n = 1}", "(function() local t = {1, 2, 3} t[3] = nil return #t end)()",
			"(function() local t = {} t[1] = 1 t[2] = 2 t[4] = 4 return #t end)()"),
		lc("tables/length-holes", "#t of tables with holes, as Lua 5.1 computes its border",
			"#{1, nil, 3}", "#{nil, nil, 3}", "#{1, 2, nil, 4}", "(function() local t = {1, 2, 3, 4} t[2] = nil return #t end)()",
			"(function() local t = {} for i = 1, 10 do t[i] = i end t[5] = nil return #t end)()"),
		lc("tables/concat", "table.concat with separators, ranges and bad values",
			"table.concat({1, 2, 3}, ', ')", "table.concat({}, 'x')", "table.concat({1, 2, 3}, '', 2, 3)", "table.concat({1, {}, 3})",
			"table.concat({1, 2}, ',', 1, 5)"),
		lc("tables/maxn-getn", "table.maxn and table.getn, which Lua 5.1 keeps",
			"table.maxn({1, 2, [10] = 3})", "table.maxn({})", "table.getn({1, 2, 3})", "table.maxn({[1.5] = 1})"),
		lc("tables/next-arrays", "next and ipairs over arrays follow the index order",
			"(function() local t, out = {10, 20, 30}, {} for k, v in pairs(t) do out[#out + 1] = k .. '=' .. v end return table.concat(out, ' ') end)()",
			"(function() local out = {} for i, v in ipairs({1, 2, nil, 4}) do out[#out + 1] = v end return table.concat(out, ' ') end)()",
			"next({})", "next({}, nil)", "type(next)"),
		lc("tables/pairs-string-keys", "pairs over a table with string keys, built by assignments: the order Lua 5.1's hash part gives",
			"(function() local t = {} for _, k in ipairs({'a', 'b', 'c', 'd', 'e'}) do t[k] = 1 end local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ' ') end)()",
			"(function() local t = {} t.name = 'x' t.age = 1 t.city = 'y' local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ' ') end)()",
			"(function() local t = {} for i = 1, 20 do t['k' .. i] = i end local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ' ') end)()"),
		lc("tables/pairs-constructor", "pairs over a table written as a constructor with string keys",
			"(function() local t = {a = 1, b = 2, c = 3} local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ' ') end)()",
			"(function() local t = {x = 1, y = 2, 10, 20} local o = {} for k in pairs(t) do o[#o + 1] = tostring(k) end return table.concat(o, ' ') end)()"),
		lc("tables/pairs-mixed", "pairs over arrays with holes and number keys",
			"(function() local t = {} t[3] = 'c' t[1] = 'a' t[2] = 'b' local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ' ') end)()",
			"(function() local t = {1, 2, 3} t[10] = 10 t[5] = 5 local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ' ') end)()",
			"(function() local t = {} t[1.5] = 1 t[-1] = 2 t[0] = 3 local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ' ') end)()"),
		lc("tables/next-errors", "next with a key that is not in the table",
			"next({}, 'x')", "next({1}, 2)", "next(1)"),
		lc("tables/rawops", "rawget, rawset, rawequal and rawlen-less Lua 5.1",
			"rawget({a = 1}, 'a')", "rawequal({}, {})", "(function() local t = {} rawset(t, 'k', 'v') return t.k end)()", "rawget(1, 2)",
			"type(rawlen)"),
		lc("tables/metatables", "setmetatable, getmetatable and __metatable",
			"getmetatable('').__index == string", "getmetatable(setmetatable({}, {__metatable = 'locked'}))",
			"setmetatable(setmetatable({}, {__metatable = 1}), {})", "setmetatable({}, 1)"),
	}
}

func numberCases() []fcase {
	return []fcase{
		lc("numbers/nan-signs", "NaNs as Redis prints them: 0/0 is -nan, math.fmod and math.log give their own signs",
			"tostring(0/0)", "tostring(math.fmod(1, 0))", "tostring(math.fmod(-1, 0))", "tostring(math.log(-1))", "tostring(math.sqrt(-1))",
			"tostring(math.huge - math.huge)", "tostring(math.huge * 0)"),
		lc("numbers/nan-more", "More NaNs: from math functions, and in string.format",
			"tostring(math.acos(2))", "tostring(math.asin(2))", "tostring(math.log10(-1))", "string.format('%f', 0/0)",
			"string.format('%g', math.log(-1))", "tostring(math.fmod(0/0, 1))"),
		lc("numbers/modf", "math.modf of whole numbers, fractions and infinities",
			"math.modf(3.7)", "math.modf(-3.7)", "math.modf(5)", "math.modf(1/0)", "math.modf(-1/0)", "math.modf(0/0)"),
		lc("numbers/frexp-ldexp", "math.frexp and math.ldexp",
			"math.frexp(8)", "math.frexp(0)", "math.frexp(-0.75)", "math.ldexp(0.5, 4)", "math.frexp(1/0)"),
		lc("numbers/fmod", "math.fmod and % with negatives",
			"math.fmod(7, 3)", "math.fmod(-7, 3)", "math.fmod(7, -3)", "-7 % 3", "7 % -3", "5.5 % 2", "math.fmod(1, 1/0)"),
		lc("numbers/floor-ceil", "math.floor, math.ceil, math.abs at their edges",
			"math.floor(-0.5)", "math.ceil(-0.5)", "tostring(math.ceil(-0.5))", "math.floor(2^53 + 0.5)", "math.abs(-0)", "math.floor(1/0)"),
		lc("numbers/max-min", "math.max and math.min with NaNs and no arguments",
			"math.max(1, 5, 3)", "math.min(1, 5, 3)", "tostring(math.max(0/0, 1))", "tostring(math.max(1, 0/0))", "math.max()", "math.min('2', 1)"),
		lc("numbers/pow-exp", "Powers, exp and log",
			"2^0.5", "(-8)^(1/3)", "math.exp(1)", "math.log(0)", "math.log10(1000)", "math.pow(2, 10)", "0^0"),
		lc("numbers/trig", "Trigonometry, printed with %.14g",
			"math.sin(1)", "math.cos(math.pi)", "math.tan(0.5)", "math.atan2(1, -1)", "math.sinh(1)", "math.deg(math.pi)", "math.rad(180)"),
		lc("numbers/libm-last-digit", "exp and pow of awkward arguments, printed with %.14g: the last digit shows the C library's rounding",
			"tostring(math.exp(-145.208))", "tostring(math.pow(1/3, 454.561))"),
		lc("numbers/folded-modulo", "% of two constants, which the compiler works out before the script runs",
			"tostring(2^63 % 988.185)", "tostring(1e17 % 3.3)"),
		lc("numbers/modulo", "% of numbers the script computes: a - floor(a/b)*b, as Lua 5.1 defines it",
			"(function(z) return tostring((z + 2^63) % (z + 988.185)) end)(0)", "(function(z) return tostring((z + 1e17) % (z + 3.3)) end)(0)",
			"(function(z) return tostring((z - 7.5) % (z + 2)) end)(0)", "(function(z) return tostring((z + 5) % (z - 0)) end)(0)"),
		lc("numbers/collectgarbage", "collectgarbage('count') is a number; other options",
			"type(collectgarbage('count'))", "collectgarbage('count') > 0", "collectgarbage()", "collectgarbage('collect')",
			"collectgarbage('step')", "collectgarbage('bogus')", "type(gcinfo())"),
		lc("numbers/format-numbers", "Numbers through string.format",
			"string.format('%d', 3.9)", "string.format('%5.2f', 1/3)", "string.format('%x', 255)", "string.format('%e', 12345.678)",
			"string.format('%g', 1e20)", "string.format('%.3s', 'abcdef')", "string.format('%5s|%-5s|', 'a', 'b')"),
		lc("numbers/tonumber-edges", "tonumber of the strings a script gets from ARGV",
			"tonumber('  12  ')", "tonumber('1e2')", "tonumber('0x1F')", "tonumber('')", "tonumber('12a')", "tonumber('1.5e')"),
		lc("numbers/integer-edges", "Integers near 2^53 and 2^63 as text",
			"2^53", "2^53 + 1", "2^63", "-2^63", "tostring(2^31)", "string.format('%d', 2^31)", "math.floor(-2^53)"),
	}
}

func redisAPICases() []fcase {
	return []fcase{
		lc("redis-api/sha1hex", "redis.sha1hex of strings and numbers; with no argument, Redis's arity error",
			"redis.sha1hex('')", "redis.sha1hex('abc')", "redis.sha1hex(123)", "redis.sha1hex()", "redis.sha1hex('a', 'b')",
			"redis.sha1hex({})"),
		lc("redis-api/log", "redis.log with valid and invalid levels",
			"redis.log(redis.LOG_WARNING, 'x')", "redis.log(redis.LOG_DEBUG, 'a', 'b')", "redis.log(99, 'x')", "redis.log(-1, 'x')",
			"redis.log('x', 'y')", "redis.log(redis.LOG_NOTICE)", "redis.log()"),
		lc("redis-api/log-levels", "The log level constants",
			"redis.LOG_DEBUG", "redis.LOG_VERBOSE", "redis.LOG_NOTICE", "redis.LOG_WARNING"),
		lc("redis-api/replies", "status_reply and error_reply as tables",
			"redis.status_reply('OK').ok", "redis.error_reply('E x').err", "redis.status_reply()", "redis.error_reply(1)"),
		lc("redis-api/pcall", "redis.pcall returns an error table instead of raising",
			"type(redis.pcall('NOPE'))", "redis.pcall('NOPE').err", "redis.pcall('GET', 'a', 'b').err", "redis.pcall()"),
		lc("redis-api/call-arguments", "redis.call with arguments that are not strings or numbers",
			"redis.call('SET', 'k', {})", "redis.call('SET', 'k', true)", "redis.call('SET', 'k', nil)", "redis.call()", "redis.call(1)"),
		lcScript("redis-api/error-nul", "error() with a message holding a NUL byte is cut at the NUL, as Redis cuts it",
			"error('before\\0after')", "error({err = 'CODE x\\0y'})", "return redis.error_reply('E a\\0b')",
			"local ok, e = pcall(error, 'a\\0b') return {e, #e}"),
		lcScript("redis-api/stack-overflow-line", "Unbounded recursion: the error and the line it names",
			onLine(3, "local function f() return f() + 1 end\nreturn f()"),
			onLine(5, "local function g(n)\n  local t = {n}\n  return g(n + 1)[1]\nend\nreturn g(1)")),
		lcScript("redis-api/setresp-and-version", "redis.setresp, REDIS_VERSION and breakpoint/debug in a normal run",
			"return type(redis.breakpoint)", "return type(redis.debug)", "return redis.REDIS_VERSION_NUM"),
	}
}
