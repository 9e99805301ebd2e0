//go:build !(linux || darwin) || goexperiment.cgocheck2

package mwzookeeper

// mapPages: no read-only pages on this system, or under the runtime's
// cgocheck2 mode, which stops a program that stores Go pointers outside
// Go's heap; the shared values stay on the heap, where a write to them
// goes unnoticed.
func mapPages(int) []byte { return nil }

func protectPages([]byte) error { return nil }
