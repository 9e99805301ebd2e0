package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// A package variable of the package's own type could be changed without
// an assignment to it: by a method with a pointer receiver (last.set(s)
// takes &last), through a slice of it or of its array field (copy(a[:], s),
// copy(box.b[:], s)), or, for a type made of a map or slice (type board
// map[string]string), through a copy of it or any method. A review's
// hand-ins carried a whole serialized tree that way. Such types are tables
// (tableVars, read by index, len, cap or range only), a struct holds none
// (varRules.valueType), and the rest is refused here.

// pkgFacts are what the checks know of the graded package, over all its
// files, by name.
type pkgFacts struct {
	vars, tables, ownValues, ownTables, regexps, stringVars, stringTables map[string]bool
	ptrMethods                                                            map[string]map[string]bool // by receiver type
	varTypes                                                              map[string]string          // a package variable's own type, where it is written
}

// factsOf gathers pkgFacts.
func factsOf(files []*ast.File) pkgFacts {
	return pkgFacts{
		vars: packageVarNames(files), tables: tableVars(files), ownValues: valueTypesOf(files),
		ownTables: ownTableTypes(files, false), regexps: regexpVars(files),
		ptrMethods: pointerMethods(files), stringVars: stringVars(files), stringTables: stringTables(files),
		varTypes: varTypes(files),
	}
}

// ownTableTypes are the package's types written as a slice or a map, and
// with arrays, as arrays too.
func ownTableTypes(files []*ast.File, arrays bool) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, sp := range g.Specs {
					ts := sp.(*ast.TypeSpec)
					t := ast.Unparen(ts.Type)
					if a, ok := t.(*ast.ArrayType); isTable(t) || ok && arrays && a.Len != nil {
						out[ts.Name.Name] = true
					}
				}
			}
		}
	}
	return out
}

// ownTable says whether t names one of the package's slice or map types.
func (r varRules) ownTable(t ast.Expr) bool { return isOwn(t, r.ownTables) }

// isOwn says whether t is an identifier in names.
func isOwn(t ast.Expr, names map[string]bool) bool {
	id, ok := ast.Unparen(t).(*ast.Ident)
	return ok && names[id.Name]
}

// isIdent says whether t is the identifier name.
func isIdent(t ast.Expr, name string) bool {
	id, ok := ast.Unparen(t).(*ast.Ident)
	return ok && id.Name == name
}

// pointerMethods are the package's methods with a pointer receiver, by
// the receiver's type.
func pointerMethods(files []*ast.File) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
				continue
			}
			star, ok := ast.Unparen(fd.Recv.List[0].Type).(*ast.StarExpr)
			if !ok {
				continue
			}
			t := ast.Unparen(star.X)
			if g, ok := t.(*ast.IndexExpr); ok { // a generic type's receiver: *T[K]
				t = g.X
			} else if g, ok := t.(*ast.IndexListExpr); ok {
				t = g.X
			}
			if id, ok := t.(*ast.Ident); ok {
				if out[id.Name] == nil {
					out[id.Name] = map[string]bool{}
				}
				out[id.Name][fd.Name.Name] = true
			}
		}
	}
	return out
}

// varTypes are the package variables' types where they are written as a
// name (var last note, var last = note{}, var last = note(x)).
func varTypes(files []*ast.File) map[string]string {
	out := map[string]string{}
	eachVar(files, func(_ map[string]string, vs *ast.ValueSpec, i int) {
		if id, ok := writtenType(vs, i).(*ast.Ident); ok {
			out[vs.Names[i].Name] = id.Name
		}
	})
	return out
}

// eachVar calls f for every package variable, with its file's imports.
func eachVar(files []*ast.File, f func(imports map[string]string, vs *ast.ValueSpec, i int)) {
	for _, file := range files {
		imports := importNames(file)
		for _, d := range file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, sp := range g.Specs {
					vs := sp.(*ast.ValueSpec)
					for i := range vs.Names {
						f(imports, vs, i)
					}
				}
			}
		}
	}
}

