//go:build !unix

package storage

import (
	"errors"
	"os"
)

var errWouldBlock = errors.New("would block")

// flockExclusive is a no-op where the system has no flock: the folder is
// not protected there (documented in docs/operations.md).
func flockExclusive(*os.File) error { return nil }
