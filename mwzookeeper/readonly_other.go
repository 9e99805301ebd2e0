//go:build !(linux || darwin)

package mwzookeeper

// mapPages: no read-only pages on this system; the shared values stay on
// the heap, where a write to them goes unnoticed.
func mapPages(int) []byte { return nil }

func protectPages([]byte) error { return nil }
