// Argument reading: each method's arguments, by their parameters' names,
// with the caller's mistakes worded for a JavaScript caller.

package api

import (
	"fmt"
	"math"
)

func arity(method, params string, args []any, min, max int) error {
	if len(args) >= min && len(args) <= max {
		return nil
	}
	want := fmt.Sprintf("%d arguments", min)
	switch {
	case min != max:
		want = fmt.Sprintf("%d to %d arguments", min, max)
	case min == 1:
		want = "1 argument"
	}
	return argsf("%s(%s) takes %s, got %d", method, params, want, len(args))
}

// params reads one call's arguments, each by its parameter's name, and
// keeps the first mistake: after it every read gives the zero value, so a
// method reads all it needs, then checks err once.
type params struct {
	names []string
	args  []any
	err   error
}

// read is one argument read by f, unless an earlier one was wrong.
func read[T any](a *params, i int, f func(v any, name string) (T, error)) T {
	var v T
	if a.err == nil {
		v, a.err = f(a.args[i], a.names[i])
	}
	return v
}

// given reports whether the optional argument i was passed, and not null.
func (a *params) given(i int) bool { return len(a.args) > i && a.args[i] != nil }

func (a *params) str(i int) string { return read(a, i, text) }

func (a *params) strings(i int) []string { return read(a, i, stringList) }

func (a *params) count(i int) int { return read(a, i, count) }

func (a *params) millis(i int) int64 { return read(a, i, millis) }

// lease reads claim's leaseMs, whose errors name it themselves.
func (a *params) lease(i int) lease {
	return read(a, i, func(v any, _ string) (lease, error) { return leaseArg(v) })
}

func str(args []any, i int, name string) (string, error) { return text(args[i], name) }

// text is the argument v, called name, that must be a string.
func text(v any, name string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", argsf("%s must be a string, got %s", name, typeName(v))
	}
	return s, nil
}

func stringList(v any, name string) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, argsf("%s must be an array of strings, got %s", name, typeName(v))
	}
	out := make([]string, len(list))
	for j, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, argsf("%s[%d] must be a string, got %s", name, j, typeName(v))
		}
		out[j] = s
	}
	return out, nil
}

// millis is a clock argument: whole milliseconds from 0 to maxClock.
func millis(v any, name string) (int64, error) {
	f, ok := v.(float64)
	if !ok {
		return 0, argsf("%s must be a number of milliseconds, got %s", name, typeName(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || f < 0 || f > maxClock {
		return 0, argsf("%s must be a whole number of milliseconds from 0 to %d, got %v", name, int64(maxClock), f)
	}
	return int64(f), nil
}

// typeName names a value the way a JavaScript caller thinks of it.
func typeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case Foreign:
		return string(v)
	}
	return fmt.Sprintf("%T", v)
}

// Foreign stands for a JavaScript value with no JSON form (undefined, a
// function, a symbol, a bigint); the bridge passes its typeof.
type Foreign string
