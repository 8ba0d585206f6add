package engine

import (
	"strconv"
	"testing"
)

// BenchmarkHyperLogLog is one PF command next to the plain string
// commands it should cost about as much as (SET and GET, and SETRANGE and
// APPEND of a string as long as the HyperLogLog): PFADD of one element to a
// sparse HyperLogLog of 200 elements, about 400 bytes (a new element each
// time, the string set back every 500; or one it holds already), and
// PFCOUNT of one whose count is cached. (wasm/hll's BenchmarkHLL measures
// the counting itself.)
func BenchmarkHyperLogLog(b *testing.B) {
	e := MustNew()
	args := []string{"PFADD", "h"}
	for i := range 200 {
		args = append(args, "seed:"+strconv.Itoa(i))
	}
	e.exec(args...)
	sparse200 := e.exec("GET", "h").Str
	args[1] = "d"
	for i := range 5000 {
		args = append(args, "more:"+strconv.Itoa(i))
	}
	e.exec(args...)
	dense := e.exec("GET", "d").Str
	var fresh [500]string
	for i := range fresh {
		fresh[i] = "el:" + strconv.Itoa(i)
	}
	for _, bc := range []struct {
		name string
		cmd  func(i int) []string
	}{
		{"SET", func(i int) []string { return []string{"SET", "s", "v"} }},
		{"GET", func(i int) []string { return []string{"GET", "s"} }},
		{"SETRANGE", func(i int) []string { return []string{"SETRANGE", "h", "100", "x"} }},
		{"APPEND", func(i int) []string { return []string{"APPEND", "s", "v"} }},
		{"PFADD-new", func(i int) []string { return []string{"PFADD", "h", fresh[i%500]} }},
		{"PFADD-held", func(i int) []string { return []string{"PFADD", "h", args[2+i%200]} }},
		{"PFCOUNT-cached", func(i int) []string { return []string{"PFCOUNT", "h"} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := MustNew()
			e.exec("SET", "s", "v")
			e.exec("SET", "h", sparse200)
			e.exec("SET", "d", dense)
			e.exec("PFCOUNT", "h")
			b.ResetTimer()
			for i := range b.N {
				switch {
				case bc.name == "PFADD-new" && i%500 == 0:
					e.exec("SET", "h", sparse200) // 200 elements again
				case bc.name == "APPEND" && i%500 == 0:
					e.exec("SET", "s", sparse200) // as long as the HyperLogLog
				}
				if r := e.exec(bc.cmd(i)...); r.IsError() {
					b.Fatal(r)
				}
			}
		})
	}
}
