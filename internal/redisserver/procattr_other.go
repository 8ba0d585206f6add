//go:build !linux

package redisserver

import "syscall"

// sysProcAttr has nothing to add outside Linux, which alone has Pdeathsig.
func sysProcAttr() *syscall.SysProcAttr { return nil }
