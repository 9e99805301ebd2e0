package main

import (
	"fmt"
	"go/ast"
	"go/token"
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
	vars, tables, ownValues, ownTables, regexps, ptrMethods, stringVars map[string]bool
}

// factsOf gathers pkgFacts.
func factsOf(files []*ast.File) pkgFacts {
	return pkgFacts{
		vars: packageVarNames(files), tables: tableVars(files), ownValues: valueTypesOf(files),
		ownTables: ownTableTypes(files, false), regexps: regexpVars(files),
		ptrMethods: pointerMethods(files), stringVars: stringVars(files),
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

// pointerMethods are the names of the package's methods with a pointer
// receiver.
func pointerMethods(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 {
				if _, ok := fd.Recv.List[0].Type.(*ast.StarExpr); ok {
					out[fd.Name.Name] = true
				}
			}
		}
	}
	return out
}

// stringVars are the package variables that hold a string (declared so,
// or a string literal): a slice of one is a new string, not a view.
func stringVars(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, name := range vs.Names {
					typed := vs.Type != nil && isOwn(vs.Type, map[string]bool{"string": true})
					lit := false
					if i < len(vs.Values) {
						b, ok := ast.Unparen(vs.Values[i]).(*ast.BasicLit)
						lit = ok && b.Kind == token.STRING
					}
					if typed || vs.Type == nil && lit {
						out[name.Name] = true
					}
				}
			}
		}
	}
	return out
}

// rootedUses refuses a pointer method selected on a package variable (or
// on a field or element of one), and a slice of one that is no string.
func rootedUses(f *ast.File, pf pkgFacts, at func(token.Pos) string) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if root := varRoot(n.X); root != nil && pf.vars[root.Name] && pf.ptrMethods[n.Sel.Name] {
				out = append(out, fmt.Sprintf("%s: %s has a pointer receiver: on %s, a package variable, it would change what the replicas in the suite's process share",
					at(n.Sel.Pos()), n.Sel.Name, root.Name))
			}
		case *ast.SliceExpr:
			if root := varRoot(n.X); root != nil && pf.vars[root.Name] && !(pf.stringVars[root.Name] && root == n.X) {
				out = append(out, fmt.Sprintf("%s: a slice of %s, a package variable, is a view through which the replicas in the suite's process could change it",
					at(n.Pos()), root.Name))
			}
		}
		return true
	})
	return out
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
