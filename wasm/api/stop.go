package api

import (
	"strconv"

	"echomq.dev/playground/wasm/engine"
)

// inWords is a work budget as the note on a stopped script says it:
// "1.5 billion", "25 million", or the plain number below a million.
// (strconv, not fmt: package init runs on every page load.)
func inWords(n uint64) string {
	switch {
	case n >= 1_000_000_000:
		return tenths(n/100_000_000) + " billion"
	case n >= 1_000_000:
		return tenths(n/100_000) + " million"
	}
	return strconv.FormatUint(n, 10)
}

// tenths writes t tenths as "15" -> "1.5", "250" -> "25".
func tenths(t uint64) string {
	s := strconv.FormatUint(t/10, 10)
	if t%10 != 0 {
		s += "." + strconv.FormatUint(t%10, 10)
	}
	return s
}

// lastResortInWords is engine.LastResort as the note says it: "10 minutes",
// or seconds below a minute.
func lastResortInWords() string {
	if s := int64(engine.LastResort.Seconds()); s < 60 {
		return strconv.FormatInt(s, 10) + " s"
	}
	return strconv.FormatInt(int64(engine.LastResort.Minutes()), 10) + " minutes"
}
