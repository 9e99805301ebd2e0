package mwzookeeper

import "unsafe"

// The package's shared values (OpenACL's entry, the error sentinels) are
// read by every Service of a process: the conformance suite runs all the
// replicas of an ensemble in one. Changed through a copy (a := OpenACL;
// a[0].ID.ID = s) or a pointer (e := ErrNoNode; *e = *other), they would
// carry data from one replica to another outside Zab, a channel no check of
// the source can close: a copy can go anywhere. So where the system lets
// us, they live in pages that are made read-only once the package is
// initialized, and such a write stops the process with a fault at once.

// sharedPages holds the shared values until init seals them.
var sharedPages struct {
	mem    []byte // nil: no read-only pages here (readonly_other.go), or not asked yet
	used   uintptr
	tried  bool
	sealed bool
	keep   []any // what the values point to: the pages are not scanned by the collector
}

// sharedPageBytes is room for every shared value (about 1.6 KiB now).
const sharedPageBytes = 16 << 10

// placeShared returns a pointer to a copy of v in the shared pages, or to a
// copy on the heap where there are none.
func placeShared[T any](v T) *T {
	if p := sharedAlloc(unsafe.Sizeof(v), unsafe.Alignof(v)); p != nil {
		sharedPages.keep = append(sharedPages.keep, v)
		q := (*T)(p)
		*q = v
		return q
	}
	return &v
}

// placeSharedSlice is placeShared for a slice's elements.
func placeSharedSlice[T any](vs []T) []T {
	var zero T
	if len(vs) == 0 {
		return vs
	}
	p := sharedAlloc(unsafe.Sizeof(zero)*uintptr(len(vs)), unsafe.Alignof(zero))
	if p == nil {
		return vs
	}
	sharedPages.keep = append(sharedPages.keep, vs)
	out := unsafe.Slice((*T)(p), len(vs))
	copy(out, vs)
	return out[:len(vs):len(vs)]
}

// sharedAlloc is size bytes at align in the shared pages; nil where there
// are none, or once they are sealed or full (a value added to the package
// that does not fit is only not protected).
func sharedAlloc(size, align uintptr) unsafe.Pointer {
	s := &sharedPages
	if !s.tried {
		s.tried = true
		s.mem = mapPages(sharedPageBytes)
	}
	if s.mem == nil || s.sealed {
		return nil
	}
	at := (s.used + align - 1) &^ (align - 1)
	if at+size > uintptr(len(s.mem)) {
		return nil
	}
	s.used = at + size
	return unsafe.Pointer(&s.mem[at])
}

// SharedValuesReadOnly says whether this process keeps the package's shared
// values (OpenACL's entry, the error sentinels) in read-only memory, where
// a write to them faults.
func SharedValuesReadOnly() bool { return sharedPages.sealed }

func init() {
	if sharedPages.mem != nil && protectPages(sharedPages.mem) == nil {
		sharedPages.sealed = true
	}
}
