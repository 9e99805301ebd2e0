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
// (gob's registry: sharedGlobals), or may only be read (readOnlyObjects),
// and two methods are refused.

// readOnlyObjects are the allowed packages' names that are, or return,
// pointers to such objects. Each may only be read: be the receiver of a
// method (base64.StdEncoding.EncodeToString(b), time.UTC.String()), or an
// argument of a call of its own package (base64.NewEncoder(enc, w),
// crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)), time.Date(...,
// time.UTC)) or of a method In (t.In(time.Local)), which read it.
var readOnlyObjects = map[string][]string{
	"encoding/base64": {"StdEncoding", "URLEncoding", "RawStdEncoding", "RawURLEncoding"},
	"time":            {"Local", "UTC", "FixedZone", "LoadLocation", "LoadLocationFromTZData"},
	"hash/crc32":      {"IEEETable", "MakeTable"},
	"hash/crc64":      {"MakeTable"},
}

// refusedMethods change, or hand out, an object the whole process shares,
// whatever they are called on; Location only where its result is read as
// readOnlyObjects are (time.Date(..., t.Location())).
var refusedMethods = map[string]string{
	"Location": "returns the time zone every replica shares (time.Local, or a zone of time's cache): pass t.Location() straight to a function of package time, or use Time's UTC, Unix and Format",
	"Longest":  "changes a compiled regexp in place, which a package variable shares between replicas: write the pattern to prefer the longest match",
}

// regexpVars lists the package's variables that hold a compiled regexp
// (var p = regexp.MustCompile(...)), over all its files: they may only be
// the receiver of a method.
func regexpVars(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	eachVar(files, func(imports map[string]string, vs *ast.ValueSpec, i int) {
		if i < len(vs.Values) && isCallOf(ast.Unparen(vs.Values[i]), imports, "regexp", "MustCompile", "MustCompilePOSIX") {
			out[vs.Names[i].Name] = true
		}
	})
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

// pointerUses refuses the uses of readOnlyObjects and of the package's
// regexp variables other than reads, and refusedMethods.
func pointerUses(f *ast.File, regexps map[string]bool, at func(token.Pos) string) []string {
	imports := importNames(f)
	var out []string
	inspectWithStack(f, func(n ast.Node, stack []ast.Node) {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && slices.Contains(readOnlyObjects[imports[id.Name]], n.Sel.Name) &&
				!readOnlyUse(n, stack, imports, imports[id.Name]) {
				out = append(out, fmt.Sprintf("%s: %s.%s is an object of the whole process, shared by every replica: graded code may only read it, "+
					"as the receiver of a method or an argument of a function of package %s (%s)", at(n.Pos()), id.Name, n.Sel.Name, id.Name, readOnlyExample[imports[id.Name]]))
			}
			if why, ok := refusedMethods[n.Sel.Name]; ok && !(n.Sel.Name == "Location" && readOnlyUse(n, stack, imports, "time")) {
				out = append(out, fmt.Sprintf("%s: the method %s %s", at(n.Pos()), n.Sel.Name, why))
			}
		case *ast.Ident:
			if regexps[n.Name] && !fieldName(n, stack) && !tableRead(n, stack) && !isReceiver(n, stack) {
				out = append(out, fmt.Sprintf("%s: %s, a package variable holding a compiled regexp, may only be the receiver of its methods (%s.MatchString(s)): the replicas in the suite's process share it",
					at(n.Pos()), n.Name, n.Name))
			}
		}
	})
	return out
}

// readOnlyExample shows a read of each package's readOnlyObjects.
var readOnlyExample = map[string]string{
	"encoding/base64": "base64.StdEncoding.EncodeToString(b)",
	"time":            "time.Date(y, m, d, 0, 0, 0, 0, time.UTC), t.In(time.Local)",
	"hash/crc32":      "crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))",
	"hash/crc64":      "crc64.Checksum(b, crc64.MakeTable(crc64.ISO))",
}

// readOnlyUse says whether sel (a variable, or a function or method whose
// call is meant), under stack, is read: the receiver of a method, or an
// argument of a call of package path's functions or of a method In.
func readOnlyUse(sel *ast.SelectorExpr, stack []ast.Node, imports map[string]string, path string) bool {
	var e ast.Expr = sel
	k := len(stack) - 1
	if k >= 0 {
		if c, ok := stack[k].(*ast.CallExpr); ok && c.Fun == sel {
			e, k = c, k-1 // the call's result is what is used
		}
	}
	if k < 0 {
		return false
	}
	switch p := stack[k].(type) {
	case *ast.SelectorExpr:
		return p.X == e && e == ast.Expr(sel) // a variable's method; a call's result is no receiver here
	case *ast.CallExpr:
		if !slices.Contains(p.Args, e) {
			return false
		}
		fn, ok := p.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		if id, ok := fn.X.(*ast.Ident); ok && imports[id.Name] == path {
			return true
		}
		return path == "time" && fn.Sel.Name == "In"
	}
	return false
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
