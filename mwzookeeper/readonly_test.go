package mwzookeeper

import (
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"unsafe"
)

// TestSharedValuesCannotBeChangedThroughACopy: every way graded code can
// reach OpenACL's entry or a sentinel without naming the variable on the
// left of an assignment (which the grader refuses) must fault. A red-team
// of the grader named these as channels between the replicas of the
// suite's one process.
func TestSharedValuesCannotBeChangedThroughACopy(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skipf("no read-only pages on %s (readonly_other.go)", runtime.GOOS)
	}
	if cgocheck2 {
		if SharedValuesReadOnly() {
			t.Fatal("the shared values are in read-only pages under cgocheck2, which refuses Go pointers stored there")
		}
		t.Skip("GOEXPERIMENT=cgocheck2: the shared values stay on the heap (readonly_other.go)")
	}
	if !SharedValuesReadOnly() {
		t.Fatal("the shared values are not in read-only memory on this system")
	}
	acl0, noNode := OpenACL[0], *ErrNoNode
	unknown, _ := ErrorOf(12345).(*Error)
	writes := map[string]func(){
		"an entry's ID through a copy": func() { a := OpenACL; a[0].ID.ID = "state" },
		"an entry's Perms":             func() { a := OpenACL; a[0].Perms &^= PermAdmin },
		"copy into it":                 func() { copy(OpenACL, []ACL{{Perms: PermRead, ID: Anyone}}) },
		"append to its first zero":     func() { _ = append(OpenACL[:0], ACL{Perms: PermRead, ID: Anyone}) },
		"clear":                        func() { clear(OpenACL) },
		"insert at its start":          func() { _ = slices.Insert(OpenACL[:0], 0, ACL{Perms: PermRead, ID: Anyone}) },
		"a sentinel over another":      func() { e := ErrNoNode; *e = *ErrAPIError },
		"a sentinel from ErrorOf":      func() { e := ErrBadVersion; *e = *unknown },
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for name, write := range writes {
		if !faults(write) {
			t.Errorf("%s: no fault", name)
		}
	}
	// A write that went through changed what every other test reads.
	if OpenACL[0] != acl0 || *ErrNoNode != noNode || len(OpenACL) != 1 {
		t.Fatalf("the shared values changed: OpenACL %v, ErrNoNode %q", OpenACL, ErrNoNode)
	}
	// The test's own means of catching the fault works on writable memory.
	if faults(func() { a := slices.Clone(OpenACL); a[0].Perms = 0 }) {
		t.Error("a write into a copy faulted")
	}
}

// faults runs write and says whether it faulted (SetPanicOnFault turns
// the fault into a panic this goroutine can recover, with the address);
// any other panic, and a fault elsewhere, goes on.
func faults(write func()) (faulted bool) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(interface{ Addr() uintptr })
			mem := sharedPages.mem
			if !ok || e.Addr() < uintptr(unsafe.Pointer(&mem[0])) || e.Addr() >= uintptr(unsafe.Pointer(&mem[0]))+uintptr(len(mem)) {
				panic(r)
			}
			faulted = true
		}
	}()
	write()
	return false
}
