package cmdline

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		desc     string
		required []string
		args     []string
		want     string // the error, or "" for none
		usage    bool   // whether the usage was printed
	}{
		{desc: "all given", required: []string{"out", "assets"}, args: []string{"-out", "o", "-assets", "a"}},
		{desc: "none required", args: nil},
		{desc: "one missing of one", required: []string{"out"}, want: "-out is required", usage: true},
		{desc: "one missing of two", required: []string{"out", "assets"}, args: []string{"-out", "o"}, want: "-out and -assets are required", usage: true},
		{desc: "given empty", required: []string{"out"}, args: []string{"-out", ""}, want: "-out is required", usage: true},
		{desc: "stray argument", args: []string{"-out", "o", "extra"}, want: `unexpected arguments ["extra"]`},
		{desc: "unknown flag", args: []string{"-nope"}, want: "flag provided but not defined: -nope", usage: true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			fl := flag.NewFlagSet("cmd", flag.ContinueOnError)
			var stderr bytes.Buffer
			fl.SetOutput(&stderr)
			fl.String("out", "", "")
			fl.String("assets", "", "")
			err := Parse(fl, tc.args, tc.required...)
			if got := fmt.Sprint(err); (err == nil) != (tc.want == "") || (err != nil && got != tc.want) {
				t.Errorf("Parse(%q) = %v, want %q", tc.args, err, tc.want)
			}
			if got := stderr.Len() > 0; got != tc.usage {
				t.Errorf("usage printed: %v, want %v (%q)", got, tc.usage, stderr.String())
			}
		})
	}
}

func TestReport(t *testing.T) {
	var b bytes.Buffer
	report(&b, "render", flag.ErrHelp)
	if b.Len() != 0 {
		t.Errorf("-h reported %q; its usage says it all", b.String())
	}
	report(&b, "render", io.ErrUnexpectedEOF)
	if got, want := b.String(), "render: unexpected EOF\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
