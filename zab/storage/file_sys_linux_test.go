//go:build linux

package storage

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

func TestLowerIOPriorityPutsTheThreadInTheIdleClass(t *testing.T) {
	got := make(chan uintptr)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		lowerIOPriority()
		prio, _, errno := unix.Syscall(unix.SYS_IOPRIO_GET, 1, 0, 0)
		if errno != 0 {
			prio = 0
		}
		got <- prio
	}()
	if prio := <-got; prio>>13 != 3 {
		t.Errorf("I/O priority %#x after lowerIOPriority, want the idle class (3<<13)", prio)
	}
}
