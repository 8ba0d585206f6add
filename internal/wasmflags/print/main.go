// Command print writes the browser module's go build flags, one a line, for
// ./build.sh (which has no JSON of its own to write the overlay with):
//
//	go run ./internal/wasmflags/print [-root DIR]
package main

import (
	"flag"
	"fmt"
	"os"

	"echomq.dev/playground/internal/wasmflags"
)

func main() {
	root := flag.String("root", ".", "the checkout")
	flag.Parse()
	flags, err := wasmflags.Flags(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, f := range flags {
		fmt.Println(f)
	}
}
