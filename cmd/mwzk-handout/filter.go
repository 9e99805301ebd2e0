package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
)

// solutionsImport is the import path of the reference: nothing a student
// gets may import it or anything below it.
const solutionsImport = "zablab/solutions"

// instructorOnly are the folders (ending in "/") and files only instructors
// get: the reference and its variants, the handout itself and its builder.
var instructorOnly = []string{
	"solutions/",
	"handout/",
	"cmd/mwzk-handout/",
	"mk/handout.mk",
	"mk/instructor.mk",
	"grading/",
	// the side-by-side benchmark runs the reference against Apache ZooKeeper
	"cmd/mwzk-bench/",
	"mk/bench.mk",
	"docs/performance.md",
	// the client suites measure the reference against Apache ZooKeeper
	"interop/suites/",
	"mk/suites.mk",
	// the developers' design and its history: they are about the reference
	// and how the handout is made; the student's docs are the sheet,
	// docs/zab.md, docs/operations.md and docs/pictures.md
	"docs/architecture.md",
	"docs/decisions.md",
	// a cheat the grader now catches, kept as its test: students need
	// no recipe to start from
	"cmd/mwzk-grade/cheat_shared_test.go",
	"cmd/mwzk-grade/testdata/sharedcheat.go.txt",
}

// dropped is a file left out of the handout, with the reason.
type dropped struct {
	path, why string
}

// selectFiles splits files into what the handout carries and what it
// leaves out. A Go file that cannot be parsed is an error: the handout
// would not build.
func selectFiles(files []file) (kept []file, left []dropped, err error) {
	for _, f := range files {
		why, err := leaveOut(f)
		if err != nil {
			return nil, nil, err
		}
		if why != "" {
			left = append(left, dropped{f.path, why})
			continue
		}
		kept = append(kept, f)
	}
	return kept, left, nil
}

// leaveOut says why f is not for students, or "" when it is.
func leaveOut(f file) (string, error) {
	for _, p := range instructorOnly {
		if f.path == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(f.path, p)) {
			return "instructor only (" + p + ")", nil
		}
	}
	if !strings.HasSuffix(f.path, ".go") {
		return "", nil
	}
	imports, err := goImports(f)
	if err != nil {
		return "", err
	}
	for _, imp := range imports {
		if imp == solutionsImport || strings.HasPrefix(imp, solutionsImport+"/") {
			return "imports " + imp, nil
		}
	}
	return "", nil
}

// goImports returns the import paths of a Go file.
func goImports(f file) ([]string, error) {
	ast, err := parser.ParseFile(token.NewFileSet(), f.path, f.data, parser.ImportsOnly)
	if err != nil {
		return nil, fmt.Errorf("parse imports of %s: %w", f.path, err)
	}
	var out []string
	for _, s := range ast.Imports {
		p, err := strconv.Unquote(s.Path.Value)
		if err != nil {
			return nil, fmt.Errorf("import %s in %s: %w", s.Path.Value, f.path, err)
		}
		out = append(out, p)
	}
	return out, nil
}
