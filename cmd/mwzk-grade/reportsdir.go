package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// withoutReports leaves out the entry that is the reports folder itself
// (OUT inside the hand-ins folder): from the second batch on it would
// otherwise be a refused "student" with a row of its own.
func withoutReports(items []batchItem, out string, log io.Writer) []batchItem {
	ofi, err := os.Stat(out)
	if err != nil {
		return items // not made yet: no entry can be it
	}
	kept := items[:0]
	for _, it := range items {
		if fi, err := os.Stat(it.path); err == nil && os.SameFile(fi, ofi) {
			fmt.Fprintf(log, "mwzk-grade: left out %s: the reports folder (--out), not a hand-in\n", visible(filepath.Base(it.path)))
			continue
		}
		kept = append(kept, it)
	}
	return kept
}
