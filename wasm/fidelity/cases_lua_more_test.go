package fidelity

// More cases of the Lua a learner writes, one idiom each, in the same form
// as cases_lua_test.go: a few expressions per case, every result compared.

// ex is one case of expressions, written as a row.
type ex struct {
	id, desc string
	exprs    []string
}

func moreLuaCases() []fcase {
	var cs []fcase
	for _, group := range [][]ex{morePatternCases(), moreGsubCases(), moreGmatchCases(), moreStringCases(), moreTableCases(), moreNumberCases(), moreRedisCases()} {
		for _, e := range group {
			cs = append(cs, lc(e.id, e.desc, e.exprs...))
		}
	}
	return append(cs, moreScriptCases()...)
}

func morePatternCases() []ex {
	return []ex{
		{"patterns/find-special-plain", "find with plain = true takes magic characters as they are", []string{
			`string.find('a.b.c', '.', 2, true)`, `string.find('(x)', '(', 1, true)`, `string.find('50%', '%', 1, true)`, `string.find('a+b', '+b', 1, true)`}},
		{"patterns/find-positions", "find returns where the match starts and ends", []string{
			`string.find('hello', 'l+')`, `string.find('hello', 'o$')`, `string.find('hello', '^h')`, `string.find('hello', 'xyz')`}},
		{"patterns/greedy-lazy", "The greedy .* against the lazy .-", []string{
			`string.match('a,b,c', '(.*),')`, `string.match('a,b,c', '(.-),')`, `string.match('<b>x</b><b>y</b>', '<b>(.-)</b>')`, `string.match('<b>x</b><b>y</b>', '<b>(.*)</b>')`}},
		{"patterns/version", "Digits separated by dots", []string{
			`string.match('v1.2.3', '(%d+)%.(%d+)%.(%d+)')`, `string.match('abc', '%d*')`, `string.match('7.0.15', '^(%d+)%.')`}},
		{"patterns/anchor-with-init", "^ anchors at the start position given", []string{
			`string.match('hello', '^l', 3)`, `string.match('hello', '^l', 4)`, `string.find('hello', '^o', -1)`}},
		{"patterns/empty-subject", "Patterns against the empty string", []string{
			`string.match('', '')`, `string.match('', '^$')`, `string.find('', '^$')`, `string.match('', 'a*')`, `string.match('', '.-')`}},
		{"patterns/class-combos", "Several classes in a row", []string{
			`string.match('Ab1_ ', '%u%l%d%p?')`, `string.gsub('a1!B2?', '%W', '')`, `string.match('x9y', '%a%d%a')`}},
		{"patterns/hex-digits", "%x: hexadecimal digits", []string{
			`string.match('ff00AA', '^%x+$')`, `string.match('0x1G', '^0x(%x+)$')`, `string.match('0x1F', '^0x(%x+)$')`}},
		{"patterns/trim", "Trimming white space at both ends", []string{
			`string.gsub('\t x \n', '^%s+', '')`, `string.match('\t x \n', '^%s*(.-)%s*$')`, `string.match('   ', '^%s*(.-)%s*$')`}},
		{"patterns/whole-words", "Replacing whole words with frontiers", []string{
			`string.gsub('cat concat cat', '%f[%w]cat%f[%W]', 'dog')`, `string.gsub('the then the', '%f[%a]the%f[%A]', 'a')`}},
		{"patterns/set-class-range", "A set mixing a class, a character and a dash", []string{
			`string.gsub('a1-b2_', '[%d_-]', '')`, `string.gsub('a1-b2_', '[_%d-]', '')`}},
		{"patterns/nested-balance", "%b over nested brackets", []string{
			`string.match('x = {a = {b = 1}}', '%b{}')`, `string.gsub('(a)(b)', '%b()', 'X')`, `string.match('[[x]]', '%b[]')`}},
		{"patterns/position-find", "Position captures with find", []string{
			`string.find('key: value', '()%s*:()')`, `string.find('abc', '()c()')`}},
		{"patterns/capture-repeated", "A capture around a repetition, and a quantifier after a capture", []string{
			`string.match('aaa', '(a+)')`, `string.match('abab', '((ab)+)')`, `string.match('ab+', '((ab)+)')`}},
		{"patterns/backref-quotes", "A back-reference closing a quoted string", []string{
			`string.match([[say "hi" and 'bye']], "([\"'])(.-)%1")`, `string.match([[it's "x']], "([\"'])(.-)%1")`}},
		{"patterns/first-last", "The first and the last character", []string{
			`string.match('abc', '(.)$')`, `string.match('abc', '^(.)')`, `string.match('', '(.)$')`}},
		{"patterns/dollar-inside", "A $ that is not at the end is a character", []string{
			`string.find('a$b', '$b')`, `string.find('a$', 'a$')`, `string.find('$$', '$$')`}},
		{"patterns/class-in-set", "%d and %x inside sets", []string{
			`string.match('x5', '[%d]')`, `string.match('x', '[%x]')`, `string.match('g', '[%x]')`}},
		{"patterns/high-bytes", "Bytes past 127 are in no letter class in the C locale", []string{
			`string.gsub('\200\201abc', '%a', '')`, `string.gsub('\200', '%W', 'w')`, `string.gsub('caf\195\169', '%A', '?')`}},
		{"patterns/control-chars", "Tabs, returns and newlines", []string{
			`string.gsub('a\tb\nc', '%c', ' ')`, `string.gsub('a\r\nb\nc', '\r?\n', '|')`, `string.gsub('a\0b', '%c', '.')`}},
		{"patterns/counts", "How many values find and match return", []string{
			`select('#', string.match('ab', '(a)(b)'))`, `select('#', string.find('ab', '(a)(b)'))`, `select('#', string.find('ab', 'x'))`}},
		{"patterns/minus-anchored", "- with anchors", []string{
			`string.match('aaa', '^a-$')`, `string.match('aaa', 'a-')`, `string.match('aaab', '^(a-)b')`}},
		{"patterns/optional-captures", "Captures of optional items", []string{
			`string.match('ab', '(a?)(b?)(c?)')`, `string.match('', '(a?)')`}},
		{"patterns/http-line", "Parsing a request line", []string{
			`string.match('GET /x HTTP/1.1', '^(%u+) (%S+) HTTP/(%d)%.(%d)$')`, `string.match('get /x', '^(%u+) ')`}},
		{"patterns/email", "An e-mail address check", []string{
			`string.match('ann@example.com', '^[%w._-]+@[%w.-]+%.%a+$')`, `string.match('ann@', '^[%w._-]+@[%w.-]+%.%a+$')`}},
		{"patterns/ip-address", "The four numbers of an IPv4 address", []string{
			`string.match('192.168.0.1', '^(%d+)%.(%d+)%.(%d+)%.(%d+)$')`, `string.match('1.2.3', '^(%d+)%.(%d+)%.(%d+)%.(%d+)$')`}},
		{"patterns/timestamp", "An ISO timestamp taken apart", []string{
			`string.match('2024-01-02T03:04:05Z', '(%d+)-(%d+)-(%d+)T(%d+):(%d+):(%d+)')`}},
		{"patterns/queue-keys", "The course's key names taken apart and rewritten", []string{
			`string.match('emq:{orders}:job:42', '^emq:{([^}]+)}:job:(%d+)$')`, `string.gsub('emq:{q}:pending', '{.-}', '{x}')`,
			`string.match('emq:{q}:job:JOB1', ':job:(.*)$')`}},
		{"patterns/lease-check", "The claim script's lease check, on good and bad leases", []string{
			`string.find('30000', '^[1-9]%d*$')`, `string.find('0', '^[1-9]%d*$')`, `string.find('1e3', '^[1-9]%d*$')`, `string.find(' 5', '^[1-9]%d*$')`,
			`string.find('5 ', '^[1-9]%d*$')`, `string.find('', '^[1-9]%d*$')`}},
		{"patterns/number-subject", "A number as the subject of match and gsub", []string{
			`string.match(3.25, '%.(%d+)')`, `string.gsub(-12, '%-', 'minus ')`, `string.match(2^60, '^%d+')`}},
	}
}

