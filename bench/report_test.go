package main

import "testing"

// TestFigures: BENCHMARKS.md prints times and ratios with about three
// significant figures.
func TestFigures(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{num(1234.4), "1,234"},
		{num(123.4), "123"},
		{num(12.34), "12.3"},
		{num(1.234), "1.23"},
		{ratio(250, 10), "25×"},
		{ratio(25, 10), "2.5×"},
		{ratio(2.5, 10), "0.25×"},
		{ratio(1, 0), "—"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
