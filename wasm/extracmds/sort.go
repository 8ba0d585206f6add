package extracmds

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/resp"
)

// Sort is SORT, or SORT_RO when readOnly (which knows no STORE), called
// with args (the name first); script says a script called it. Redis reads
// every option before it looks at the key, so a syntax error wins over
// WRONGTYPE; it reads every weight before it answers, so one that is not a
// number fails the whole command, even outside LIMIT, and stores nothing.
func Sort(ks Keyspace, args []string, readOnly, script bool) resp.Reply {
	var (
		desc, alpha, dontsort, hasBy, hasStore bool
		by, store                              string
		gets                                   []string
		start, count                           int64 = 0, -1
	)
	for j := 2; j < len(args); j++ {
		left := len(args) - j - 1
		switch o := ascii.Lower(args[j]); {
		case o == "asc":
			desc = false
		case o == "desc":
			desc = true
		case o == "alpha":
			alpha = true
		case o == "limit" && left >= 2:
			var ok bool
			if start, ok = parseLong(args[j+1]); !ok {
				return errNotInt
			}
			if count, ok = parseLong(args[j+2]); !ok {
				return errNotInt
			}
			j += 2
		case o == "store" && !readOnly && left >= 1:
			store, hasStore = args[j+1], true
			j++
		case o == "by" && left >= 1:
			// A pattern without '*' weighs nothing: no sorting at all.
			// Once set, this stays set for a later BY too, as in Redis.
			by, hasBy = args[j+1], true
			dontsort = dontsort || !strings.Contains(cString(by), "*")
			j++
		case o == "get" && left >= 1:
			gets = append(gets, args[j+1])
			j++
		default:
			return errSyntax
		}
	}
	typ := typeOf(ks, args[1])
	switch typ {
	case "none", "list", "set", "zset":
	default:
		return errWrongType
	}
	elems := elements(ks, args[1], typ)
	if dontsort && typ == "set" && (hasStore || script) {
		// A set's own order is not one a replica or a script's effects can
		// count on, so Redis sorts it by value there.
		dontsort, alpha, hasBy = false, true, false
	}
	n := int64(len(elems))
	start = min(max(start, 0), n)
	count = min(max(count, -1), n)
	end := n - 1
	if count >= 0 {
		end = min(start+count-1, n-1)
	}
	if start >= n {
		start, end = n-1, n-2
	}
	if dontsort && typ != "set" && desc {
		slices.Reverse(elems)
	}
	if !dontsort && !sortElements(ks, elems, by, hasBy, alpha, desc, hasStore) {
		return errNotDouble
	}
	if len(gets) == 0 {
		gets = []string{"#"} // the elements themselves
	}
	var t text
	var list []string
	if !hasStore {
		t.head('*', max(int(end-start+1), 0)*len(gets))
	}
	for ; start <= end; start++ {
		for _, g := range gets {
			v, ok := lookup(ks, g, elems[start])
			switch {
			case hasStore:
				list = append(list, v) // a missing one is stored as ""
			case ok:
				t.bulk(v)
			default:
				t.head('$', -1)
			}
		}
	}
	if !hasStore {
		return t.reply()
	}
	// A new list, its old value and expiry gone; or none.
	ks.Do("DEL", store)
	if len(list) > 0 {
		ks.Do(append([]string{"RPUSH", store}, list...)...)
	}
	return resp.IntReply(int64(len(list)))
}