func moreGsubCases() []ex {
	return []ex{
		{"gsub/count-only", "gsub's second result counts the replacements", []string{
			`select(2, string.gsub('banana', 'a', ''))`, `select(2, string.gsub('banana', 'an', ''))`, `select(2, string.gsub('banana', 'x', ''))`}},
		{"gsub/no-overlap", "Matches do not overlap", []string{
			`string.gsub('aaaa', 'aa', 'b')`, `string.gsub('aaa', 'aa', 'b')`, `string.gsub('ababa', 'aba', 'x')`}},
		{"gsub/dollar", "A $ at the end of the pattern", []string{
			`string.gsub('abc', 'c$', 'C')`, `string.gsub('abc$', 'c$', 'C')`, `string.gsub('abc', '$', '!')`}},
		{"gsub/number-replacement", "A number as the replacement is its %.14g text", []string{
			`string.gsub('abc', 'b', 2)`, `string.gsub('abc', 'b', 1e20)`, `string.gsub('abc', 'b', -0.5)`, `string.gsub('abc', 'b', 1/3)`}},
		{"gsub/percent-letters", "% before a letter in the replacement", []string{
			`string.gsub('abc', 'b', '%a')`, `string.gsub('abc', '(b)', '%1%1%%1')`, `string.gsub('abc', 'b', '%%%%')`}},
		{"gsub/table-keys", "Table replacements are looked up by the captured string", []string{
			`string.gsub('1 2 3', '%d', {['1'] = 'one'})`, `string.gsub('1 2 3', '%d', {[1] = 'one'})`, `string.gsub('abc', '()', {'x', 'y', 'z'})`}},
		{"gsub/function-returns", "A function replacement's extra results are ignored", []string{
			`string.gsub('abc', '%w', function(c) return c, 'x' end)`, `string.gsub('abc', '%w', function(c) return (c:byte()) end)`}},
		{"gsub/function-positions-captures", "A function gets position and text captures in order", []string{
			`string.gsub('ab', '()(%w)', function(p, c) return p .. c end)`, `string.gsub('ab', '(%w)()', function(c, p) return c .. p end)`}},
		{"gsub/function-side-effect", "Counting matches with a function that returns nothing", []string{
			`(function() local n = 0 string.gsub('a b c', '%a', function() n = n + 1 end) return n end)()`,
			`(function() local t = {} string.gsub('k1=v1, k2=v2', '(%w+)=(%w+)', function(k, v) t[#t + 1] = v .. k end) return table.concat(t, ' ') end)()`}},
		{"gsub/max-n-edges", "The replacement limit with empty matches and a single replacement", []string{
			`string.gsub('', '', 'x', 0)`, `string.gsub('abc', '.', 'x', 1)`, `string.gsub('abc', '', '-', 1)`, `string.gsub('abc', '.', 'x', 100)`}},
		{"gsub/nul", "NULs in the replacement and the subject", []string{
			`#string.gsub('abc', 'b', '\0')`, `string.gsub('a\0c', '%z', '0')`, `string.gsub('a\0c', '\0', '0')`}},
		{"gsub/capitalize", "Capitalizing words", []string{
			`string.gsub('hello world', '^%l', string.upper)`, `string.gsub('hello world', '%f[%a]%a', string.upper)`, `string.gsub('hello world', '(%a)(%a*)', function(a, b) return a:upper() .. b end)`}},
		{"gsub/strip", "Stripping what is not a digit", []string{
			`string.gsub('(555) 123-4567', '%D', '')`, `string.gsub('a1b2c3', '%d', '')`}},
		{"gsub/escape-magic", "Escaping a string to use it as a pattern", []string{
			`(function(s) return (s:gsub('[%p]', '%%%0')) end)('a.b*c')`, `(function(s) local p = s:gsub('[%p]', '%%%0') return string.find('xa.b*cx', p) end)('a.b*c')`}},
		{"gsub/each-char", "A capture of each byte", []string{
			`string.gsub('abc', '(.)', '%1-')`, `string.gsub('abc', '.', '%0%0')`}},
		{"gsub/errors", "Malformed patterns in gsub", []string{
			`string.gsub('x', '[', '')`, `string.gsub('x', '%b', '')`, `string.gsub('x', '%f', '')`, `string.gsub('x', '(()', '')`}},
		{"gsub/position-replacements", "Position captures in a replacement string", []string{
			`string.gsub('abc', '()', '%0')`, `string.gsub('abc', '(()b)', '%2')`, `string.gsub('abc', '()b', '[%1]')`}},
		{"gsub/long-replacement", "A long replacement string", []string{
			`#string.gsub('ab', 'a', string.rep('x', 1000))`, `#string.gsub(string.rep('a', 1000), 'a', string.rep('xy', 50))`}},
		{"gsub/nine-captures", "All nine capture references", []string{
			`string.gsub('abcdefghi', '(.)(.)(.)(.)(.)(.)(.)(.)(.)', '%9%8%7%6%5%4%3%2%1')`}},
		{"gsub/method", "gsub called as a method, and with a pattern from a variable", []string{
			`('a-b-c'):gsub('-', '+')`, `(function() local p = '%s+' return ('a  b'):gsub(p, ' ') end)()`}},
	}
}

