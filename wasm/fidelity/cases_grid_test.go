package fidelity

// A grid of cases over the kinds issue 9 names, one case per pattern, format
// or number: each pattern through find, match, gmatch and gsub over the same
// subjects; each format specifier over the same values; each number through
// tostring, concatenation and tonumber of its text. (The modulo is taken of
// a value the script holds, not of two literals: those are folded when the
// script is compiled, the known difference numbers/folded-modulo.) A learner who writes a
// pattern or a format of their own meets one of these, and a miss shows the
// exact spelling that parts from Redis.

import (
	"fmt"
	"strings"
)

// gridSubjects are what every pattern is run over: words and numbers,
// punctuation and spaces, and bytes past ASCII with a NUL.
var gridSubjects = []string{
	`'emq:{q}:job:JOB-17 state=pending attempts=0'`,
	`'  hello, World! 42 x-y_z [a] (b) %d '`,
	`'\0\1\127\128\255 tab\tnl\n end'`,
}

// gridPatterns cover classes, sets, quantifiers, anchors, captures,
// back-references, %b, %f and position captures.
var gridPatterns = []string{
	`%a+`, `%A+`, `%d+`, `%D`, `%l+`, `%u%l*`, `%s+`, `%S+`, `%w+`, `%W`, `%p`, `%P+`, `%x+`, `%c`, `%z`,
	`[%w_]+`, `[^%s]+`, `[a-f]+`, `[%-_]`, `[]]`, `[^]]+`, `[a-]`, `%.`, `.-`, `.-%s`, `a*`, `x?y`, `%d?%d`,
	`^%s*(.-)%s*$`, `^emq`, `end$`, `(%w+)=(%w+)`, `(%a)(%a)%2`, `(.)%1`, `()%d()`, `%b()`, `%b[]`, `%b{}`,
	`%f[%w]%w+`, `%f[%W]`, `%f[%a]%a`, `{(.-)}`, `:(%w+):`, `(h)(e)(l)(l)(o)`, `[%z\1-\31]`,
}

// gridFormats are string.format specifiers, each over the same values.
var gridFormats = []string{
	`%d`, `%5d`, `%-5d|`, `%05d`, `%+d`, `%x`, `%X`, `%#x`, `%o`, `%c`, `%e`, `%.3e`, `%E`, `%f`, `%.0f`,
	`%10.4f`, `%g`, `%.3g`, `%G`, `%q`, `%s`, `%10s|`, `%-10s|`, `%.2s`, `%5.1s|`, `%i`, `%u`, `%%`,
}

// gridNumbers are numbers whose printing and reading Lua 5.1 and Redis fix.
var gridNumbers = []string{
	`0`, `-0`, `1/0`, `-1/0`, `0.1`, `1/3`, `2^53`, `2^53+1`, `2^63`, `-2^63`, `1e15`, `1e16`, `123456789012345678`,
	`3.14159265358979`, `1e-5`, `5e-324`, `1.7976931348623157e308`, `100`, `-7.5`, `0x10`, `255/256`, `2^31`,
}

func gridCases() []fcase {
	var cs []fcase
	for i, p := range gridPatterns {
		lit := fmt.Sprintf("%q", p)
		var exprs []string
		for _, s := range gridSubjects {
			exprs = append(exprs,
				"string.find("+s+", "+lit+")",
				"string.match("+s+", "+lit+")",
				"gm("+s+", "+lit+")",
				"string.gsub("+s+", "+lit+", '<%0>')",
			)
		}
		cs = append(cs, lc(fmt.Sprintf("patterns/grid-%02d", i+1), "The pattern "+strings.ReplaceAll(p, "|", `\|`)+" through find, match, gmatch and gsub", exprs...))
	}
	for i, f := range gridFormats {
		lit := fmt.Sprintf("%q", f)
		var exprs []string
		for _, v := range []string{`0`, `42`, `-7`, `3.5`, `255`, `'abc'`, `'x\0y'`, `1e10`} {
			exprs = append(exprs, "string.format("+lit+", "+v+")")
		}
		cs = append(cs, lc(fmt.Sprintf("strings/format-grid-%02d", i+1), "string.format with "+strings.ReplaceAll(f, "|", `\|`)+" over numbers and strings", exprs...))
	}
	for i, n := range gridNumbers {
		cs = append(cs, lc(fmt.Sprintf("numbers/grid-%02d", i+1), "The number "+n+" printed, concatenated and read back",
			"tostring("+n+")", "'' .. ("+n+")", "tonumber(tostring("+n+"))", "math.floor("+n+")", "(function(x) return x % 7 end)("+n+")", "string.format('%.14g', "+n+")"))
	}
	return cs
}
