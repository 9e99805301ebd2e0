package main

import (
	"go/ast"
	"go/token"
	"slices"
)

// A package variable is shared by every replica in the suite's process.
// One that holds only values (numbers, strings, tables of them, error
// values, a compiled regexp, a function) and is never written shares
// nothing a replica could use to reach another: it is what students
// commonly keep at package level (a Stringer's names, a lookup table, a
// clock seam). One that can hold an object (a pointer, a map of them, an
// interface, a channel, a sync type) is a registry of replicas, and is
// refused; so is every write to a package variable (sharedState).

// basicTypes are Go's types of plain values.
var basicTypes = []string{"bool", "string", "byte", "rune", "int", "int8", "int16", "int32", "int64",
	"uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64", "complex64", "complex128"}

// valueTypes are the allowed packages' types of plain values, by import
// path and name.
var valueTypes = map[string][]string{
	"time":                       {"Duration", "Month", "Weekday"},
	"zablab/zab":                 {"Status"},
	"zablab/mwzookeeper":         {"Code", "OpCode", "CreateMode", "WatchMode", "WatcherType", "Perm", "EventType", "KeeperState"},
	"github.com/sirupsen/logrus": {"Level"},
}

// valueFuncs are the allowed packages' functions whose result holds no
// object a replica could change: errors, formatted strings, a compiled
// regexp (safe for concurrent use, changed by no method that matters).
var valueFuncs = map[string][]string{
	"errors":  {"New"},
	"fmt":     {"Errorf", "Sprintf", "Sprint"},
	"regexp":  {"MustCompile", "MustCompilePOSIX"},
	"strings": {"Repeat", "ToUpper", "ToLower", "Join"},
}

// varRules holds what a file's checks of package variables need: its
// imports and the package's own types of plain values.
type varRules struct {
	imports   map[string]string
	ownValues map[string]bool // type role int, and types made only of such
	ownTables map[string]bool // type board map[string]string, type ids []int64
}

// valueTypesOf lists the package's own types of plain values, over all its
// files: type role int, type names [3]string, repeated until nothing new.
func valueTypesOf(files []*ast.File) map[string]bool {
	own := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, f := range files {
			r := varRules{imports: importNames(f), ownValues: own, ownTables: ownTableTypes(files, false)}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.TYPE {
					continue
				}
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					if !own[ts.Name.Name] && ts.TypeParams == nil && r.valueType(ts.Type) {
						own[ts.Name.Name], changed = true, true
					}
				}
			}
		}
	}
	return own
}

// valueType says whether t is a type of plain values.
func (r varRules) valueType(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.Ident:
		return slices.Contains(basicTypes, t.Name) || r.ownValues[t.Name]
	case *ast.SelectorExpr:
		pkg, ok := t.X.(*ast.Ident)
		return ok && slices.Contains(valueTypes[r.imports[pkg.Name]], t.Sel.Name)
	case *ast.ParenExpr:
		return r.valueType(t.X)
	case *ast.ArrayType:
		// Elements are no tables of their own, in an array too: a read by
		// index hands out a map or slice to be changed (a review's).
		return r.valueType(t.Elt) && !isTable(t.Elt) && !r.ownTable(t.Elt)
	case *ast.MapType:
		return r.valueType(t.Key) && r.valueType(t.Value) && !isTable(t.Value) && !r.ownTable(t.Value)
	case *ast.StructType:
		// No table in a struct: a copy of the struct (x := v) or a method
		// of it would share the table's elements (a review's).
		for _, f := range t.Fields.List {
			if !r.valueType(f.Type) || isTable(f.Type) || r.ownTable(f.Type) {
				return false
			}
		}
		return true
	}
	return false
}

// readOnlyVar says whether the i-th name of vs may be a package variable:
// its value, or its type when it has no value, is one of plain values.
func (r varRules) readOnlyVar(vs *ast.ValueSpec, i int) bool {
	if vs.Names[i].Name == "_" || isLegacyPool(vs, i, r.imports) {
		return true
	}
	if len(vs.Values) == 0 {
		return vs.Type != nil && r.valueType(vs.Type)
	}
	if len(vs.Values) != len(vs.Names) { // var a, b = f(): whatever f returns
		return false
	}
	if vs.Type != nil && !r.valueType(vs.Type) && !isErrorType(vs.Type) {
		return false
	}
	return r.value(vs.Values[i])
}

