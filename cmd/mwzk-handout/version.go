package main

import (
	"strings"
)

// versionFile is the handout's record of the commit it was packed from.
// An unpacked handout is no git checkout of the project (or a student's
// own repository), so the grader reads its version from here; grade.json
// then says which handout a self-grade ran on.
const versionFile = "HANDOUT-VERSION"

// versionEntry is the version file: rev's commit (HEAD's when rev is
// empty), with "-dirty" when the working tree's tracked files were packed
// and differ from it.
func versionEntry(root, rev string) (file, error) {
	at := rev
	if at == "" {
		at = "HEAD"
	}
	out, err := git(root, "rev-parse", "--verify", at+"^{commit}")
	if err != nil {
		return file{}, err
	}
	v := strings.TrimSpace(string(out))
	if rev == "" {
		st, err := git(root, "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return file{}, err
		}
		if strings.TrimSpace(string(st)) != "" {
			v += "-dirty"
		}
	}
	return file{path: versionFile, data: []byte(v + "\n")}, nil
}
