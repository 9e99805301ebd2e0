//go:build unix && !linux

package procs

import "syscall"

// Only Linux has a parent-death signal; elsewhere the cleanup must do.
func ownAttrs(a *syscall.SysProcAttr) { a.Setpgid = true }
