package main

import "testing"

// Every upload of a course platform's export has the name the sheet gives
// (aufgabe5-abgabe.tar.gz); graded alone, it is named after its student's
// folder, as in a class's batch, not after the archive.
func TestSinglePlatformUploadIsNamedAfterItsFolder(t *testing.T) {
	for p, want := range map[string]string{
		"/hand-ins/Dave Muster_1234_assignsubmission_file_/aufgabe5-abgabe.tar.gz": "Dave Muster_1234_assignsubmission_file_",
		"Dave Muster_1234_assignsubmission_file_/aufgabe5":                         "Dave Muster_1234_assignsubmission_file_",
		"/hand-ins/carol.tar.gz":                            "carol",
		"/hand-ins/Dave Muster_1234_assignsubmission_file_": "Dave Muster_1234_assignsubmission_file_",
		"bob.zip": "bob",
	} {
		if got := submissionName(p); got != want {
			t.Errorf("submissionName(%q) = %q, want %q", p, got, want)
		}
	}
}
