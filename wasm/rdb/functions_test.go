package rdb

import (
	"slices"
	"testing"
)

// Payloads redis-server 7.0.15 gave for FUNCTION DUMP of one library: a
// short code, written as it is, and a longer one, LZF-compressed.
var redisFunctionDumps = []struct{ code, payload string }{
	{"#!lua name=s\nredis.register_function('f', function() end)",
		"\xf59#!lua name=s\nredis.register_function('f', function() end)\n\x00F\xe2gp\rBeQ"},
	{"#!lua name=mylib \n redis.register_function('myfunc', function(keys, args) return args[1] end)",
		"\xf5\xc3@X@]\x1f#!lua name=mylib \n redis.registe\rr_function('my@\x0b\x02', @\x06`\x12\nkeys, args) 6\x03turn`\x0c\x07[1] end)\n\x00q\xee\xf6b\xe9$\xbaN"},
}

func TestDumpFunctionsIsRedisBytes(t *testing.T) {
	for _, tc := range redisFunctionDumps {
		if got := DumpFunctions([]string{tc.code}); got != tc.payload {
			t.Errorf("DumpFunctions(%q)\n got: %q\nwant: %q", tc.code, got, tc.payload)
		}
		codes, err := LoadFunctions(tc.payload)
		if err != nil || !slices.Equal(codes, []string{tc.code}) {
			t.Errorf("LoadFunctions(Redis's payload) = %q, %v; want [%q]", codes, err, tc.code)
		}
	}
}

// TestLoadFunctionsRefuses: each malformed payload gets the error Redis
// 7.0's FUNCTION RESTORE gives it.
func TestLoadFunctionsRefuses(t *testing.T) {
	withFooter := func(body string) string {
		b := appendLE([]byte(body), Version, 2)
		return string(appendLE(b, CRC64(string(b)), 8))
	}
	for _, tc := range []struct {
		desc, payload string
		want          error
	}{
		{"too short", "bad", ErrChecksum},
		{"a wrong checksum", redisFunctionDumps[0].payload[:len(redisFunctionDumps[0].payload)-1] + "x", ErrChecksum},
		{"a newer version", string(appendLE(appendLE(nil, Version+1, 2), CRC64(string(appendLE(nil, Version+1, 2))), 8)), ErrChecksum},
		{"a key's value", Dump(Value{Kind: String, Str: "x"}), ErrNotFunction},
		{"the release candidates' format", withFooter("\xf6\x01a"), ErrPreGA},
		{"a string cut short", withFooter("\xf5\x09#!lua"), ErrLibrary},
	} {
		if _, err := LoadFunctions(tc.payload); err != tc.want {
			t.Errorf("%s: LoadFunctions = %v, want %v", tc.desc, err, tc.want)
		}
	}
	if codes, err := LoadFunctions(DumpFunctions(nil)); err != nil || len(codes) != 0 {
		t.Errorf("the payload of no libraries: %q, %v; want none", codes, err)
	}
}

// FuzzLoadFunctions: any payload is read without a panic; one that reads
// is written back to a payload that reads the same; and the codes that
// payload holds survive DumpFunctions and LoadFunctions whole.
func FuzzLoadFunctions(f *testing.F) {
	for _, tc := range redisFunctionDumps {
		f.Add(tc.payload)
	}
	f.Add(DumpFunctions([]string{"#!lua name=a\nredis.register_function('a', function() return 1 end)", "12345", ""}))
	f.Add(Dump(Value{Kind: String, Str: "x"}))
	f.Add("")
	f.Fuzz(func(t *testing.T, p string) {
		codes, err := LoadFunctions(p)
		if err != nil {
			return
		}
		again, err := LoadFunctions(DumpFunctions(codes))
		if err != nil || !slices.Equal(again, codes) {
			t.Fatalf("codes %q came back as %q, %v", codes, again, err)
		}
	})
}
