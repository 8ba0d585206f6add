package hll

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// FuzzHLL feeds every reader and writer a string with a HyperLogLog's
// header and any registers after it (a dense body is cut or padded to the
// dense length), then adds elements to it, and holds them to each other
// and to a plain array of registers:
//   - Count, Union.Add and ToDense agree on whether the sparse opcodes
//     cover the registers exactly, and on a string that does, they count
//     alike, dense or sparse;
//   - PFADD (Add) and PFMERGE (Store) leave a valid string whose registers
//     are the plain array's, raised as the elements say (but for a string
//     cut off in an XZERO, see below); a sparse string never grows past
//     hll-sparse-max-bytes;
//   - PFDEBUG DECODE's text names the bytes it read.
//
// The seed corpus is in testdata/fuzz/FuzzHLL; go test runs it, and
// go test -fuzz FuzzHLL ./wasm/hll looks for more.
func FuzzHLL(f *testing.F) {
	f.Add(byte(1), []byte("\x7f\xff"), "a,b,c")
	f.Fuzz(func(t *testing.T, enc byte, body []byte, elems string) {
		h := append([]byte("HYLL\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80"), body...)
		if h[4] = enc & 1; h[4] == dense {
			h = append(h, make([]byte, DenseSize)...)[:DenseSize]
		}
		s := string(h)
		if !Valid(s) {
			t.Fatalf("a string made valid is not: %q", s[:HeaderSize])
		}
		n, errCount := Count(s)
		var u Union
		errUnion := u.Add(s)
		d, errDense := ToDense(bytes.Clone(h))
		covered := errCount == nil
		if (errUnion == nil) != covered || (errDense == nil) != covered {
			t.Fatalf("Count, Union.Add and ToDense disagree on the opcodes: %v, %v, %v", errCount, errUnion, errDense)
		}
		if covered {
			var ud Union
			ud.Add(string(d))
			if m, _ := Count(string(d)); m != n || u.Count() != n || ud != u || !IsDense(string(d)) {
				t.Fatalf("a string and its dense form differ: counts %d, %d, union %d", n, m, u.Count())
			}
		}
		if !IsDense(s) {
			if got := encodeDecoded(t, Decode(s)); !bytes.Equal(got, body) && !cutXZERO(body) {
				t.Fatalf("DECODE %q names %x, not the bytes read, %x", Decode(s), got, body)
			}
		}

		els := strings.Split(elems, ",")
		out, changed, err := Add(bytes.Clone(h), els, SparseMaxBytes)
		if !Valid(string(out)) {
			t.Fatalf("PFADD left a string that is not a HyperLogLog")
		}
		if !IsDense(string(out)) && len(out) > max(len(h), SparseMaxBytes) {
			t.Fatalf("PFADD grew a sparse string to %d bytes, past %d", len(out), SparseMaxBytes)
		}
		if !covered || cutXZERO(body) {
			// A string cut off in an XZERO is the one place Redis reads past
			// its end, and a change there leaves a byte past the end that
			// Redis reads next time and the engine cannot keep (see the
			// package's doc): PFADD's result is not held to the registers.
			return
		}
		want := u
		for _, el := range els {
			i, v := Position(el)
			want[i] = max(want[i], v)
		}
		var got Union
		if err != nil || got.Add(string(out)) != nil || got != want || changed != (want != u) {
			t.Fatalf("PFADD on registers covered exactly: %v, changed %v; registers as the plain array: %v", err, changed, got == want)
		}
		if !IsDense(s) && len(body) > 1000 {
			return // Store raises each register in a walk of the opcodes: slow here
		}
		stored := want.Store(bytes.Clone(h), false, SparseMaxBytes)
		got = Union{}
		if err := got.Add(string(stored)); err != nil || got != want {
			t.Fatalf("PFMERGE's Store: %v; registers as the plain array: %v", err, got == want)
		}
	})
}

// encodeDecoded writes PFDEBUG DECODE's text back as opcodes.
func encodeDecoded(t *testing.T, text string) []byte {
	var b []byte
	for _, op := range strings.Fields(text) {
		kind, arg, _ := strings.Cut(op, ":")
		val, run := "1", arg
		if kind == "v" {
			val, run, _ = strings.Cut(arg, ",")
		}
		v, err1 := strconv.Atoi(val)
		n, err2 := strconv.Atoi(run)
		if err1 != nil || err2 != nil {
			t.Fatalf("DECODE %q: unreadable %q", text, op)
		}
		switch kind {
		case "z":
			b = append(b, byte(n-1))
		case "Z":
			b = append(b, 0x40|byte((n-1)>>8), byte(n-1))
		default:
			b = append(b, valOp(uint8(v), n))
		}
	}
	return b
}

// cutXZERO reports whether a sparse body ends in the first byte of an
// XZERO, whose second byte DECODE reads as 0.
func cutXZERO(body []byte) bool {
	for p := 0; p < len(body); {
		if body[p]&0xc0 == 0x40 {
			if p+1 == len(body) {
				return true
			}
			p += 2
		} else {
			p++
		}
	}
	return false
}
