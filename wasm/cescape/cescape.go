// Package cescape knows what C's one-letter backslash escapes stand for.
// Three readers in the playground inherit them from C: Lua 5.1's lexer
// (\a \b \f \n \r \t \v), lua-cjson's decoder (JSON's \b \f \n \r \t) and
// redis-cli's argument splitter (\a \b \n \r \t). Each takes a different
// subset, which is its own decision and stays in its own package as a
// string of letters; what a letter means is C's, and lives here once.
package cescape

import "strings"

// letters are C's one-letter escapes, and standFor the bytes they stand
// for, in the same order.
const (
	letters  = "abfnrtv"
	standFor = "\a\b\f\n\r\t\v"
)

// Letter returns the byte the escape \c stands for when c is one of the
// letters a reader accepts (a subset of "abfnrtv"), and false otherwise:
// the reader then decides what else the backslash may start.
func Letter(c byte, accepted string) (byte, bool) {
	i := strings.IndexByte(letters, c)
	if i < 0 || strings.IndexByte(accepted, c) < 0 {
		return 0, false
	}
	return standFor[i], true
}
