package main

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io"
	"slices"
	"strconv"
	"strings"

	"zablab/mwzookeeper/conformance"
)

// allowedModule are the project's packages a Service may import: the
// vocabulary, the Zab library, the properties reader and the logger.
var allowedModule = []string{
	"zablab/mwzookeeper",
	"zablab/mwzookeeper/wire",
	"zablab/zab",
	"zablab/properties",
	"zablab/logging",
	"github.com/sirupsen/logrus",
}

// allowedStd is the standard library a Service may import: data
// structures, encoding, hashing, text, time and synchronisation. Left out
// on purpose: everything that reaches the process, the files, the network
// or the runtime's insides (os, io/ioutil, net, syscall, unsafe, reflect,
// runtime, plugin, os/exec, testing), which graded code has no use for
// and which could reach the grader's result channel.
var allowedStd = []string{
	"bufio", "bytes", "cmp", "container/heap", "container/list", "container/ring", "context",
	"crypto/md5", "crypto/rand", "crypto/sha1", "crypto/sha256", "crypto/sha512",
	"encoding", "encoding/base64", "encoding/binary", "encoding/gob", "encoding/hex", "encoding/json",
	"errors", "fmt", "hash", "hash/adler32", "hash/crc32", "hash/crc64", "hash/fnv", "io", "iter",
	"log", "maps", "math", "math/big", "math/bits", "math/rand", "math/rand/v2", "path", "regexp",
	"slices", "sort", "strconv", "strings", "sync", "sync/atomic", "time", "unicode",
	"unicode/utf16", "unicode/utf8",
}

// allowedDirectives are the only //go: directives graded code may carry:
// a build constraint, and two that tell the compiler and tools nothing
// about memory. Any other is refused, named or not: linkname reaches any
// unexported symbol (the grader's key), embed reads files at build time,
// the cgo ones bring in C, and norace hid a data race that gave a hand-in
// the whole process from the race detector of RACE=1 (a red-team hand-in:
// the stubs at 100/100). A list of the refused ones had let norace
// through, so it is a list of the allowed ones now.
var allowedDirectives = []string{"//go:build", "//go:noinline", "//go:generate"}

// gradersTags are build tags that tell grading from a student's own runs,
// or the race detector's build from the other: a file built only with one
// (//go:build !race) could be honest when checked and cheat when graded.
var gradersTags = []string{"race", "mwzk_extra", "netgo", "osusergo", "cgo"}

// gradersTag refuses a build constraint that names one of gradersTags.
func gradersTag(text string) (string, bool) {
	expr, err := constraint.Parse(text)
	if err != nil {
		return "", false // the compiler names a malformed constraint
	}
	for _, tag := range tags(expr) { // all of them: Eval stops early at && and ||
		if slices.Contains(gradersTags, tag) {
			return "a build constraint on the tag " + strconv.Quote(tag), true
		}
	}
	return "", false
}

// tags lists every tag a build constraint names.
func tags(e constraint.Expr) []string {
	switch x := e.(type) {
	case *constraint.TagExpr:
		return []string{x.Tag}
	case *constraint.NotExpr:
		return tags(x.X)
	case *constraint.AndExpr:
		return append(tags(x.X), tags(x.Y)...)
	case *constraint.OrExpr:
		return append(tags(x.X), tags(x.Y)...)
	}
	return nil
}

// forbiddenDirectives are the other directives graded code may not use:
// cgo's export, and a line directive, which renames the file and line of
// the compiler's messages and of stack traces (a report would blame the
// suite's files, or read as a crash of the compiler).
var forbiddenDirectives = []string{"//export ", "//line ", "/*line "}