func isErrorType(t ast.Expr) bool {
	id, ok := t.(*ast.Ident)
	return ok && id.Name == "error"
}

// value says whether e makes a plain value: literals, names (constants,
// functions, other package variables, each checked where it is declared),
// operators on them, function literals (which can keep nothing of their
// own between calls), composite literals of value types, and calls of
// valueFuncs or conversions to value types.
func (r varRules) value(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit, *ast.Ident, *ast.FuncLit:
		return true
	case *ast.SelectorExpr:
		pkg, ok := e.X.(*ast.Ident)
		return ok && r.imports[pkg.Name] != "" // another package's name; x.f of a call is not
	case *ast.ParenExpr:
		return r.value(e.X)
	case *ast.UnaryExpr:
		return e.Op != token.AND && e.Op != token.ARROW && r.value(e.X)
	case *ast.BinaryExpr:
		return r.value(e.X) && r.value(e.Y)
	case *ast.CompositeLit:
		return r.compositeValue(e)
	case *ast.CallExpr:
		return r.valueCall(e)
	}
	return false
}

func (r varRules) compositeValue(e *ast.CompositeLit) bool {
	if e.Type != nil && !r.valueType(e.Type) {
		return false
	}
	for _, el := range e.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if !r.value(kv.Key) || !r.value(kv.Value) {
				return false
			}
		} else if !r.value(el) {
			return false
		}
	}
	return true
}

func (r varRules) valueCall(e *ast.CallExpr) bool {
	for _, a := range e.Args {
		if !r.value(a) {
			return false
		}
	}
	switch fn := e.Fun.(type) {
	case *ast.Ident: // a conversion: int64(5), role(2)
		return len(e.Args) == 1 && r.valueType(fn)
	case *ast.SelectorExpr:
		pkg, ok := fn.X.(*ast.Ident)
		if !ok {
			return false
		}
		path := r.imports[pkg.Name]
		return slices.Contains(valueFuncs[path], fn.Sel.Name) ||
			len(e.Args) == 1 && slices.Contains(valueTypes[path], fn.Sel.Name)
	}
	return false
}

// isTable says whether t is written as a slice or a map: a table's
// elements are plain values, never tables of their own, which a read by
// index would hand out to be changed (map[string][]byte, a red-team's
// way to pass a serialized tree, a review's).
func isTable(t ast.Expr) bool {
	switch t := ast.Unparen(t).(type) {
	case *ast.ArrayType:
		return t.Len == nil
	case *ast.MapType:
		return true
	}
	return false
}

// tableVars are the package variables written as tables (a composite
// literal or a type of slice, map or array): they are read by index, len,
// cap or range only (tableUses), as any other use could change them
// through a copy (m := table; m[k] = v), delete, copy, a slice or a method.
func tableVars(files []*ast.File) map[string]bool {
	out, own := map[string]bool{}, ownTableTypes(files, true)
	eachVar(files, func(_ map[string]string, vs *ast.ValueSpec, i int) {
		t := writtenType(vs, i)
		if _, ok := t.(*ast.ArrayType); ok || isTable(t) || isOwn(t, own) {
			out[vs.Names[i].Name] = true
		}
	})
	return out
}

// writtenType is the type the i-th variable of vs is written with: its
// declared type, else its value's (typeOfValue); nil when neither says.
func writtenType(vs *ast.ValueSpec, i int) ast.Expr {
	t := vs.Type
	if t == nil && i < len(vs.Values) {
		t = typeOfValue(vs.Values[i])
	}
	return ast.Unparen(t)
}

// typeOfValue is the type a package variable's value is written with: a
// composite literal's, or a conversion's (zxids([]int64{...}), a review's
// way past the table rule); nil for anything else.
func typeOfValue(e ast.Expr) ast.Expr {
	switch v := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return v.Type
	case *ast.CallExpr:
		if len(v.Args) == 1 {
			switch fn := ast.Unparen(v.Fun).(type) {
			case *ast.Ident, *ast.ArrayType, *ast.MapType:
				return fn // a conversion, or a call of a function of that name: the table rule errs on the safe side
			}
		}
	}
	return nil
}
