package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedStateEarnsNoReplicationPoints: the reference's code used as a
// lone SingleZab Service that every replica of the ensemble shares
// through a package variable (testdata/sharedcheat.go.txt), each replica
// running a Zab peer that carries nothing so that the suite finds a peer
// at its address. Nothing is replicated: the replicas run in the suite's
// process and read one tree. It must not earn A5.2's replication points;
// it earned all 30.
func TestSharedStateEarnsNoReplicationPoints(t *testing.T) {
	root := testRoot(t, true)
	files := inFolder("", folderFiles(t, root, "solutions/aufgabe5"))
	svc := gradedDir + "service.go"
	const newFn = "func New() mwzookeeper.Service { return &Service{} }"
	if !strings.Contains(files[svc], newFn) {
		t.Fatalf("%s has no %q to replace", svc, newFn)
	}
	files[svc] = strings.Replace(files[svc], newFn, "func newService() *Service { return &Service{} }", 1)
	files[gradedDir+"proxy.go"] = readFile(t, filepath.Join("testdata", "sharedcheat.go.txt"))
	dir := t.TempDir()
	writeTree(t, dir, files)
	rep := gradeFolder(t, root, dir, options{part: "A5.2"})
	if points(rep) != 0 {
		var passed []string
		for _, p := range rep.Parts {
			for _, tg := range p.Tests {
				if tg.Status == "pass" {
					passed = append(passed, p.ID+"/"+tg.Name)
				}
			}
		}
		t.Fatalf("status %s, %d of A5.2's points for replicas that share one Service in a package variable; want 0 (passed: %s)",
			rep.Status, points(rep), strings.Join(passed, ", "))
	}
}
