//go:build linux

package redisserver

import "syscall"

// sysProcAttr asks the kernel to SIGKILL the server if the test binary dies
// without running its cleanups (a panic or a go test -timeout), so servers
// do not pile up on a developer's machine.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