func moreGmatchCases() []ex {
	return []ex{
		{"gmatch/count-fields", "Counting fields, empty ones included", []string{
			`(function() local n = 0 for _ in string.gmatch('a,b,,c', '[^,]*') do n = n + 1 end return n end)()`,
			`(function() local n = 0 for _ in string.gmatch('a,b,,c', '[^,]+') do n = n + 1 end return n end)()`}},
		{"gmatch/positions", "Position captures only", []string{`gm('abc', '()')`, `gm('a b', '()%s()')`}},
		{"gmatch/frontier-words", "Words found with a frontier", []string{`gm('hello big world', '%f[%a]%a+')`, `gm('x1y2', '%f[%d]%d')`}},
		{"gmatch/nested-captures", "Nested captures in gmatch", []string{`gm('k=v;x=y', '((%w)=(%w))')`}},
		{"gmatch/balanced-calls", "Function calls with their balanced arguments", []string{`gm('f(a) g(b(c)) h', '%a%b()')`}},
		{"gmatch/signed-numbers", "Signed and decimal numbers", []string{`gm('1 -2 +3 4.5', '[+-]?%d+%.?%d*')`, `gm('a1.5b', '%d+%.?%d*')`}},
		{"gmatch/empty-subject", "gmatch over the empty string", []string{`gm('', '')`, `gm('', 'x')`, `gm('', '.*')`}},
		{"gmatch/utf8", "UTF-8 bytes in gmatch", []string{`gm('h\195\169llo', '[\128-\255]+')`, `gm('h\195\169llo', '%a+')`}},
		{"gmatch/dollar", "$ in gmatch patterns", []string{`gm('abc', 'c$')`, `gm('a$b$', '%$')`, `gm('abc', '.$')`}},
		{"gmatch/numbers", "Numbers as gmatch's subject and pattern", []string{`gm(12321, '2')`, `gm(3.14, '%d')`}},
		{"gmatch/greedy-star", "A greedy star in gmatch", []string{`gm('aXbXc', '.*X')`, `gm('aXbXc', '.-X')`}},
		{"gmatch/after-end", "Calling the iterator past the end, several times", []string{
			`(function() local f = string.gmatch('ab', '%a') local out = {} for i = 1, 5 do out[i] = tostring(f()) end return table.concat(out, ',') end)()`}},
	}
}

