package conformance

import (
	"strings"
	"testing"

	"zablab/mwzookeeper"
)

// TestDescribeShowsGetChildren2Stat: a getChildren2 check compares the
// stat too, so its failure shows it; an instructor's trial saw "expected
// children [b c] and numChildren 2 ..., got children [b c]".
func TestDescribeShowsGetChildren2Stat(t *testing.T) {
	r := &mwzookeeper.Response{Children: []string{"b", "c"}, Stat: mwzookeeper.MWStat{NumChildren: 3, Cversion: 5}}
	got := describe(&mwzookeeper.Request{Op: mwzookeeper.OpGetChildren2}, r)
	if !strings.Contains(got, "numChildren 3") || !strings.Contains(got, "cversion 5") {
		t.Errorf("describe(getChildren2) = %q, want the stat's numChildren and cversion", got)
	}
}