// checkFiles refuses graded files that are not a Service of package
// aufgabe5 using only what the assignment needs. It reports every problem,
// each with file (named by at, as its path in the submission), line and
// what is wrong. unreadable are the files go/parser could not parse: the
// compiler's message is the better one for a syntax error, so they are
// left to it, but one that compiles all the same went unchecked and must
// be refused (refuseUnchecked).
func checkFiles(files map[string][]byte, at func(string) string, shared bool) (unreadable []parseFailure, err error) {
	var problems []string
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	type parsed struct {
		f  *ast.File
		at func(token.Pos) string
	}
	var all []parsed
	for _, n := range names {
		f, pos, p, perr := checkFile(at(n), files[n])
		if perr != nil {
			unreadable = append(unreadable, parseFailure{at(n), perr})
			continue
		}
		problems = append(problems, p...)
		all = append(all, parsed{f, pos})
	}
	asts := make([]*ast.File, len(all))
	for i, p := range all {
		asts[i] = p.f
	}
	pf := factsOf(asts)
	for _, p := range all {
		if shared {
			problems = append(problems, sharedState(p.f, pf, p.at)...)
		}
	}
	if len(problems) == 0 {
		return unreadable, nil
	}
	if slices.ContainsFunc(problems, func(p string) bool { return strings.HasSuffix(p, "is not allowed") }) {
		problems = append(problems, "allowed imports: "+strings.Join(allowedModule, ", ")+
			", and of the standard library "+strings.Join(allowedStd, ", "))
	}
	return unreadable, fmt.Errorf("%w: %s", errRefused, strings.Join(problems, "; "))
}

// refuseUnchecked refuses a hand-in whose files compiled although go/parser
// could not read them (a nesting deeper than go/parser takes, say): their
// imports and directives went unchecked.
func refuseUnchecked(unreadable []parseFailure) error {
	if len(unreadable) == 0 {
		return nil
	}
	var msgs []string
	for _, u := range unreadable {
		msgs = append(msgs, fmt.Sprintf("%s: the grader cannot check this file (%v), yet it compiles", u.file, u.err))
	}
	return fmt.Errorf("%w: %s", errRefused, strings.Join(msgs, "; "))
}

// parseFailure is a graded file go/parser could not read.
type parseFailure struct {
	file string // as named in the submission
	err  error
}

// checkFile parses one graded file and checks what it holds alone; it
// returns the file and how to name a position in it for the checks that
// need every file of the package (sharedState).
func checkFile(name string, src []byte) (*ast.File, func(token.Pos) string, []string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, nil, err
	}
	var out []string
	at := func(p token.Pos) string { return fmt.Sprintf("%s:%d", name, fset.Position(p).Line) }
	if f.Name.Name != "aufgabe5" {
		out = append(out, fmt.Sprintf("%s: package %s, want package aufgabe5", at(f.Name.Pos()), f.Name.Name))
	}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		if !slices.Contains(allowedStd, p) && !slices.Contains(allowedModule, p) {
			out = append(out, fmt.Sprintf("%s: import %q is not allowed", at(imp.Pos()), p))
		}
		if imp.Name != nil && imp.Name.Name == "." {
			// Its variables would be written unqualified (foreignWrites).
			out = append(out, fmt.Sprintf("%s: the dot import of %q is not allowed in graded code", at(imp.Pos()), p))
		}
	}
	out = append(out, directives(f, at)...)
	out = append(out, foreignWrites(f, at)...)
	return f, at, out, nil
}

// foreignWrites finds assignments to, and addresses of, the variables of
// imported packages: the suite shares them with the graded code, and a
// review raised A5.1's ErrorCodes to full points by setting
// mwzookeeper.ErrNoNode and its siblings to ErrAPIError. Reading them is
// fine; a package's variables are not the graded code's to change.
func foreignWrites(f *ast.File, at func(token.Pos) string) []string {
	imported := map[string]bool{}
	for name := range importNames(f) {
		imported[name] = true
	}
	var out []string
	flag := func(e ast.Expr, how string) {
		if sel := foreignRoot(e, imported); sel != nil {
			out = append(out, fmt.Sprintf("%s: %s %s.%s, a variable of another package, is not allowed in graded code",
				at(e.Pos()), how, sel.X.(*ast.Ident).Name, sel.Sel.Name))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					flag(l, "assigning to")
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, l := range []ast.Expr{n.Key, n.Value} {
					if l != nil {
						flag(l, "assigning to")
					}
				}
			}
		case *ast.IncDecStmt:
			flag(n.X, "changing")
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				flag(n.X, "taking the address of")
			}
		}
		return true
	})
	return out
}