func moreStringCases() []ex {
	return []ex{
		{"string/len-numbers", "The length of numbers as text", []string{`string.len(123)`, `string.len(1e15)`, `#tostring(1/3)`, `string.len(-0.5)`}},
		{"string/upper-lower-more", "Case mapping of mixed text", []string{`string.upper('abc\195\137')`, `string.lower('ABC')`, `('x'):upper()`, `string.upper(12)`}},
		{"string/rep-more", "string.rep with fractions, strings and NaN counts", []string{
			`string.rep('x', 2.9)`, `string.rep('ab', '3')`, `(function(z) return string.rep('x', z/z) end)(0)`, `string.rep('x', -2.5)`}},
		{"string/sub-more", "string.sub with negative ranges and as a method", []string{
			`string.sub('hello', -3, -2)`, `('hello'):sub(2)`, `string.sub('hello', 2, -10)`, `string.sub('', 1, 1)`}},
		{"string/byte-char", "string.char and string.byte as inverses", []string{
			`string.char(string.byte('hello', 1, -1))`, `string.byte(string.char(0, 127, 128, 255), 1, -1)`}},
		{"string/format-q-more", "%q of awkward strings and numbers", []string{
			`string.format('%q', 'a\nb\0c"d\\')`, `string.format('%q', 1/3)`, `string.format('%q', '\r\t')`}},
		{"string/format-s-more", "%s with widths, precision and numbers", []string{
			`string.format('%s', 1e15)`, `string.format('%5.1s|', 'abc')`, `string.format('%-5s|', 'ab')`, `string.format('%s %s', 1, 'x')`}},
		{"string/format-errors-more", "string.format's errors", []string{
			`string.format('%d')`, `string.format('%d', 'x')`, `string.format('%y', 1)`, `string.format('%', 1)`, `string.format()`}},
		{"string/format-flags", "Flags and widths with numbers", []string{
			`string.format('%05d', 42)`, `string.format('%+.2e', 12345)`, `string.format('%#x', 255)`, `string.format('%#o', 8)`, `string.format('% d', 5)`}},
		{"string/tostring-basics", "tostring of simple values", []string{`tostring(nil)`, `tostring(true)`, `tostring(12)`, `tostring(1e100)`, `tostring('x')`}},
		{"string/concat-more", "Numbers joined with ..", []string{`1 .. ''`, `1.5 .. '|'`, `2^63 .. ''`, `-1e-300 .. ''`}},
		{"string/compare", "Strings compared byte by byte", []string{
			`'a' < 'b'`, `'Z' < 'a'`, `'abc' < 'abd'`, `'' < 'a'`, `'a\0b' < 'a\0c'`, `'10' < '9'`, `'a' <= 'a'`}},
		{"string/compare-errors", "Comparing values of different types", []string{`'a' < 1`, `{} < {}`, `nil < 1`, `true < false`}},
		{"string/length-errors", "# of values without a length", []string{`#nil`, `#5`, `#true`}},
		{"string/method-on-number", "A method call on a number, and on a string", []string{`(5):rep(2)`, `('5'):rep(2)`}},
		{"string/metatable", "Strings' metatable gives the string library", []string{
			`getmetatable('').__index.upper('x')`, `getmetatable('').__index == string`, `('abc'):len()`}},
		{"string/reverse-bytes", "string.reverse turns bytes around, UTF-8 included", []string{`string.reverse('h\195\169llo')`, `string.reverse('ab\0')`}},
		{"string/tostring-table", "tostring of a table and a function starts with its type", []string{
			`type(tostring({}))`, `tostring({}):sub(1, 7)`, `tostring(string.len):sub(1, 10)`}},
		{"string/select-more", "select with negative indexes and nothing to select", []string{
			`select(-2, 'a', 'b', 'c')`, `select(2)`, `select('#', nil, nil)`, `select(1.9, 'a', 'b')`}},
		{"string/unpack-basics", "unpack of arrays, ranges and holes", []string{
			`unpack({1, 2, 3})`, `unpack({1, 2, 3}, 2, 3)`, `unpack({}, 1, 2)`, `unpack({1, nil, 3}, 1, 3)`, `unpack({1, 2}, '2')`}},
		{"string/error-values", "error with levels, numbers and nil, under pcall", []string{
			`pcall(error, 'x', 0)`, `pcall(error, 'x', 2)`, `pcall(error, 42)`, `pcall(error, nil)`, `pcall(error)`}},
		{"string/assert", "assert's results and messages", []string{
			`assert(1, 'm')`, `assert(false, 'boom')`, `assert(nil)`, `assert(false, 42)`, `select('#', assert(1, 2, 3))`}},
		{"string/type-names", "type of each kind of value", []string{
			`type(nil)`, `type(1)`, `type('s')`, `type({})`, `type(type)`, `type(coroutine.create(function() end))`, `type()`}},
		{"string/tonumber-bases-more", "tonumber with bases", []string{
			`tonumber('ff', 16)`, `tonumber('777', 8)`, `tonumber('z', 36)`, `tonumber('102', 2)`, `tonumber('FF', 16)`}},
		{"string/xpcall", "xpcall's handler", []string{
			`xpcall(function() error('x') end, function(m) return 'handled: ' .. m end)`, `xpcall(function() return 1, 2 end, print or type)`}},
		{"string/loadstring-run", "Running what loadstring made", []string{
			`loadstring('return ...')(1, 2)`, `pcall(loadstring('error(\'in chunk\')'))`, `loadstring('local x = 1 return x + 1')()`}},
		{"string/pcall-results", "pcall's results on success and failure", []string{
			`pcall(function() return 1, 2, 3 end)`, `pcall(function() end)`, `pcall(nil)`, `pcall({})`}},
		{"string/rawequal-rawget", "rawequal, rawget and rawset", []string{
			`rawequal('a', 'a')`, `rawequal(1, '1')`, `rawget({5}, 1)`, `(function() local t = setmetatable({}, {__newindex = function() error('no') end}) rawset(t, 'k', 1) return t.k end)()`}},
	}
}

