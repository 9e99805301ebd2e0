//go:build !linux

package main

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
)

var errNotLinux = errors.New("the sandbox needs Linux namespaces, and this is " + runtime.GOOS)

func jailed(context.Context, jail, string, ...string) (*exec.Cmd, error) { return nil, errNotLinux }

func probeSandbox() error { return errNotLinux }

func enterJail(jail) error { return errNotLinux }

func execInJail(string, []string, []string) error { return errNotLinux }

func limitMemory(int64) error { return errNotLinux }

func execLimited(string, []string, []string) error { return errNotLinux }
