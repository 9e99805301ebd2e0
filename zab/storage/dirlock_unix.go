//go:build unix

package storage

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

var errWouldBlock = unix.EWOULDBLOCK

// flockExclusive takes an exclusive flock without waiting. flock locks
// belong to the open file, so a second open of the same folder in this
// process is refused too.
func flockExclusive(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err
	}
}
