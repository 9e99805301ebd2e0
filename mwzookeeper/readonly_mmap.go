//go:build (linux || darwin) && !goexperiment.cgocheck2

package mwzookeeper

import "syscall"

// mapPages maps n bytes of fresh, writable memory outside Go's heap; nil if
// the system refuses.
func mapPages(n int) []byte {
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil
	}
	return mem
}

// protectPages makes mem read-only.
func protectPages(mem []byte) error { return syscall.Mprotect(mem, syscall.PROT_READ) }
