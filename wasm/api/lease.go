// Lease parsing: claim's leaseMs read as the Elixir term a learner means.

package api

import (
	"math"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/emq"
)

// lease is claim's lease as claim/3 receives it: an integer (ms), or, for
// a positive integer too big for Go's int64 (an Elixir integer has no
// such bound and passes the guard), its digits (text), which @claim then
// judges as a client that skips the guard would have it judged.
type lease struct {
	ms   int64
	text string
}

// claim runs claim/3 with a lease that passed the guard (leaseArg's, the
// one emq.Jobs.Claim would check again): as ARGV text, its digits. A
// worker claims with the same lease over and over, so the last lease's
// text is kept rather than formatted again.
func (p *Playground) claim(queue string, l lease) (emq.Outcome, error) {
	if l.text == "" && p.options.Reference {
		l.text = strconv.FormatInt(l.ms, 10)
	}
	if l.text == "" {
		if p.lease.ms != l.ms {
			p.lease = lease{l.ms, strconv.FormatInt(l.ms, 10)}
		}
		l.text = p.lease.text
	}
	return p.jobs.ClaimLease(queue, l.text)
}

// integerText reports whether s is a learner's integer as typed: digits,
// perhaps after a minus. A loop, not a regexp: a regexp compiled at package
// init would run Go's regexp compiler (and, in WebAssembly, have V8
// compile it first) on every page load.
func integerText(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// leaseArg reads the lease as the Elixir term a learner means: a whole
// number, or text of one (the round trip's field is text), is an integer;
// any other text or a fraction is not, and fails claim/3's is_integer
// guard. A value that is neither a number nor a string is a caller's
// mistake, not a learner's.
func leaseArg(v any) (lease, error) {
	switch v := v.(type) {
	case string:
		if !integerText(v) {
			return lease{}, leaseGuard()
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			if strings.HasPrefix(v, "-") {
				return lease{}, leaseGuard()
			}
			return lease{text: strings.TrimLeft(v, "0")}, nil
		}
		if n <= 0 {
			return lease{}, leaseGuard()
		}
		return lease{ms: n}, nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return lease{}, argsf("leaseMs must be a finite number of milliseconds, got %v", v)
		}
		if v != math.Trunc(v) || v <= 0 {
			return lease{}, leaseGuard()
		}
		if v >= 1<<63 {
			return lease{text: strconv.FormatFloat(v, 'f', -1, 64)}, nil
		}
		return lease{ms: int64(v)}, nil
	}
	return lease{}, argsf("leaseMs must be a number or a string, got %s", typeName(v))
}

// leaseGuard is claim/3's guard failing on the lease. It is made only
// when it fails: a claim that passes it, every claim of a round trip,
// makes nothing.
func leaseGuard() error {
	return &emq.GuardError{Function: emq.ClaimFunction, Reason: "the lease must be an integer greater than 0"}
}
