//go:build cgo

// Package libc is C's own answer, for tests: glibc's printf and strtod,
// and Redis's long double arithmetic (INCRBYFLOAT) as C computes it, on
// x86-64's 80-bit long double. The playground's Go reimplementations of
// these (resp.FormatDouble, lualib's strtod and "%.14g", the engine's
// INCRBYFLOAT) are fuzzed against it. Without cgo (js/wasm) Available is
// false and the tests that need it skip.
package libc

/*
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

static int fmt_double(char *buf, int n, const char *f, double d) { return snprintf(buf, n, f, d); }
static int fmt_long(char *buf, int n, const char *f, long v) { return snprintf(buf, n, f, v); }

static double c_strtod(const char *s, int *used, int *erange) {
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	*used = (int)(end - s);
	*erange = errno == ERANGE;
	return d;
}

// Redis 7.0 reads a long double so (util.c's string2ld): no more than
// 5119 bytes, no leading space, the whole string a number, no NaN, and no
// overflow or underflow to zero.
static int read_ld(const char *s, int n, long double *out) {
	char buf[5120];
	if (n == 0 || n >= (int)sizeof(buf)) return 0;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	errno = 0;
	long double v = strtold(buf, &end);
	if (isspace((unsigned char)buf[0]) || *end != 0 || end - buf != n ||
	    (errno == ERANGE && (isinf(v) || v == 0)) || isnan(v))
		return 0;
	*out = v;
	return 1;
}

// incrbyfloat is HINCRBYFLOAT's arithmetic (INCRBYFLOAT's too, which
// reads the stored value first but words both errors alike): 1 and the
// new text in out, or 0 with 1 (the increment is not a float), 2 (the
// stored value is not), 3 (the sum is NaN or infinite).
static int incrbyfloat(const char *cur, int curn, int hascur, const char *inc, int incn, char *out, int outn, int *err) {
	long double a = 0, b;
	if (!read_ld(inc, incn, &b)) { *err = 1; return 0; }
	if (hascur && !read_ld(cur, curn, &a)) { *err = 2; return 0; }
	long double v = a + b;
	if (isnan(v) || isinf(v)) { *err = 3; return 0; }
	int l = snprintf(out, outn, "%.17Lf", v);
	if (l + 1 > outn) { *err = 4; return 0; }
	if (strchr(out, '.') != NULL) {
		char *p = out + l - 1;
		while (*p == '0') { p--; l--; }
		if (*p == '.') l--;
	}
	if (l == 2 && out[0] == '-' && out[1] == '0') { out[0] = '0'; l = 1; }
	out[l] = 0;
	return 1;
}

// redis_double is Redis 7.0's getDoubleFromObject on a string: strtod of
// the whole of it (a NUL inside ends strtod short), no leading space, no
// NaN, no overflow and no underflow to zero.
static int redis_double(const char *s, int n, double *out) {
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (n == 0 || isspace((unsigned char)s[0]) || end - s != n ||
	    (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL || v == 0)) || isnan(v))
		return 0;
	*out = v;
	return 1;
}

// zsl_bound is zslParseRange's reading of one bound: "(" for exclusive,
// then strtod to the string's end as C sees it (its first NUL), no NaN.
static int zsl_bound(const char *s, double *out, int *ex) {
	char *end;
	*ex = 0;
	if (s[0] == '(') { s++; *ex = 1; }
	double v = strtod(s, &end);
	if (end[0] != 0 || isnan(v)) return 0;
	*out = v;
	return 1;
}
*/
import "C"

import "unsafe"

// Available reports whether the C library is linked (a cgo build).
const Available = true

// Printf is C's snprintf(format, f) for one double.
func Printf(format string, f float64) string {
	cf := C.CString(format)
	defer C.free(unsafe.Pointer(cf))
	buf := make([]byte, 512)
	n := C.fmt_double((*C.char)(unsafe.Pointer(&buf[0])), C.int(len(buf)), cf, C.double(f))
	return string(buf[:min(int(n), len(buf)-1)])
}

// PrintfLong is C's snprintf(format, v) for one long (format has %ld,
// %lx, ...).
func PrintfLong(format string, v int64) string {
	cf := C.CString(format)
	defer C.free(unsafe.Pointer(cf))
	buf := make([]byte, 512)
	n := C.fmt_long((*C.char)(unsafe.Pointer(&buf[0])), C.int(len(buf)), cf, C.long(v))
	return string(buf[:min(int(n), len(buf)-1)])
}

// Strtod is C's strtod on s (up to its first NUL): the value, how many
// bytes it read, and whether errno said ERANGE.
func Strtod(s string) (f float64, n int, erange bool) {
	cs := C.CString(s)
	defer C.free(unsafe.Pointer(cs))
	var used, er C.int
	d := C.c_strtod(cs, &used, &er)
	return float64(d), int(used), er != 0
}

// IncrByFloat is what Redis 7.0's HINCRBYFLOAT computes for a field
// holding cur (hasCur false: no field) and the increment inc (less its
// refusal of an infinite increment, made before): the new value's text,
// or the error, by number: 1 the increment is not a valid float, 2 the
// value stored is not, 3 the sum is NaN or infinite. INCRBYFLOAT gives
// the same, but for the wording of 2.
func IncrByFloat(cur string, hasCur bool, inc string) (string, int) {
	buf := make([]byte, 5120)
	var e C.int
	c := []byte(cur + "\x00")
	i := []byte(inc + "\x00")
	has := C.int(0)
	if hasCur {
		has = 1
	}
	ok := C.incrbyfloat((*C.char)(unsafe.Pointer(&c[0])), C.int(len(cur)), has, (*C.char)(unsafe.Pointer(&i[0])), C.int(len(inc)),
		(*C.char)(unsafe.Pointer(&buf[0])), C.int(len(buf)), &e)
	if ok == 0 {
		return "", int(e)
	}
	n := 0
	for buf[n] != 0 {
		n++
	}
	return string(buf[:n]), 0
}

// RedisDouble is Redis 7.0's reading of a score (getDoubleFromObject): the
// value, or false where Redis answers "value is not a valid float".
func RedisDouble(s string) (float64, bool) {
	b := []byte(s + "\x00")
	var v C.double
	ok := C.redis_double((*C.char)(unsafe.Pointer(&b[0])), C.int(len(s)), &v)
	return float64(v), ok != 0
}

// ZslBound is Redis 7.0's reading of a ZRANGEBYSCORE bound: the value,
// whether it is exclusive, and false where Redis answers "min or max is
// not a float".
func ZslBound(s string) (float64, bool, bool) {
	b := []byte(s + "\x00")
	var v C.double
	var ex C.int
	ok := C.zsl_bound((*C.char)(unsafe.Pointer(&b[0])), &v, &ex)
	return float64(v), ex != 0, ok != 0
}
