package cli

import (
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// Replies the session cannot get from a server: shapes no command
// returns, and the kinds redis-cli 7.0 itself cannot print.
func TestFormatShapesNoCommandReturns(t *testing.T) {
	b, i := resp.BulkReply, resp.IntReply
	m := func(e ...resp.Reply) resp.Reply { return resp.Reply{Kind: resp.Map, Elems: e} }
	set := func(e ...resp.Reply) resp.Reply { return resp.Reply{Kind: resp.Set, Elems: e} }
	arr := resp.ArrayReply
	var ten []resp.Reply
	for n := range 10 {
		ten = append(ten, b(string(rune('a'+n))), i(int64(n)))
	}
	ten[19] = arr(i(1), i(2))
	for _, tc := range []struct {
		desc string
		r    resp.Reply
		want string
	}{
		{"a big number, which redis-cli 7.0 cannot print", resp.Reply{Kind: resp.BigNumber, Str: "12345678901234567890"}, "(big number) 12345678901234567890"},
		{"a negative integer", i(-9223372036854775808), "(integer) -9223372036854775808"},
		{"a double", resp.Reply{Kind: resp.Double, Str: "-inf"}, "(double) -inf"},
		{"a status cut at a NUL, as C prints it", resp.StatusReply("OK\x00more"), "OK"},
		{"an error cut at a NUL", resp.ErrorReply("ERR a\x00b"), "(error) ERR a"},
		{"a bulk keeps its NUL", b("a\x00b"), `"a\x00b"`},
		{"every byte that is not printable ASCII", b("\x01\x1f\x7f\x80\xff ~"), `"\x01\x1f\x7f\x80\xff ~"`},
		{"verbatim text as it is", resp.Reply{Kind: resp.Verbatim, Format: "txt", Str: "a \"b\"\nc"}, "a \"b\"\nc"},
		{"false", resp.Reply{Kind: resp.Bool}, "(false)"},
		{"an unknown kind", resp.Reply{Kind: "push"}, "(unknown reply)"},
		{"map numbers padded to two digits, a multiline value on its own line", m(ten...),
			" 1# \"a\" => (integer) 0\n 2# \"b\" => (integer) 1\n 3# \"c\" => (integer) 2\n 4# \"d\" => (integer) 3\n" +
				" 5# \"e\" => (integer) 4\n 6# \"f\" => (integer) 5\n 7# \"g\" => (integer) 6\n 8# \"h\" => (integer) 7\n" +
				" 9# \"i\" => (integer) 8\n10# \"j\" => \n    1) (integer) 1\n    2) (integer) 2"},
		{"a one-element value stays on the key's line", m(b("k"), set(arr(i(1)))), `1# "k" => 1~ 1) (integer) 1`},
		{"a one-element value that is multiline does not", m(b("k"), set(arr(i(1), i(2)))), "1# \"k\" => \n   1~ 1) (integer) 1\n      2) (integer) 2"},
		{"a verbatim value with line breaks is not multiline to redis-cli", m(b("k"), resp.Reply{Kind: resp.Verbatim, Str: "x\ny"}), "1# \"k\" => x\ny"},
		{"a map inside a set", set(m(b("a"), i(1), b("b"), i(2))), "1~ 1# \"a\" => (integer) 1\n   2# \"b\" => (integer) 2"},
		{"empties", arr(arr(), set(), m()), "1) (empty array)\n2) (empty set)\n3) (empty hash)"},
	} {
		if got := Format(tc.r); got != tc.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tc.desc, got, tc.want)
		}
	}
}

// Each level of nesting indents its later lines by its parent's number
// width plus two, so deep replies stay readable column by column.
func TestFormatIndentsEveryLevel(t *testing.T) {
	r := resp.ArrayReply(resp.IntReply(1), resp.IntReply(2))
	for range 5 {
		r = resp.ArrayReply(r, resp.NilReply())
	}
	lines := strings.Split(Format(r), "\n")
	if len(lines) != 7 || lines[0] != "1) 1) 1) 1) 1) 1) (integer) 1" || lines[6] != "2) (nil)" {
		t.Errorf("got:\n%s", Format(r))
	}
	if want := strings.Repeat(" ", 15) + "2) (integer) 2"; lines[1] != want {
		t.Errorf("second line %q, want %q", lines[1], want)
	}
}