// stringVars are the package variables that hold a string (declared so,
// or made by a string expression): a slice of one is a new string, not a
// view.
func stringVars(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	eachVar(files, func(imports map[string]string, vs *ast.ValueSpec, i int) {
		if isIdent(vs.Type, "string") ||
			vs.Type == nil && i < len(vs.Values) && isStringExpr(vs.Values[i], imports) {
			out[vs.Names[i].Name] = true
		}
	})
	return out
}

// stringTables are the package tables of strings ([...]string{...},
// map[K]string{...}): a slice of an element is a new string.
func stringTables(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	eachVar(files, func(_ map[string]string, vs *ast.ValueSpec, i int) {
		var elt ast.Expr
		switch t := writtenType(vs, i).(type) {
		case *ast.ArrayType:
			elt = t.Elt
		case *ast.MapType:
			elt = t.Value
		}
		if isIdent(elt, "string") {
			out[vs.Names[i].Name] = true
		}
	})
	return out
}

// isStringExpr says whether e is plainly a string: a literal, a sum with
// one, or a call of fmt's or strings' functions that make one.
func isStringExpr(e ast.Expr, imports map[string]string) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.BinaryExpr:
		return e.Op == token.ADD && (isStringExpr(e.X, imports) || isStringExpr(e.Y, imports))
	case *ast.CallExpr:
		return isCallOf(e, imports, "fmt", "Sprintf", "Sprint") || isCallOf(e, imports, "strings", "Repeat", "ToUpper", "ToLower", "Join")
	}
	return false
}

// rootedUses refuses a method that could change a package variable
// selected on one (or on a field or element of one), and a slice of one
// that is no string.
func rootedUses(f *ast.File, pf pkgFacts, at func(token.Pos) string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if root := varRoot(n.X); root != nil && pf.vars[root.Name] && changingMethod(n, root, pf) {
				out = append(out, fmt.Sprintf("%s: %s may change what it is called on: on %s, a package variable, it would change what the replicas in the suite's process share (a pointer receiver, or an Unmarshal method): keep what changes in a field of the Service",
					at(n.Sel.Pos()), n.Sel.Name, root.Name))
			}
		case *ast.SliceExpr:
			if root := varRoot(n.X); root != nil && pf.vars[root.Name] && !stringSlice(n, root, pf) {
				out = append(out, fmt.Sprintf("%s: a slice of %s, a package variable, is a view through which the replicas in the suite's process could change it",
					at(n.Pos()), root.Name))
			}
		}
		return true
	})
	return out
}

// changingMethod says whether sel, selected on root or a field or element
// of it, may change it: an Unmarshal method of any type (logrus.Level's,
// a regexp's UnmarshalText), or a pointer method of any of the package's
// types (one promoted from an embedded type too). Only on a variable not
// written as one of the package's types (an error, a duration) are String
// and Error let be: they take nothing in that they could write.
func changingMethod(sel *ast.SelectorExpr, root *ast.Ident, pf pkgFacts) bool {
	name := sel.Sel.Name
	if strings.HasPrefix(name, "Unmarshal") {
		return true
	}
	if ast.Unparen(sel.X) == root && pf.varTypes[root.Name] == "" && (name == "String" || name == "Error") {
		return false
	}
	for _, methods := range pf.ptrMethods {
		if methods[name] {
			return true
		}
	}
	return false
}

// stringSlice says whether the slice n of root is of a string: root is a
// string variable, or n slices an element of a table of strings.
func stringSlice(n *ast.SliceExpr, root *ast.Ident, pf pkgFacts) bool {
	x := ast.Unparen(n.X)
	if x == root {
		return pf.stringVars[root.Name]
	}
	ix, ok := x.(*ast.IndexExpr)
	return ok && ast.Unparen(ix.X) == root && pf.stringTables[root.Name]
}

// varRoot is the variable that e is, or is a field, element or pointee of.
func varRoot(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