func moreTableCases() []ex {
	return []ex{
		{"tables/concat-numbers", "table.concat of numbers", []string{`table.concat({1, 2.5, 1e15}, ',')`, `table.concat({-0.5, 1/3})`}},
		{"tables/concat-invalid", "table.concat of values that are not strings", []string{`table.concat({1, true})`, `table.concat({}, ',', 1, 2)`, `table.concat({'a'}, {})`}},
		{"tables/sort-strings", "table.sort of strings, byte by byte", []string{
			`(function() local t = {'b', 'B', 'a', '_', '1', ''} table.sort(t) return table.concat(t, ',') end)()`}},
		{"tables/sort-numbers", "table.sort of negative, fractional and large numbers", []string{
			`(function() local t = {3, -1, 0, -0.5, 2^53, 1e-9} table.sort(t) return table.concat(t, ',') end)()`}},
		{"tables/sort-equal-keys", "Sorting records by a key with ties: where the ties end up is the algorithm's", []string{
			`(function() local t = {} for i = 1, 12 do t[i] = {k = i % 3, v = string.char(96 + i)} end table.sort(t, function(a, b) return a.k < b.k end) local o = {} for i, r in ipairs(t) do o[i] = r.v end return table.concat(o) end)()`}},
		{"tables/sort-many", "table.sort of a thousand numbers from a simple generator", []string{
			`(function() local t, x = {}, 7 for i = 1, 1000 do x = (x * 75 + 74) % 65537 t[i] = x end table.sort(t) local s = 0 for i = 1, 1000, 97 do s = s + t[i] * i end return s, t[1], t[1000] end)()`,
			`(function() local t = {} for i = 1, 200 do t[i] = (i * 37) % 101 end table.sort(t, function(a, b) return a > b end) return table.concat(t, ',', 1, 20) end)()`}},
		{"tables/sort-comparator-errors", "Errors from and about the comparator", []string{
			`table.sort({1, 2, 3}, function(a, b) error('cmp') end)`, `table.sort({1, 2}, 'x')`, `table.sort({2, 1}, function(a, b) return a.x < b end)`}},
		{"tables/sort-metamethod", "table.sort of tables ordered by __lt", []string{
			`(function() local mt = {__lt = function(a, b) return a.n < b.n end} local t = {} for i, n in ipairs({3, 1, 2}) do t[i] = setmetatable({n = n}, mt) end table.sort(t) return t[1].n .. t[2].n .. t[3].n end)()`}},
		{"tables/insert-remove-sequence", "A queue kept with insert and remove", []string{
			`(function() local q = {} table.insert(q, 'a') table.insert(q, 'b') table.insert(q, 1, 'c') local x = table.remove(q, 1) table.insert(q, 'd') return x .. ':' .. table.concat(q, ',') end)()`}},
		{"tables/getn-setn", "table.getn, and table.setn which Lua 5.1 made obsolete", []string{`table.getn({1, 2})`, `table.setn({}, 1)`}},
		{"tables/foreach", "table.foreach and foreachi", []string{
			`(function() local n = 0 table.foreach({a = 1, b = 2}, function(k, v) n = n + v end) return n end)()`,
			`(function() local s = '' table.foreachi({'x', 'y'}, function(i, v) s = s .. i .. v end) return s end)()`,
			`table.foreachi({1, 2}, function(i, v) if i == 2 then return 'stop' end end)`}},
		{"tables/length-string-keys", "# ignores string keys", []string{`#{a = 1, b = 2}`, `#{1, 2, a = 3}`, `#{n = 1, 1, 2, 3}`}},
		{"tables/ipairs-stop", "ipairs stops at the first nil", []string{
			`(function() local n = 0 for _ in ipairs({1, 2, nil, 4}) do n = n + 1 end return n end)()`, `(function() local n = 0 for _ in ipairs({nil, 2}) do n = n + 1 end return n end)()`}},
		{"tables/pairs-clear", "Clearing every field during pairs", []string{
			`(function() local t = {a = 1, b = 2, c = 3} for k in pairs(t) do t[k] = nil end return next(t) end)()`}},
		{"tables/pairs-update", "Changing values during pairs", []string{
			`(function() local t = {} t.x = 1 t.y = 2 t.z = 3 for k, v in pairs(t) do t[k] = v * 10 end return t.x + t.y + t.z end)()`}},
		{"tables/next-array", "next over an array part", []string{`next({5, 6})`, `next({5, 6}, 1)`, `next({5, 6}, 2)`}},
		{"tables/string-and-number-keys", "'1' and 1 are different keys", []string{
			`(function() local t = {} t['1'] = 'str' t[1] = 'num' return t['1'] .. t[1] end)()`, `(function() local t = {} t[1.0] = 'a' return t[1] end)()`}},
		{"tables/cjson-and-pairs", "cjson.encode and pairs agree on the order of a table built by assignment", []string{
			`(function() local t = {} t.id = 1 t.name = 'x' t.state = 'pending' local o = {} for k in pairs(t) do o[#o + 1] = k end return table.concat(o, ','), cjson.encode(t) end)()`}},
		{"tables/metamethods", "__index, __newindex and rawget", []string{
			`(function() local t = setmetatable({}, {__index = function(_, k) return k .. '!' end}) return t.x, rawget(t, 'x') end)()`,
			`(function() local log = {} local t = setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, v * 2) end}) t.a = 2 return t.a end)()`}},
		{"tables/nested", "Tables inside tables", []string{`(function() local t = {a = {b = {c = 'deep'}}} return t.a.b.c end)()`, `({{1, 2}, {3}})[1][2]`}},
	}
}

