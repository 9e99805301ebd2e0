package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// errStubSpec is a mismatch between the stub spec (stubspec.go) and the
// reference: a function the spec does not decide on, or a decision for a
// function the reference no longer has.
var errStubSpec = errors.New("stub spec does not fit the reference")

// genStubs makes the student's tree from the reference folder ref: every
// non-test file, with the bodies that stubspec.go marks as the exercise
// replaced by their TODO bodies, imports no longer used removed, and the
// files in stubFiles replaced whole. It returns file name -> content.
func genStubs(ref string) (map[string][]byte, error) {
	entries, err := os.ReadDir(ref)
	if err != nil {
		return nil, fmt.Errorf("stubs: %w", err)
	}
	src := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		if src[e.Name()], err = os.ReadFile(filepath.Join(ref, e.Name())); err != nil {
			return nil, fmt.Errorf("stubs: %w", err)
		}
	}
	return stubsOf(src)
}

// genStubsAt is genStubs on the reference as commit rev has it.
func genStubsAt(root, rev string) (map[string][]byte, error) {
	files, err := filesAt(root, rev)
	if err != nil {
		return nil, err
	}
	src := map[string][]byte{}
	for _, f := range files {
		name, ok := strings.CutPrefix(f.path, refDir+"/")
		if ok && !strings.Contains(name, "/") && !strings.HasSuffix(name, "_test.go") {
			src[name] = f.data
		}
	}
	if len(src) == 0 {
		return nil, fmt.Errorf("stubs: no %s at %s", refDir, rev)
	}
	return stubsOf(src)
}

// stubsOf rewrites the reference's files (name -> content).
func stubsOf(src map[string][]byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	decided := map[string]bool{}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(src)) {
		if whole, ok := stubFiles[name]; ok {
			out[name] = []byte(whole)
			continue
		}
		if !strings.HasSuffix(name, ".go") {
			out[name] = src[name]
			continue
		}
		stub, p, err := stubFile(name, src[name], decided)
		if err != nil {
			return nil, err
		}
		problems = append(problems, p...)
		out[name] = stub
	}
	for k := range stubBodies {
		if !decided[k] {
			problems = append(problems, "TODO body for "+k+", which the reference does not have")
		}
	}
	for _, k := range provided {
		if !decided[k] {
			problems = append(problems, "provided "+k+", which the reference does not have")
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return out, fmt.Errorf("%w:\n  %s", errStubSpec, strings.Join(problems, "\n  "))
	}
	return out, nil
}

// filled are TODO functions that keep the reference's body (--fill): a
// tree between the stubs and the reference, as a student's at some step,
// to check that every test ends there.
var filled = map[string]bool{}

// setFilled checks and sets the --fill list.
func setFilled(names []string) error {
	for _, n := range names {
		if _, ok := stubBodies[n]; !ok {
			return fmt.Errorf("%w: --fill %q: not a TODO function of the stub spec (e.g. newZab, Service.Submit)", errUsage, n)
		}
		filled[n] = true
	}
	return nil
}

// funcKey names a function for the spec: "name" or "Recv.name".
func funcKey(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}

// stubFile rewrites one reference file; decided collects the functions
// the spec had a word on, and problems the functions it had none on.
func stubFile(name string, src []byte, decided map[string]bool) ([]byte, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, fmt.Errorf("stubs: %w", err)
	}
	var problems []string
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		k := funcKey(fd)
		body, todo := stubBodies[k]
		if filled[k] {
			decided[k], todo = true, false // keeps the reference's body
		}
		switch {
		case todo:
			decided[k] = true
			if fd.Doc != nil {
				from, to := fset.Position(fd.Doc.Pos()).Offset, fset.Position(fd.Doc.End()).Offset
				if doc := retag(string(src[from:to]), body); doc != string(src[from:to]) {
					edits = append(edits, edit{from, to, doc})
				}
			}
			body, err := locate(body, name, k)
			if err != nil {
				problems = append(problems, err.Error())
			}
			edits = append(edits, edit{fset.Position(fd.Body.Lbrace).Offset + 1, fset.Position(fd.Body.Rbrace).Offset, "\n" + strings.Trim(body, "\n") + "\n"})
		case slices.Contains(provided, k) || filled[k]:
			decided[k] = true
		default:
			problems = append(problems, fmt.Sprintf("%s: %s is neither provided nor a TODO", name, k))
		}
	}
	out := slices.Clone(src)
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		out = slices.Concat(out[:e.from], []byte(e.text), out[e.to:])
	}
	for _, r := range stubRewrites[name] {
		if !bytes.Contains(out, []byte(r[0])) {
			problems = append(problems, fmt.Sprintf("%s: rewrite %q finds nothing", name, r[0]))
		}
		out = bytes.ReplaceAll(out, []byte(r[0]), []byte(r[1]))
	}
	out, err = fixImports(name, out)
	if err != nil {
		return nil, nil, err
	}
	return out, problems, nil
}

// unimplementedMsg is a stub's error text in the spec: "%w: what (TODO A5.x)".
var unimplementedMsg = regexp.MustCompile(`"%w: ([^"]*?) ?\(TODO (A5\.\d)\)"`)

