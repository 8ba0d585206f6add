//go:build !js

package fidelity

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/engine"
)

// go test ./wasm/fidelity -run TestScratchCompare -v, commands from /tmp/zs/cmds (one per line, args split by |)
func TestScratchCompare(t *testing.T) {
	srv := startReal(t)
	c, _ := dial(srv.addr)
	e := engine.MustNew()
	ec := &engineConn{c: e.NewClient()}
	f, _ := os.Open("/tmp/zs/cmds")
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		args := strings.Split(sc.Text(), "|")
		r, _ := c.do(args...)
		g := ec.do(args...)
		mark := "  "
		if diffNodes("", g, r) != "" {
			mark = "XX"
		}
		t.Logf("%s %q\n     real %v\n     eng  %v", mark, args, r, g)
	}
}
