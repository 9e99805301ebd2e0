package main

import (
	"errors"
	"strings"
	"testing"
)

// TestMergeVersionIsAnEarlierVersion: mwzookeeper/wire/roundtrip_test.go
// had blob 086a0b1 in commits e77361a (a merge) and c5e1e5d, so a handout
// made there carries it. git log --raw shows no diff for a merge, and the
// next change of the file came through a merge too, so earlierVersion
// never sees that blob: the older handout's unchanged copy is refused as
// a changed copy of a grader file.
func TestMergeVersionIsAnEarlierVersion(t *testing.T) {
	root := testRoot(t, false)
	const rel = "mwzookeeper/wire/roundtrip_test.go"
	old, err := gitOut(root, "show", "c5e1e5d30bcc4e1558a6b9a625f0898046897c44:"+rel)
	if err != nil {
		t.Skipf("commit c5e1e5d not in this checkout: %v", err)
	}
	cur, _ := gitOut(root, "show", "HEAD:"+rel)
	if old == cur {
		t.Skip("the file is unchanged since")
	}
	if _, err := withGraderFile(t, root, rel, old); errors.Is(err, errRefused) {
		t.Errorf("the file as committed in c5e1e5d (an earlier version in the grader's history) is refused: %v", strings.TrimSpace(err.Error()))
	}
}