// foreignRoot is pkg.Name when e is pkg.Name, or a field, element or
// dereference of it, for an imported pkg; else nil.
func foreignRoot(e ast.Expr, imported map[string]bool) *ast.SelectorExpr {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && imported[id.Name] {
				return x
			}
			e = x.X
		default:
			return nil
		}
	}
}

// directives finds the refused directives in any comment.
func directives(f *ast.File, at func(token.Pos) string) []string {
	var out []string
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if d, bad := refusedDirective(c.Text); bad {
				out = append(out, fmt.Sprintf("%s: %s is not allowed in graded code", at(c.Pos()), d))
			}
		}
	}
	return out
}

// refusedDirective names the directive a comment is, if graded code may
// not carry it. The compiler takes any comment that starts with //go: as
// a directive, wherever it stands.
func refusedDirective(text string) (string, bool) {
	if constraint.IsPlusBuild(text) { // the old spelling, honoured without a //go:build line
		return gradersTag(text)
	}
	if strings.HasPrefix(text, "//go:") {
		name := strings.Fields(text)[0]
		if name == "//go:build" {
			return gradersTag(text)
		}
		return name, !slices.Contains(allowedDirectives, name)
	}
	for _, d := range forbiddenDirectives {
		if strings.HasPrefix(text, d) {
			return strings.TrimSpace(d), true
		}
	}
	return "", false
}

// checkCheckout runs checkFiles on the checkout's graded folder (--impl):
// make grade-a5.N runs it first, so that code grading would refuse (an
// import of "os" for a debug print) is named in the loop a student works
// in, not only by make grade.
func checkCheckout(root string, o options, w io.Writer) error {
	if err := checkTestName(o.part, o.run); err != nil {
		return err
	}
	sub, err := checkoutSubmission(root, o)
	if err != nil {
		return err
	}
	unreadable, err := checkFiles(sub.Files, sub.at, !sub.variant)
	if err != nil {
		return fmt.Errorf("%s: grading would refuse this code: %s", sub.dir, strings.TrimPrefix(err.Error(), errRefused.Error()+": "))
	}
	if len(unreadable) > 0 {
		// Mostly a syntax error, which the compiler would name too; but a
		// file it leaves out (a build tag) would compile, and grading
		// refuses a file it cannot check.
		var msgs []string
		for _, u := range unreadable {
			msgs = append(msgs, u.err.Error())
		}
		return fmt.Errorf("%s: grading cannot check this code: %s", sub.dir, strings.Join(msgs, "; "))
	}
	return nil
}

// checkTestName refuses a RUN that names no test of the part: go test
// would run nothing and pass ("no tests to run"), which reads as success.
func checkTestName(part, run string) error {
	if run == "" || part == "" {
		return nil
	}
	var names []string
	near := ""
	for _, t := range conformance.Tests() {
		switch {
		case t.Part == part && t.Name == run:
			return nil
		case t.Part == part:
			names = append(names, t.Name)
			if strings.EqualFold(t.Name, run) || strings.EqualFold(t.Part+"/"+t.Name, run) {
				near = t.Name
			}
		case strings.EqualFold(t.Name, run) || strings.EqualFold(t.Part+"/"+t.Name, run):
			near = fmt.Sprintf("%s, a test of %s (make grade-%s RUN=%s)", t.Name, t.Part, strings.ToLower(t.Part), t.Name)
		}
	}
	if near != "" {
		near = " (did you mean " + near + "?)"
	}
	return fmt.Errorf("%w: RUN=%s: %s has no test of that name%s; its tests: %s (make grade-list lists all)",
		errUsage, run, part, near, strings.Join(names, ", "))
}
