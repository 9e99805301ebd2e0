package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
)

// Objects of the whole process that graded code can reach by a pointer:
// a copy of the pointer writes them for every replica (e :=
// base64.RawURLEncoding; *e = *other carries an alphabet; r :=
// pathPattern; *r = *regexp.MustCompile(state) any text; a review's
// cases). The functions that hand such pointers out are refused by name
// (sharedGlobals: time.FixedZone, crc32.MakeTable, ...); the variables
// here may only be the receiver of a method, which reads them; and two
// methods are refused wherever they are called.

// receiverOnlyVars are the allowed packages' variables that point to such
// an object.
var receiverOnlyVars = map[string][]string{
	"encoding/base64": {"StdEncoding", "URLEncoding", "RawStdEncoding", "RawURLEncoding"},
}

// refusedMethods change, or hand out, an object the whole process shares,
// whatever they are called on.
var refusedMethods = map[string]string{
	"Location": "returns the time zone every replica shares (time.Local, or a zone of time's cache): Time's UTC, Unix and Format need none",
	"Longest":  "changes a compiled regexp in place, which a package variable shares between replicas: write the pattern to prefer the longest match",
}

// regexpVars lists the package's variables that hold a compiled regexp
// (var p = regexp.MustCompile(...)), over all its files: they may only be
// the receiver of a method.
func regexpVars(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		imports := importNames(f)
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i < len(vs.Values) && isCallOf(vs.Values[i], imports, "regexp", "MustCompile", "MustCompilePOSIX") {
						out[name.Name] = true
					}
				}
			}
		}
	}
	return out
}

// isCallOf says whether e calls one of names of the package at path.
func isCallOf(e ast.Expr, imports map[string]string, path string, names ...string) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && imports[id.Name] == path && slices.Contains(names, sel.Sel.Name)
}

// pointerUses refuses the uses of receiverOnlyVars and of the package's
// regexp variables other than as a method's receiver, and every call of
// refusedMethods.
func pointerUses(f *ast.File, regexps map[string]bool, at func(token.Pos) string) []string {
	imports := importNames(f)
	var out []string
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && slices.Contains(receiverOnlyVars[imports[id.Name]], n.Sel.Name) && !isReceiver(n, stack) {
				out = append(out, fmt.Sprintf("%s: %s.%s points to an object of the whole process, shared by every replica: graded code may only call its methods (%s.%s.EncodeToString(b))",
					at(n.Pos()), id.Name, n.Sel.Name, id.Name, n.Sel.Name))
			}
			if why, ok := refusedMethods[n.Sel.Name]; ok && isCalled(n, stack) {
				out = append(out, fmt.Sprintf("%s: the method %s %s", at(n.Pos()), n.Sel.Name, why))
			}
		case *ast.Ident:
			if regexps[n.Name] && !fieldName(n, stack) && !tableRead(n, stack) && !isReceiver(n, stack) {
				out = append(out, fmt.Sprintf("%s: %s, a package variable holding a compiled regexp, may only be the receiver of its methods (%s.MatchString(s)): the replicas in the suite's process share it",
					at(n.Pos()), n.Name, n.Name))
			}
		}
		stack = append(stack, n)
		return true
	})
	return out
}

// isReceiver says whether e, under stack, is the X of a selector (a
// method's receiver: x.MatchString).
func isReceiver(e ast.Expr, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	sel, ok := stack[len(stack)-1].(*ast.SelectorExpr)
	return ok && sel.X == e
}

// isCalled says whether sel, under stack, is the function of a call.
func isCalled(sel *ast.SelectorExpr, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	c, ok := stack[len(stack)-1].(*ast.CallExpr)
	return ok && c.Fun == sel
}