// sortElements sorts elems in place as Redis's sortCompare orders them, and
// reports false when a weight is not a number. Numbers that tie are put in
// the order of their elements' bytes; ALPHA compares bytes too, as strcoll
// does in the C locale (up to a NUL), or, for STORE, byte for byte. Weights
// that tie under ALPHA keep the order the elements were read in, as glibc's
// merge sort keeps them.
func sortElements(ks Keyspace, elems []string, by string, hasBy, alpha, desc, store bool) bool {
	type weighed struct {
		_       [0]func() // not comparable: no equality code
		el, cmp string
		has     bool // a BY weight was found (ALPHA)
		score   float64
	}
	v := make([]weighed, len(elems))
	ok := true
	for i, el := range elems {
		v[i].el = el
		w, found := el, true
		if hasBy {
			w, found = lookup(ks, by, el)
		}
		if !found {
			continue // weighs 0, or sorts first under ALPHA
		}
		if alpha {
			v[i].cmp, v[i].has = w, true
			continue
		}
		f, good := sortScore(w)
		v[i].score, ok = f, ok && good
	}
	if !ok {
		return false
	}
	text := func(s string) string {
		if store {
			return s
		}
		return cString(s)
	}
	order := make([]int, len(v))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := &v[order[i]], &v[order[j]]
		var c int
		switch {
		case !alpha:
			c = cmp.Compare(a.score, b.score)
			if c == 0 {
				c = strings.Compare(a.el, b.el)
			}
		case !hasBy:
			c = strings.Compare(text(a.el), text(b.el))
		case !a.has || !b.has:
			c = cmp.Compare(b2i(a.has), b2i(b.has))
		default:
			c = strings.Compare(text(a.cmp), text(b.cmp))
		}
		if desc {
			c = -c
		}
		return c < 0 || c == 0 && order[i] < order[j]
	})
	for i, o := range order {
		elems[i] = v[o].el
	}
	return true
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sortScore reads a weight as SORT does: C's strtod up to the first NUL,
// leading white space allowed, nothing after the number; an empty weight
// is 0; NaN, and a number too big or too small for a double (ERANGE), are
// refused.
func sortScore(s string) (float64, bool) {
	s = cString(s)
	i := 0
	for i < len(s) && lualib.IsSpace(s[i]) {
		i++
	}
	f, n := lualib.Strtod(s[i:])
	switch {
	case n == 0:
		return 0, s == ""
	case i+n != len(s) || math.IsNaN(f):
		return 0, false
	case math.IsInf(f, 0):
		return f, strings.ContainsAny(s, "nN") // "inf", not an overflow
	case math.Abs(f) < 0x1p-1022:
		return f, !nonzeroMantissa(s[i:])
	}
	return f, true
}

// nonzeroMantissa reports whether a number strtod read as below the
// smallest normal double has any digit other than 0 before its exponent:
// then it underflowed, and strtod set ERANGE.
func nonzeroMantissa(num string) bool {
	num = strings.TrimLeft(num, "+-")
	exp := "eE"
	if len(num) > 1 && (num[1] == 'x' || num[1] == 'X') {
		num, exp = num[2:], "pP"
	}
	if i := strings.IndexAny(num, exp); i >= 0 {
		num = num[:i]
	}
	return strings.Trim(num, "0.") != ""
}

// lookup finds what a BY or GET pattern names for element el, as Redis's
// lookupKeyByPattern does: "#" is el itself; otherwise the first '*' is
// replaced with el, and a "->field" after it names a hash field instead of
// a string key. A pattern without '*', a missing key or field, or a key of
// another type, names nothing. Like the C it mirrors, the searches stop at
// a NUL in the pattern.
func lookup(ks Keyspace, pattern, el string) (string, bool) {
	c := cString(pattern)
	if c == "#" {
		return el, true
	}
	star := strings.IndexByte(c, '*')
	if star < 0 {
		return "", false
	}
	keyEnd, field := len(pattern), ""
	if f := strings.Index(c[star+1:], "->"); f >= 0 && star+1+f+2 < len(c) {
		keyEnd = star + 1 + f
		field = pattern[keyEnd+2:]
	}
	key := pattern[:star] + el + pattern[star+1:keyEnd]
	if keyEnd < len(pattern) {
		return found(ks.Do("HGET", key, field))
	}
	return found(ks.Do("GET", key))
}
