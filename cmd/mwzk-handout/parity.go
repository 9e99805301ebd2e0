package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The two trees that must match: the student's stubs and the reference.
const (
	stubDir = "assignments/aufgabe5"
	refDir  = "solutions/aufgabe5"
)

// printParity prints the drift between the stubs and the reference, or
// that there is none; drift is an error.
func printParity(root string, log io.Writer) error {
	drift, err := parity(filepath.Join(root, stubDir), filepath.Join(root, refDir))
	if err != nil {
		return err
	}
	for _, d := range drift {
		fmt.Fprintln(log, "parity:", d)
	}
	if len(drift) > 0 {
		return fmt.Errorf("%s and %s differ in %d places", stubDir, refDir, len(drift))
	}
	fmt.Fprintf(log, "parity: %s matches %s (files and top-level declarations)\n", stubDir, refDir)
	return nil
}

// parity compares the stub and reference folders: the same files (tests
// aside: each tree has its own), and in each Go file the same top-level
// declarations with the same signatures. It returns one line per
// difference, sorted.
func parity(stubs, ref string) ([]string, error) {
	a, err := packageFiles(stubs)
	if err != nil {
		return nil, err
	}
	b, err := packageFiles(ref)
	if err != nil {
		return nil, err
	}
	var drift []string
	for _, name := range union(keys(a), keys(b)) {
		_, inA := a[name]
		_, inB := b[name]
		switch {
		case !inA:
			drift = append(drift, fmt.Sprintf("%s: only in %s", name, ref))
			continue
		case !inB:
			drift = append(drift, fmt.Sprintf("%s: only in %s", name, stubs))
			continue
		case !strings.HasSuffix(name, ".go"):
			continue
		}
		da, err := declarations(filepath.Join(stubs, name))
		if err != nil {
			return nil, err
		}
		db, err := declarations(filepath.Join(ref, name))
		if err != nil {
			return nil, err
		}
		for _, d := range union(da, db) {
			switch {
			case !slices.Contains(da, d):
				drift = append(drift, fmt.Sprintf("%s: %s missing in the stubs", name, d))
			case !slices.Contains(db, d):
				drift = append(drift, fmt.Sprintf("%s: %s not in the reference", name, d))
			}
		}
	}
	return drift, nil
}

// packageFiles returns the names of the files in dir that both trees must
// share: everything but tests.
func packageFiles(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("parity: %w", err)
	}
	out := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		out[e.Name()] = true
	}
	return out, nil
}

// declarations lists a Go file's top-level declarations, one string each:
// "func (*T) name(params) results" with parameter types only, "type T
// struct" or "type T <definition>" for any other type, "const x", "var x".
// Struct fields and values are the student's business and are not listed.
func declarations(path string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parity: %w", err)
	}
	var out []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			out = append(out, funcDecl(fset, d))
		case *ast.GenDecl:
			for _, s := range d.Specs {
				out = append(out, specDecls(fset, d.Tok, s)...)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

func funcDecl(fset *token.FileSet, d *ast.FuncDecl) string {
	recv := ""
	if d.Recv != nil && len(d.Recv.List) == 1 {
		recv = "(" + node(fset, d.Recv.List[0].Type) + ") "
	}
	return "func " + recv + d.Name.Name + signature(fset, d.Type)
}

// signature prints a function type with its parameter and result types
// only: renaming a parameter is no drift.
func signature(fset *token.FileSet, t *ast.FuncType) string {
	list := func(fl *ast.FieldList) []string {
		var types []string
		if fl == nil {
			return nil
		}
		for _, f := range fl.List {
			n := max(1, len(f.Names))
			for range n {
				types = append(types, node(fset, f.Type))
			}
		}
		return types
	}
	s := "(" + strings.Join(list(t.Params), ", ") + ")"
	switch r := list(t.Results); len(r) {
	case 0:
	case 1:
		s += " " + r[0]
	default:
		s += " (" + strings.Join(r, ", ") + ")"
	}
	return s
}

func specDecls(fset *token.FileSet, tok token.Token, s ast.Spec) []string {
	switch s := s.(type) {
	case *ast.TypeSpec:
		if _, ok := s.Type.(*ast.StructType); ok {
			return []string{"type " + s.Name.Name + " struct"}
		}
		return []string{"type " + s.Name.Name + " " + node(fset, s.Type)}
	case *ast.ValueSpec:
		var out []string
		for _, n := range s.Names {
			out = append(out, tok.String()+" "+n.Name)
		}
		return out
	}
	return nil
}

func node(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, n); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// union returns the sorted union of a and b without repeats.
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
