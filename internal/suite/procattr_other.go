//go:build !unix

package suite

import "syscall"

// groupAttr has no process groups to ask for outside Unix; the suite runs
// on Linux (and its record is read everywhere, js/wasm included).
func groupAttr() *syscall.SysProcAttr { return nil }

// killGroup cannot reach a process group here.
func killGroup(pid int) {}
