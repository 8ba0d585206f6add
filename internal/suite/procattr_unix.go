//go:build unix

package suite

import "syscall"

// groupAttr puts tclsh in a process group of its own, which holds the
// test client it starts too, so that one signal ends both.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to the process group pid leads.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
