package zab

import "zablab/internal/near"

// nearKey returns the known key that k most likely misspells (near.Word).
// Case is compared as written: a key that differs only in case is caught
// before.
func nearKey(k string, known []string) (string, bool) { return near.Word(k, known) }