func moreNumberCases() []ex {
	return []ex{
		{"numbers/infinities", "Infinities as text and through string.format", []string{
			`tostring(1/0)`, `string.format('%d', 1/0)`, `string.format('%f', -1/0)`, `string.format('%g', 1e308 * 10)`, `string.format('%.1f', 1/0)`}},
		{"numbers/negative-zero", "Negative zero made at run time", []string{
			`(function(z) return tostring(-z) end)(0)`, `(function(z) return tostring(z * -1) end)(0)`, `(function(z) return string.format('%g', -z) end)(0)`, `(function(z) return 1 / -z end)(0)`}},
		{"numbers/division", "Division is never integer division", []string{`7 / 2`, `-7 / 2`, `math.floor(-7 / 2)`, `1 / 3 * 3`}},
		{"numbers/big-integers", "Integers past 2^53 as text", []string{`2^53 + 1`, `123456789012345678`, `tostring(2^64)`, `-2^63 - 1024`}},
		{"numbers/hex-literals", "Hexadecimal literals", []string{`0x10`, `0xff + 1`, `0XA`, `0x7fffffff`}},
		{"numbers/exponents", "Literals with exponents", []string{`1e2`, `1E-2`, `5e+3`, `.5e1`}},
		{"numbers/precision", "Sums that are not what they seem, at %.14g", []string{`0.1 + 0.2`, `0.1 + 0.2 == 0.3`, `100 / 3`, `1 - 1e-15`}},
		{"numbers/coercion-more", "Strings in arithmetic", []string{`'10' + 5`, `'3' * '4'`, `'0x10' + 0`, `' 5 ' * 2`, `'5' .. 5`, `-'2'`}},
		{"numbers/arith-errors", "Arithmetic on values that are not numbers", []string{`'a' + 1`, `{} * 2`, `nil - 1`, `true / 2`, `-{}`}},
		{"numbers/equality", "Equality across types, and NaN", []string{
			`1 == 1.0`, `'1' == 1`, `(function(z) return z/z == z/z end)(0)`, `(function(z) local n = z/z return n ~= n end)(0)`}},
		{"numbers/seeded-random", "math.random after math.randomseed", []string{
			`(function() math.randomseed(42) return math.random(), math.random(10), math.random(5, 7) end)()`, `math.random(0)`, `math.random(3, 1)`}},
		{"numbers/constants", "math.pi and math.huge", []string{`math.pi`, `math.huge`, `-math.huge`, `math.huge == 1/0`}},
		{"numbers/frexp-more", "math.frexp of big, small and negative numbers", []string{`math.frexp(1e300)`, `math.frexp(-3)`, `math.frexp(1e-310)`}},
		{"numbers/string-arguments", "Math functions given strings", []string{`math.floor('3.7')`, `math.floor('x')`, `math.max('10', 9)`, `math.abs('-3')`}},
		{"numbers/abs-extremes", "math.abs of extremes", []string{`math.abs(-2^63)`, `math.abs(-1/0)`, `(function(z) return tostring(math.abs(z/z)) end)(0)`}},
		{"numbers/tonumber-more", "tonumber of big, negative hex and fractional hex", []string{`tonumber('1e500')`, `tonumber('-0x10')`, `tonumber('0x1.8')`, `tonumber('1e-500')`}},
		{"numbers/format-integers", "%d and %x of big and negative numbers", []string{
			`string.format('%d', 2^53)`, `string.format('%d', -2^63)`, `string.format('%x', -1)`, `string.format('%d', 2^64)`, `string.format('%5.3d', 7)`}},
		{"numbers/format-floats", "%f, %e and %g at their edges", []string{
			`string.format('%.0f', 0.5)`, `string.format('%.0f', 1.5)`, `string.format('%e', 0)`, `string.format('%g', 100000)`, `string.format('%g', 1e-5)`, `string.format('%.20f', 0.1)`}},
	}
}

