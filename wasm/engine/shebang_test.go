package engine

import (
	"strings"
	"testing"
)

// FuzzParseShebang holds the shebang reader to its promises on any script:
// it never panics, an accepted script keeps every line after the first in
// place (so error line numbers stay Redis's), and a refusal is an error
// reply in Redis's ERR form.
func FuzzParseShebang(f *testing.F) {
	for _, seed := range []string{
		"return 1", "#!lua\nreturn 1", "#! lua\nreturn 1", "#!lua flags=no-writes\nreturn 1",
		"#!lua flags=\"no-writes\"\nreturn 1", "#!lua flags='no-writes,allow-oom'\nx", "#!lua flags=\"a b\"\n",
		"#!lua flags=\"no-writes\nx", "#!lua name=x\n", "#!luax\n", "#!", "#!\n", "#!\x00lua\n", "#!lua\treturn 1",
		"#!lua flags=\n", "#!lua flags=\"\"\n", "#!lua \"\\x41\"\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		flags, body, refused := parseShebang(src)
		if refused != nil {
			if !refused.IsError() || !strings.HasPrefix(refused.Str, "ERR ") {
				t.Fatalf("parseShebang(%q) refused with %v", src, refused)
			}
			return
		}
		if !strings.HasPrefix(src, "#!") {
			if body != src || flags.shebang {
				t.Fatalf("parseShebang(%q) changed a script without a shebang", src)
			}
			return
		}
		_, rest, _ := strings.Cut(src, "\n")
		if body != "\n"+rest || !flags.shebang {
			t.Fatalf("parseShebang(%q) = %q, want the lines after the first kept in place", src, body)
		}
	})
}
