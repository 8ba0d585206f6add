package resp

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

func TestAppendThenParseGivesTheSameReply(t *testing.T) {
	for _, r := range []Reply{
		StatusReply("OK"),
		ErrorReply("ERR bad"),
		IntReply(-9223372036854775808),
		BulkReply(""),
		BulkReply("a\x00b\xff\r\n"),
		NilReply(),
		ArrayReply(),
		ArrayReply(IntReply(1), ArrayReply(BulkReply("x"), NilReply())),
		{Kind: Map, Elems: []Reply{BulkReply("a"), IntReply(1)}},
		{Kind: Set, Elems: []Reply{BulkReply("x")}},
		{Kind: Double, Str: "1.5"},
		{Kind: Bool, Int: 1},
		{Kind: Bool},
		{Kind: BigNumber, Str: "123"},
		{Kind: Verbatim, Format: "txt", Str: "hi"},
	} {
		got, err := Parse(Append(nil, r))
		if err != nil || !got.Equal(r) {
			t.Errorf("%s: round trip gave %s, %v", r, got, err)
		}
	}
}

func TestNullArrayReadsAsNil(t *testing.T) {
	got, err := Parse([]byte("*-1\r\n"))
	if err != nil || got.Kind != Nil {
		t.Fatalf("got %s, %v", got, err)
	}
}

func TestMalformedInputIsAnError(t *testing.T) {
	for _, in := range []string{"", "?x\r\n", ":12a\r\n", "$3\r\nab\r\n", "+OK\n", "+OK\r\n+OK\r\n", "$-2\r\n"} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}

func TestLongStatusLineSurvivesASmallBuffer(t *testing.T) {
	long := "ERR " + strings.Repeat("x", 6000)
	r := bufio.NewReaderSize(bytes.NewReader(Append(nil, ErrorReply(long))), 16)
	got, err := Read(r)
	if err != nil || got.Str != long {
		t.Fatalf("got %d bytes, %v", len(got.Str), err)
	}
}

func TestStringReadsLikeRedisCli(t *testing.T) {
	r := ArrayReply(BulkReply("JOB-1"), BulkReply("{}"), IntReply(1))
	if got, want := r.String(), "1) \"JOB-1\"\n2) \"{}\"\n3) (integer) 1"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := ArrayReply().String(); got != "(empty array)" {
		t.Errorf("empty array prints %q", got)
	}
}

func TestCodeIsTheFirstWordOfAnError(t *testing.T) {
	if got := ErrorReply("NOSCRIPT No matching script.").Code(); got != "NOSCRIPT" {
		t.Errorf("Code() = %q", got)
	}
	if got := StatusReply("OK").Code(); got != "" {
		t.Errorf("a status has code %q", got)
	}
}

// TestFormatDoubleIsCsPercent17g compares with what C's printf("%.17g")
// prints, which is what Redis 7.0 sends.
func TestFormatDoubleIsCsPercent17g(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{1767225630000, "1767225630000"},
		{0.1, "0.10000000000000001"},
		{0.5, "0.5"},
		{1e20, "1e+20"},
		{1e-5, "1.0000000000000001e-05"},
		{-2.5, "-2.5"},
		{123456789012345678, "1.2345678901234568e+17"},
	} {
		if got := FormatDouble(tc.in); got != tc.want {
			t.Errorf("FormatDouble(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := NormalizeScore("1.76722563e+12"); got != "1767225630000" {
		t.Errorf("NormalizeScore = %q", got)
	}
}