func moreRedisCases() []ex {
	return []ex{
		{"redis-api/call-replies", "What redis.call gives back for SET, GET and a missing key", []string{
			`redis.call('SET', 'k', 'v')`, `redis.call('GET', 'k')`, `redis.call('GET', 'missing')`, `type(redis.call('SET', 'k', 'v'))`, `redis.call('SET', 'k', 'v').ok`}},
		{"redis-api/pcall-wrongtype", "redis.pcall of a command on the wrong type", []string{
			`redis.call('SET', 's', 'x')`, `redis.pcall('LPUSH', 's', 'a').err`, `pcall(redis.call, 'LPUSH', 's', 'a')`}},
		{"redis-api/call-numbers", "Numbers passed to redis.call", []string{
			`redis.call('SET', 'n', 1.5)`, `redis.call('GET', 'n')`, `redis.call('INCRBY', 'c', 2.0)`, `redis.call('SET', 'big', 2^53)`, `redis.call('GET', 'big')`}},
		{"redis-api/log-result", "redis.log returns nothing", []string{`select('#', redis.log(redis.LOG_WARNING, 'x'))`, `redis.log(redis.LOG_NOTICE, 'a', 1, 2.5)`}},
		{"redis-api/sha1hex-more", "redis.sha1hex of a NUL and of a long string", []string{`redis.sha1hex('\0')`, `redis.sha1hex(string.rep('a', 1000))`, `redis.sha1hex(1.5)`}},
		{"redis-api/call-errors-caught", "Errors of redis.call caught by pcall", []string{
			`pcall(redis.call, 'NOPE')`, `pcall(redis.call, 'GET')`, `pcall(redis.call)`, `pcall(redis.call, 'SET', 'k', {})`}},
		{"redis-api/global-writes", "Writing globals is refused, reading unknown ones too", []string{
			`(function() x = 1 end)()`, `unknown_global`, `rawget(_G, 'redis') ~= nil`, `type(_G)`}},
	}
}

