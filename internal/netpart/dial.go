package netpart

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// Dial connects from the hub namespace, as the test's clients do; its
// signature is go-zookeeper's zk.Dialer.
func (nt *Net) Dial(network, address string, timeout time.Duration) (net.Conn, error) {
	var conn net.Conn
	err := In(nt.Hub(), func() error {
		var err error
		conn, err = net.DialTimeout(network, address, timeout)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("dial %s from namespace %s: %w", address, nt.Hub(), err)
	}
	return conn, nil
}

// InPeer runs f inside peer i's namespace (see In).
func (nt *Net) InPeer(i int, f func() error) error { return In(nt.Peer(i), f) }

// In runs f on an OS thread inside the named network namespace and
// returns f's error. Sockets f makes stay in that namespace and may be
// used anywhere afterwards. The goroutine is locked to its thread for the
// call and the thread goes back to the host's namespace before it is
// unlocked, so no other goroutine ever runs in a foreign namespace.
//
// The thread must not simply be thrown away (a goroutine that ends locked
// ends its thread): Go reuses its threads, this one may have started a
// child with procs.Start earlier, and a child's parent-death signal fires
// when the thread that forked it ends, killing a peer out of the blue. If
// the way back fails, the thread is thrown away all the same, the lesser
// evil, and the error says so.
func In(ns string, f func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		home, err := unix.Open("/proc/thread-self/ns/net", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			runtime.UnlockOSThread()
			errc <- fmt.Errorf("opening this thread's namespace before entering %s: %w", ns, err)
			return
		}
		defer unix.Close(home)
		if err := enter(ns); err != nil {
			runtime.UnlockOSThread()
			errc <- err
			return
		}
		ferr := f()
		if err := unix.Setns(home, unix.CLONE_NEWNET); err != nil {
			errc <- errors.Join(ferr, fmt.Errorf("leaving namespace %s (the thread is dropped): %w", ns, err))
			return // still locked: Go ends the thread
		}
		runtime.UnlockOSThread()
		errc <- ferr
	}()
	return <-errc
}

// enter moves the calling thread into the named network namespace.
func enter(ns string) error {
	fd, err := unix.Open("/run/netns/"+ns, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("opening namespace %s: %w", ns, err)
	}
	defer unix.Close(fd)
	if err := unix.Setns(fd, unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("entering namespace %s: %w", ns, err)
	}
	return nil
}
