package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
)

// The provided code of the handouts before 2026-11-29 kept its encoding
// buffers in a package variable. A hand-in built on one still has it, in
// code its author did not write, and must not be refused for it: the
// declaration is let through as it was handed out, and its uses only as
// the provided code has them, a Get type-asserted to *[]byte and a Put of
// a name. Through them replicas could pass each other byte slices only
// (a Put of anything else makes every Get panic), which the garbage
// collector may drop at any time.

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

// legacyPoolUses refuses every use of the name bufPool but the provided
// two, bufPool.Get().(*[]byte) and bufPool.Put(name).
func legacyPoolUses(f *ast.File, at func(token.Pos) string) []string {
	var out []string
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == legacyPool && !providedPoolUse(id, stack) {
			out = append(out, fmt.Sprintf("%s: %s is used as the provided code did not use it: only %s.Get().(*[]byte) and %s.Put(name) are allowed (the replicas in the suite's process share it)",
				at(id.Pos()), legacyPool, legacyPool, legacyPool))
		}
		stack = append(stack, n)
		return true
	})
	return out
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
		if len(call.Args) != 1 {
			return false
		}
		_, ok := call.Args[0].(*ast.Ident)
		return ok
	}
	return false
}
