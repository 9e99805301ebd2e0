//go:build !linux

package main

// gorunRoleMain: the test of stopWithGoRun is Linux's.
func gorunRoleMain() bool { return false }
