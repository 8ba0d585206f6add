package cli

import (
	"errors"
	"slices"
	"testing"
)

func TestSplitReadsALineAsRedisCliDoes(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`ZADD emq:{q}:pending 0 JOB-1`, []string{"ZADD", "emq:{q}:pending", "0", "JOB-1"}},
		{"  GET\t k  \r\n", []string{"GET", "k"}},
		{``, nil},
		{" \v\f ", nil},
		{"a\vb", []string{"a\vb"}}, // only space, tab, CR and LF end a bare word
		{`SET k "two words"`, []string{"SET", "k", "two words"}},
		{`ECHO ""`, []string{"ECHO", ""}},
		{`ECHO ''`, []string{"ECHO", ""}},
		{`ECHO "\n\r\t\b\a\\\"\q"`, []string{"ECHO", "\n\r\t\b\a\\\"q"}},
		{`ECHO "\x41\xe2\x82\xac\xZZ\x4"`, []string{"ECHO", "A€xZZx4"}},
		{`ECHO 'it\'s \n "raw"'`, []string{"ECHO", `it's \n "raw"`}},
		{`ECHO a"b c"`, []string{"ECHO", "ab c"}},
		{`ECHO a'b c'`, []string{"ECHO", "ab c"}},
		{`EVAL "return {1,{2}}" 0`, []string{"EVAL", "return {1,{2}}", "0"}},
		{"ECHO caf\xc3\xa9 \xff", []string{"ECHO", "café", "\xff"}},
		{"ECHO a\x00 b", []string{"ECHO", "a"}}, // C stops at a NUL
	} {
		got, err := Split(tc.line)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tc.line, got, err, tc.want)
		}
	}
}

func TestSplitRefusesUnbalancedQuotes(t *testing.T) {
	for _, line := range []string{
		`SET "a"b`,       // a closing quote must end the argument
		`SET 'a'b`,       //
		`ECHO 'a'"b"`,    //
		`GET "x`,         // never closed
		`GET 'x`,         //
		`GET "x\"`,       // the quote is escaped, so still open
		`GET "x\`,        // a backslash at the very end
		`GET 'it\'`,      //
		"ECHO \"a\x00\"", // the NUL ends the line inside the quotes
	} {
		got, err := Split(line)
		if !errors.Is(err, ErrInvalid) || got != nil {
			t.Errorf("Split(%q) = %q, %v; want ErrInvalid", line, got, err)
		}
	}
	if ErrInvalid.Error() != "Invalid argument(s)" {
		t.Errorf("ErrInvalid says %q, not what redis-cli prints", ErrInvalid)
	}
}
