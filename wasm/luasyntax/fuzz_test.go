package luasyntax

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/gopher-lua/parse"
)

// soupTokens are the pieces FuzzCheck builds chunks from: a random byte
// string is seldom past Lua's first token, a string of tokens goes deep.
var soupTokens = strings.Fields(`local function end if then elseif else while do for in repeat until return break
and or not nil true false goto ::l:: x y f t ... = == ~= < <= > >= + - * / % ^ # .. . : , ; ( ) { } [ ] [[s]] 'a' "b"
1 0x1F 1e3 .5 0x1p4 --c --[[c]] \n`)

// soup turns bytes into a chunk, one token each (a space between them).
func soup(b []byte) string {
	var s strings.Builder
	for _, c := range b {
		tok := soupTokens[int(c)%len(soupTokens)]
		if tok == `\n` {
			tok = "\n"
		}
		s.WriteString(tok + " ")
	}
	return s.String()
}

// hexPower is a hexadecimal number with a "p" exponent, which Lua 5.1
// reads through strtod and gopher-lua's lexer does not.
var hexPower = regexp.MustCompile(`0[xX][0-9a-fA-F.]*[pP]`)

// looser reports whether gopher-lua refusing a chunk Lua 5.1 takes is one
// of the known differences of its lexer. The engine then answers
// gopher-lua's error where Redis compiles the chunk (see compile in
// wasm/engine): a hex number with a "p" exponent; a NUL byte; a "--[="
// that opens no long comment (a line comment in 5.1, "invalid multiline
// comment" to gopher-lua); \v or \f as white space.
func looser(src string) bool {
	return hexPower.MatchString(src) || strings.ContainsAny(src, "\x00\v\f") || badLongComment.MatchString(src)
}

// badLongComment is "--[" and "=" signs with no second "[" after them.
var badLongComment = regexp.MustCompile(`--\[=*[^=\[]|--\[=*$`)

// FuzzCheck holds Check to gopher-lua's parser, the one that compiles the
// chunks Check passes: neither panics, every chunk Check accepts
// gopher-lua parses (but for the differences looser names), and a chunk
// gopher-lua parses and Check refuses gets a message that names a line
// of the chunk. (gopher-lua takes much that Lua 5.1 refuses: goto,
// labels, empty statements, a break mid-block, {1,,2}, "..." anywhere,
// none of 5.1's limits; that Check refuses those as Redis does is
// redis_test.go's to hold.) Each chunk is tried as given and as a token
// soup of its bytes.
//
// The seed corpus is in testdata/fuzz/FuzzCheck.
func FuzzCheck(f *testing.F) {
	for _, c := range syntaxCases {
		f.Add(c.chunk)
	}
	for _, s := range []string{"local x = 1 return x", "for i = 1, 2 do end", "return function(...) return ... end",
		"local t = {a = 1, [2] = 3; 'x'}", "x, y = y, x", "return a.b:c(d)'e'{f}", "return #t .. -2 ^ -3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		check(t, src)
		check(t, soup([]byte(src)))
	})
}

func check(t *testing.T, src string) {
	err := Check("user_script", src)
	perr := gopherParse(src)
	switch {
	case err == nil && perr != nil && !looser(src):
		t.Fatalf("Check accepts %q; gopher-lua refuses it: %v", src, perr)
	case err != nil && (err.Msg == "" || err.Line < 1 || err.Line > strings.Count(src, "\n")+strings.Count(src, "\r")+1):
		t.Fatalf("Check(%q): an error without a message or off the chunk's lines: %#v", src, err)
	}
}

// gopherParse is gopher-lua's parser's verdict, a panic in it included.
func gopherParse(src string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gopher-lua's parser panicked: %v", r)
		}
	}()
	_, err = parse.Parse(strings.NewReader(src), "user_script")
	return err
}