// locate rewrites every unimplemented error of a stub body so that it
// names the one place to fix, "TODO(A5.1) in sessions.go:
// Service.applyCreateSession: ...": a student who greps the message finds
// exactly this function. A stub body without such a message is an error,
// unless it has nothing to fail (it only comments).
func locate(body, file, fn string) (string, error) {
	n := 0
	out := unimplementedMsg.ReplaceAllStringFunc(body, func(m string) string {
		n++
		sub := unimplementedMsg.FindStringSubmatch(m)
		// "create %q" in Service.create says create twice: keep "%q"
		short := fn[strings.LastIndex(fn, ".")+1:]
		what := strings.TrimPrefix(strings.TrimPrefix(sub[1], short), " ")
		if what != "" {
			what = ": " + what
		}
		return fmt.Sprintf(`"%%w: TODO(%s) in %s: %s%s"`, sub[2], file, fn, what)
	})
	if n == 0 && strings.Contains(body, "ErrUnimplemented)") {
		return body, fmt.Errorf("%s: %s: an ErrUnimplemented error without \"(TODO A5.x)\"", file, fn)
	}
	return out, nil
}

// addable are the packages a TODO body may use that its file need not
// import yet.
var addable = []string{"errors", "fmt", "io"}

// partTag is a part's tag in a TODO: TODO(A5.1).
var partTag = regexp.MustCompile(`TODO\((A5\.\d)\)`)

// refTag is a part tag in the reference's doc comments: "(A5.2)",
// "(A5.1, A5.2)", "(A5.1; watches)", "(optional part: multi)".
var refTag = regexp.MustCompile(`\((?:optional part: )?(?:A5\.[0-9x]|watches|multi|sequential nodes|per-session order)(?:[,;]\s*(?://\s*)?(?:A5\.[0-9x]|watches|multi|sequential nodes|per-session order))*\)`)

// retag makes the part tags in a TODO function's doc comment name the
// parts of its TODOs, so the comment and the TODOs never disagree.
func retag(doc, body string) string {
	var tags []string
	for _, m := range partTag.FindAllStringSubmatch(body, -1) {
		if !slices.Contains(tags, m[1]) {
			tags = append(tags, m[1])
		}
	}
	if len(tags) == 0 {
		return doc
	}
	return refTag.ReplaceAllLiteralString(doc, "("+strings.Join(tags, ", ")+")")
}

// fixImports removes the imports src no longer uses, adds those of
// addable it now uses, and gofmts it.
func fixImports(name string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("stubs: generated %s: %w", name, err)
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	imported := map[string]bool{}
	var cut [][2]int
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		local := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		imported[local] = true
		if local == "_" || local == "." || used[local] {
			continue
		}
		from := fset.Position(imp.Pos()).Offset
		to := fset.Position(imp.End()).Offset
		// Take the whole line: indentation before, newline after.
		for from > 0 && (src[from-1] == '\t' || src[from-1] == ' ') {
			from--
		}
		if to < len(src) && src[to] == '\n' {
			to++
		}
		cut = append(cut, [2]int{from, to})
	}
	out := slices.Clone(src)
	for i := len(cut) - 1; i >= 0; i-- {
		out = slices.Concat(out[:cut[i][0]], out[cut[i][1]:])
	}
	var add []string
	for _, p := range addable {
		if used[p] && !imported[p] {
			add = append(add, strconv.Quote(p))
		}
	}
	if len(add) > 0 {
		if out, err = insertImports(name, src, out, fset, f, cut, add); err != nil {
			return nil, err
		}
	}
	res, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("stubs: gofmt %s: %w", name, err)
	}
	return res, nil
}

// insertImports puts the quoted paths add on the line of src's first
// import, in out (src with the import lines cut removed; none may come
// before that line).
func insertImports(name string, src, out []byte, fset *token.FileSet, f *ast.File, cut [][2]int, add []string) ([]byte, error) {
	if len(f.Imports) == 0 {
		return nil, fmt.Errorf("stubs: %s: add imports to a file without any", name)
	}
	at := fset.Position(f.Imports[0].Pos()).Offset
	for at > 0 && src[at-1] != '\n' {
		at--
	}
	for _, c := range cut {
		if c[0] < at {
			return nil, fmt.Errorf("stubs: %s: the first import goes and imports come", name)
		}
	}
	return slices.Concat(out[:at], []byte("\t"+strings.Join(add, "\n\t")+"\n"), out[at:]), nil
}

// writeStubs regenerates the student's tree from the reference: it
// replaces the non-test files of stubs with the generated ones.
// With rev set, the reference is taken as that commit has it.
func writeStubs(root, rev, dir string) error {
	files, err := genStubs(filepath.Join(root, refDir))
	if rev != "" {
		files, err = genStubsAt(root, rev)
	}
	if err != nil {
		return err
	}
	if dir == "" {
		dir = filepath.Join(root, stubDir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	have, err := packageFiles(dir)
	if err != nil {
		return err
	}
	for name := range have {
		if _, ok := files[name]; !ok {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return err
			}
		}
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
