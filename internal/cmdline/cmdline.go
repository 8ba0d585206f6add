// Package cmdline is what the project's commands (web/cmd/..., bench)
// share about their command lines: a flag set takes no positional
// arguments and names the flags it needs, and a failed run ends the same
// way in each. One home keeps their usage errors worded alike.
package cmdline

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Main runs a command: run gets the arguments after the program's name and
// the process's stdout and stderr, and a failure ends as Exit ends it.
func Main(name string, code int, run func(args []string, stdout, stderr io.Writer) error) {
	Exit(name, code, run(os.Args[1:], os.Stdout, os.Stderr))
}

// Flags is a command's flag set: a bad flag comes back from Parse as an
// error instead of exiting, and the usage goes to stderr.
func Flags(name string, stderr io.Writer) *flag.FlagSet {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	return fl
}

// Parse parses args into fl, refuses arguments after the flags, and
// requires each flag named in required to be set to something other than
// "". When one is not, it prints fl's usage and says which flags the
// command needs ("-dir is required", "-out and -assets are required").
func Parse(fl *flag.FlagSet, args []string, required ...string) error {
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	for _, name := range required {
		if f := fl.Lookup(name); f != nil && f.Value.String() != "" {
			continue
		}
		fl.Usage()
		names := make([]string, len(required))
		for i, r := range required {
			names[i] = "-" + r
		}
		verb := "is"
		if len(names) > 1 {
			verb = "are"
		}
		return fmt.Errorf("%s %s required", strings.Join(names, " and "), verb)
	}
	return nil
}

// Exit ends a command whose run returned err: it returns when err is nil;
// otherwise it writes err to stderr behind the command's name (not for -h,
// whose usage the flag set has printed already) and exits with code.
func Exit(name string, code int, err error) {
	if err == nil {
		return
	}
	report(os.Stderr, name, err)
	os.Exit(code)
}

func report(w io.Writer, name string, err error) {
	if !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(w, "%s: %v\n", name, err)
	}
}