func moreScriptCases() []fcase {
	return []fcase{
		lcScript("redis-api/return-values", "A script's return values converted to replies",
			"return 3.7", "return -3.7", "return {1.5, 2.5}", "return 1e20", "return {1, {2, {3}}}", "return {1, nil, 3}",
			"return true", "return false", "return {true, false}", "return 'a\\0b'", "return {'a\\0b'}", "return nil"),
		lcScript("redis-api/error-returns", "Error and status tables returned, not raised",
			"return redis.error_reply('MY err')", "return {err = 'x'}", "return redis.status_reply('FINE')", "return {ok = 'a\\0b'}",
			"return {err = 'E1', ok = 'both'}"),
		lcScript("redis-api/error-raises", "Errors raised at the top of a script: levels, numbers and tables",
			"error('x', 0)", "error('x', 2)", "error(7)", "error({err = 'MYCODE bad'})", "error('-CODE x')", "error('x\\ny')"),
		fcase{id: "redis-api/keys-argv", desc: "KEYS and ARGV as a script sees them",
			cmds: [][]string{evalKeys("return {KEYS[1], ARGV[1], #KEYS, #ARGV, tostring(KEYS[3])}", []string{"k1", "k2"}, "a1", "", "a\x003"),
				evalKeys("return {type(KEYS), type(ARGV), #ARGV}", nil)}},
		lcScript("lua/catch-upvalues", "A pcall or xpcall that catches an error leaves shared locals shared, and closes the locals of the frames it unwound",
			"local n = 0 local function g() n = n + 1 error('x') end pcall(g) local n1 = n n = 0 pcall(g) return n1 .. ',' .. n",
			"local n = 0 local function g() n = n + 1 error('x') end xpcall(g, function(e) return e end) n = n + 10 xpcall(g, function(e) return e end) return n",
			"local f xpcall(function() local x = 1 f = function() return x end error('e') end, function(e) return e end) local a, b, c, d, e = 7, 8, 9, 10, 11 return tostring(f())",
			"local f pcall(function() local x = 1 f = function() return x end error('e') end) local a, b, c, d, e = 7, 8, 9, 10, 11 return tostring(f())",
			"local n = 0 local function g() n = n + 1 error('x') end pcall(function() pcall(g) n = n + 1 error('y') end) n = n * 10 pcall(g) return n",
			"local t = {} for i = 1, 3 do pcall(function() local v = i * 2 t[i] = function() return v end error('e') end) end local a, b, c = 0, 0, 0 return {t[1](), t[2](), t[3]()}",
			"local n = 0 local ok = pcall(function() local function h() n = n + 1 end h() pcall(error, 'z') h() end) return n .. tostring(ok)"),
		lcScript("redis-api/script-cjson", "cjson round trips a learner tries",
			"return cjson.encode({1, 2, 3})", "return cjson.encode({a = {b = 'c'}})", "return cjson.decode('{\"a\":[1,2,{\"b\":null}]}').a[2]",
			"return cjson.encode(cjson.decode('[1.5,\"x\",true,null]'))"),
	}
}
