package fidelity

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestNoCaseReadsTheWallClock holds every case to replies that do not
// depend on when the run happens. A TTL or PTTL read after a key was given
// an absolute expiry time in the future (EXPIREAT, PEXPIREAT, EXAT, PXAT)
// counts down from the moment of the run: the engine's and redis-server's
// clocks are read a few milliseconds apart, so the rounded seconds differ
// in some runs and not others, and FIDELITY.md changes with the clock.
// Such a case reads EXPIRETIME or PEXPIRETIME instead, which are fixed.
// (expire/nx-xx-gt-lt failed one run in a few this way.)
func TestNoCaseReadsTheWallClock(t *testing.T) {
	now := time.Now()
	for _, c := range cases() {
		absolute := map[string]bool{} // keys whose TTL counts down to a fixed time
		for i, cmd := range c.cmds {
			if len(cmd) < 2 {
				continue
			}
			name, key := strings.ToUpper(cmd[0]), cmd[1]
			switch name {
			case "TTL", "PTTL":
				if absolute[key] {
					t.Errorf("%s: command %d, %s %s, reads a countdown to a fixed time, which moves with the wall clock; read EXPIRETIME or PEXPIRETIME", c.id, i+1, name, key)
				}
			case "EXPIREAT", "PEXPIREAT":
				if len(cmd) >= 3 {
					absolute[key] = future(cmd[2], name == "PEXPIREAT", now)
				}
			case "SET", "GETEX", "EXPIRE", "PEXPIRE", "SETEX", "PSETEX", "PERSIST", "DEL", "UNLINK", "GETDEL":
				absolute[key] = false
				for j := 2; j+1 < len(cmd); j++ {
					switch strings.ToUpper(cmd[j]) {
					case "EXAT":
						absolute[key] = future(cmd[j+1], false, now)
					case "PXAT":
						absolute[key] = future(cmd[j+1], true, now)
					}
				}
			}
		}
	}
}

// future says whether an absolute expiry time, in seconds or milliseconds
// since the epoch, lies after now: a time in the past deletes the key, and
// TTL then answers -2 whenever it is asked.
func future(at string, ms bool, now time.Time) bool {
	n, err := strconv.ParseInt(at, 10, 64)
	if err != nil {
		return false
	}
	if ms {
		return n > now.UnixMilli()
	}
	return n > now.Unix()
}
