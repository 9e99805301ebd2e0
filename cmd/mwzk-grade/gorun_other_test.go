//go:build !linux

package main

// gorunRoleMain: the test of procs.StopWithGoRun is Linux's.
func gorunRoleMain() bool { return false }
