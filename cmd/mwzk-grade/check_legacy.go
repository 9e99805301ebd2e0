package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"slices"
)

// The provided code of the handouts before 2026-11-29 kept its encoding
// buffers in a package variable. A hand-in built on one still has it, in
// code its author did not write, and must not be refused for it: the
// declaration is let through as it was handed out, and its uses only as
// the provided code has them, a Get type-asserted to *[]byte and a Put.
// Through them replicas could pass each other byte slices only (a Get
// takes nothing else), which the garbage collector may drop at any time.

// legacyPool is the name and value of that declaration.
const (
	legacyPool      = "bufPool"
	legacyPoolValue = "sync.Pool{New: func() any {\n\tb := make([]byte, 0, 256)\n\treturn &b\n}}"
)

// isLegacyPool says whether the i-th name of vs is the handed-out pool.
func isLegacyPool(vs *ast.ValueSpec, i int, imports map[string]string) bool {
	if vs.Names[i].Name != legacyPool || vs.Type != nil || len(vs.Values) != len(vs.Names) || imports["sync"] != "sync" {
		return false
	}
	var b bytes.Buffer
	if err := printer.Fprint(&b, token.NewFileSet(), vs.Values[i]); err != nil {
		return false
	}
	return b.String() == legacyPoolValue
}

// legacyPoolUses refuses every use of the package variable bufPool (if
// the package has one: vars) but the provided two, bufPool.Get().(*[]byte)
// and bufPool.Put(x). A field or a method of that name is another thing.
// A Put of anything else is harmless: a Get must take a *[]byte, and byte
// cannot be made to mean anything else (predeclaredTypes).
func legacyPoolUses(f *ast.File, vars map[string]bool, at func(token.Pos) string) []string {
	if !vars[legacyPool] {
		return nil
	}
	var out []string
	inspectWithStack(f, func(n ast.Node, stack []ast.Node) {
		if id, ok := n.(*ast.Ident); ok && id.Name == legacyPool && !fieldName(id, stack) && !providedPoolUse(id, stack) {
			out = append(out, fmt.Sprintf("%s: %s is used as the provided code did not use it: only %s.Get().(*[]byte) and %s.Put(x) are allowed (the replicas in the suite's process share it)",
				at(id.Pos()), legacyPool, legacyPool, legacyPool))
		}
	})
	return out
}

// inspectWithStack calls visit for every node of f with the nodes that
// enclose it, innermost last.
func inspectWithStack(f *ast.File, visit func(n ast.Node, stack []ast.Node)) {
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		visit(n, stack)
		stack = append(stack, n)
		return true
	})
}

// fieldName says whether id, under stack, names a field or method, not a
// variable: x.bufPool, a struct's field bufPool, a method bufPool.
func fieldName(id *ast.Ident, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.SelectorExpr:
		return p.Sel == id
	case *ast.Field:
		return true
	case *ast.KeyValueExpr:
		return p.Key == id // a composite literal's field name
	case *ast.FuncDecl:
		return p.Recv != nil && p.Name == id
	}
	return false
}

// providedPoolUse says whether id, under the nodes of stack (outermost
// first), is the declared name or one of the two provided uses.
func providedPoolUse(id *ast.Ident, stack []ast.Node) bool {
	parent := func(k int) ast.Node {
		if k > len(stack) {
			return nil
		}
		return stack[len(stack)-k]
	}
	if vs, ok := parent(1).(*ast.ValueSpec); ok {
		return len(vs.Names) > 0 && vs.Names[0] == id
	}
	sel, ok := parent(1).(*ast.SelectorExpr)
	if !ok || sel.X != id {
		return false
	}
	call, ok := parent(2).(*ast.CallExpr)
	if !ok || call.Fun != sel {
		return false
	}
	switch sel.Sel.Name {
	case "Get":
		ta, ok := parent(3).(*ast.TypeAssertExpr)
		if !ok || ta.X != call || len(call.Args) != 0 {
			return false
		}
		star, ok := ta.Type.(*ast.StarExpr)
		if !ok {
			return false
		}
		arr, ok := star.X.(*ast.ArrayType)
		if !ok || arr.Len != nil {
			return false
		}
		elt, ok := arr.Elt.(*ast.Ident)
		return ok && elt.Name == "byte"
	case "Put":
		return len(call.Args) == 1
	}
	return false
}

// tableUses refuses every use of a table variable (tableVars) but a read
// by index, len, cap or range.
func tableUses(f *ast.File, tables map[string]bool, at func(token.Pos) string) []string {
	var out []string
	inspectWithStack(f, func(n ast.Node, stack []ast.Node) {
		if id, ok := n.(*ast.Ident); ok && tables[id.Name] && !fieldName(id, stack) && !tableRead(id, stack) {
			out = append(out, fmt.Sprintf("%s: %s, a package table, may only be read by index, len, cap or range: the replicas in the suite's process share it",
				at(id.Pos()), id.Name))
		}
	})
	return out
}

// tableRead says whether id, under stack, is its declaration or a read.
func tableRead(id *ast.Ident, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.ValueSpec:
		return slices.Contains(p.Names, id)
	case *ast.IndexExpr:
		return p.X == id
	case *ast.RangeStmt:
		return p.X == id
	case *ast.CallExpr:
		fn, ok := p.Fun.(*ast.Ident)
		return ok && (fn.Name == "len" || fn.Name == "cap") && len(p.Args) == 1
	}
	return false
}
