package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Every replica of a test runs in the suite's one process, so anything
// global is memory they share outside Zab. Red-team hand-ins earned 94
// points with one SingleZab Service behind all replicas (a package
// variable) and a restarted replica that copied a sibling's tree instead
// of the state Zab handed it (100 points without state transfer). Graded
// code therefore may not keep state outside its Services: no package
// variable that can hold an object, none written (check_vars.go), and none
// of the allowed packages' global state.

// sharedGlobals are what the allowed packages hold for the whole process:
// functions that set or return process-wide state (a standard logger whose
// writer can be any value, metrics boards by peer), and variables whose
// elements can be changed through a copy of them (a slice, a table).
// mwzookeeper.OpenACL is such a slice, but the provided code of every
// handout so far reads it: it stays allowed, and its entry, like the
// error sentinels, is read-only memory (mwzookeeper/readonly.go), so a
// write through a copy faults.
var sharedGlobals = map[string][]string{
	"zablab/zab": {"StageBoardOf", "PeerFigures", "PeerFiguresAt", "PeerDeliveredAt", "Collectors", "KnownKeys"},
	// crc32.IEEETable, time's zones and the tables MakeTable returns are
	// objects of the process too, but graded code may read them:
	// readOnlyObjects (check_aliases.go).
	// gob's registry of names is the process's: RegisterName(state, T{}).
	"encoding/gob": {"Register", "RegisterName"},
}

// allowedNames are the only names of three packages graded code may use.
// Of the two logging packages: the standard logger of each is the whole process's, and a
// list of its refused functions missed a way in (logrus.WithFields(nil)
// returns an Entry whose Logger is the standard one, hooks and all: a
// red-team's). What is left writes through it, or makes a logger of its
// own; the Service has the Host's logger for its lines.
var allowedNames = map[string][]string{
	// unicode's tables are variables, changed through a copy as any
	// other: the functions, constants and types are all graded code needs.
	"unicode": {"Is", "In", "IsOneOf", "IsControl", "IsDigit", "IsGraphic", "IsLetter", "IsLower", "IsMark",
		"IsNumber", "IsPrint", "IsPunct", "IsSpace", "IsSymbol", "IsTitle", "IsUpper", "SimpleFold", "To",
		"ToLower", "ToTitle", "ToUpper", "MaxRune", "ReplacementChar", "MaxASCII", "MaxLatin1", "Version",
		"UpperCase", "LowerCase", "TitleCase", "MaxCase", "UpperLower", "RangeTable", "Range16", "Range32",
		"CaseRange", "SpecialCase"},
	"log": {"New", "Logger", "Print", "Printf", "Println", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln",
		"Ldate", "Ltime", "Lmicroseconds", "Llongfile", "Lshortfile", "LUTC", "Lmsgprefix", "LstdFlags"},
	"github.com/sirupsen/logrus": {
		// Writing through the standard logger, as log.Printf does: its
		// hooks and writer can be set only through names not listed.
		"Trace", "Tracef", "Traceln", "Debug", "Debugf", "Debugln", "Info", "Infof", "Infoln",
		"Print", "Printf", "Println", "Warn", "Warnf", "Warnln", "Warning", "Warningf", "Warningln",
		"Error", "Errorf", "Errorln", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln",
		"New", "NewEntry", "ParseLevel", "Logger", "Entry", "Fields", "FieldLogger",
		"Ext1FieldLogger", "StdLogger", "Level", "Hook", "LevelHooks", "Formatter", "TextFormatter", "JSONFormatter",
		"FieldMap", "LogFunction", "BufferPool", "DebugLogger", "InfoLogger", "ErrorLogger", "TraceLogger",
		"PanicLevel", "FatalLevel", "ErrorLevel", "WarnLevel", "InfoLevel", "DebugLevel", "TraceLevel",
		"FieldKeyMsg", "FieldKeyLevel", "FieldKeyTime", "FieldKeyLogrusError", "FieldKeyFunc", "FieldKeyFile"},
}

// globalHints say what graded code uses instead of a package's refused
// names.
var globalHints = map[string]string{
	"log":                        " (log through the Service's logger from its Host, or one made with New in a field)",
	"github.com/sirupsen/logrus": " (log through the Service's logger from its Host, or one made with New in a field)",
	"encoding/gob":               " (gob encodes a concrete type without registering it)",
}

// fileOpeners are the allowed functions that open a file by its path: the
// replicas of a test share the sandbox's folders, so a file one writes
// (the logger of logging.New, given properties naming it) another could
// read (properties.LoadFile). The Service gets its logger and properties
// from its Host and Start, and needs neither.
var fileOpeners = map[string][]string{
	"zablab/logging":    {"New"},
	"zablab/properties": {"LoadFile"},
}

// importNames maps the names a file's imports are known by to their paths.
func importNames(f *ast.File) map[string]string {
	names := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := path.Base(p)
		if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
			name = path.Base(path.Dir(p)) // math/rand/v2 is package rand
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = p
	}
	return names
}

// sharedState finds a file's package variables that can hold an object,
// writes to any package variable (vars: the package's, by name), and uses
// of the allowed packages' global state.
func sharedState(f *ast.File, pf pkgFacts, at func(token.Pos) string) []string {
	imports, vars := importNames(f), pf.vars
	r := varRules{imports: imports, ownValues: pf.ownValues, ownTables: pf.ownTables}
	out := packageVars(f, r, at)
	out = append(out, legacyPoolUses(f, vars, at)...)
	out = append(out, tableUses(f, pf.tables, at)...)
	out = append(out, predeclaredTypes(f, at)...)
	out = append(out, pointerUses(f, pf.regexps, at)...)
	out = append(out, rootedUses(f, pf, at)...)
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			out = append(out, globalUse(n, imports, at)...)
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				out = append(out, varWrites(n.Lhs, vars, "assigning to", at)...)
			}
		case *ast.IncDecStmt:
			out = append(out, varWrites([]ast.Expr{n.X}, vars, "changing", at)...)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				out = append(out, varWrites([]ast.Expr{n.Key, n.Value}, vars, "assigning to", at)...)
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				out = append(out, varWrites([]ast.Expr{n.X}, vars, "taking the address of", at)...)
			}
		}
		return true
	})
	return out
}

// globalUse refuses pkg.Name where it is global state or opens files.
func globalUse(n *ast.SelectorExpr, imports map[string]string, at func(token.Pos) string) []string {
	id, ok := n.X.(*ast.Ident)
	if !ok {
		return nil
	}
	path := imports[id.Name]
	switch {
	case slices.Contains(sharedGlobals[path], n.Sel.Name),
		allowedNames[path] != nil && !slices.Contains(allowedNames[path], n.Sel.Name):
		hint := globalHints[path]
		return []string{fmt.Sprintf("%s: %s.%s is state of the whole process, shared by every replica the suite runs in it: graded code may not use it%s",
			at(n.Pos()), id.Name, n.Sel.Name, hint)}
	case slices.Contains(fileOpeners[path], n.Sel.Name):
		return []string{fmt.Sprintf("%s: %s.%s opens files, which every replica the suite runs shares: graded code may not use it (the Host gives the logger, Start the properties)",
			at(n.Pos()), id.Name, n.Sel.Name)}
	}
	return nil
}

// varWrites flags the expressions that write a package variable, or an
// element, field or pointee of one (by name: a local of the same name is
// refused too, and is easily renamed).
func varWrites(es []ast.Expr, vars map[string]bool, how string, at func(token.Pos) string) []string {
	var out []string
	for _, e := range es {
		root := e
		for done := false; !done; {
			switch x := root.(type) {
			case *ast.ParenExpr:
				root = x.X
			case *ast.IndexExpr:
				root = x.X
			case *ast.StarExpr:
				root = x.X
			case *ast.SelectorExpr:
				root = x.X
			default:
				done = true
			}
		}
		if id, ok := root.(*ast.Ident); ok && vars[id.Name] {
			out = append(out, fmt.Sprintf("%s: %s %s, a package variable, is not allowed in graded code: the replicas in the suite's process share it (keep what changes in the Service)",
				at(e.Pos()), how, id.Name))
		}
	}
	return out
}

// packageVars refuses the file's package variables that can hold an
// object (varRules.readOnlyVar).
func packageVars(f *ast.File, r varRules, at func(token.Pos) string) []string {
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if !r.readOnlyVar(vs, i) {
					out = append(out, fmt.Sprintf("%s: package variable %s: the replicas of a test run in one process and would share what it holds outside Zab (allowed are package variables of plain values: numbers, strings, tables of them, errors, a regexp, a function: objects belong in the Service)",
						at(name.Pos()), name.Name))
				}
			}
		}
	}
	return out
}

// packageVarNames lists the names of a package's variables, in all its
// files.
func packageVarNames(files []*ast.File) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, s := range g.Specs {
					for _, name := range s.(*ast.ValueSpec).Names {
						if name.Name != "_" {
							out[name.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}

// predeclaredTypes refuses types and type parameters named like one of
// Go's predeclared identifiers: the checks here read names, and a local
// "type byte = *Service" made bufPool.Get().(*[]byte) take the Services
// that another replica put there (a red-team's, also as a type parameter).
func predeclaredTypes(f *ast.File, at func(token.Pos) string) []string {
	var out []string
	flag := func(id *ast.Ident) {
		if types.Universe.Lookup(id.Name) != nil {
			out = append(out, fmt.Sprintf("%s: a type named %s, as Go's own, is not allowed in graded code", at(id.Pos()), id.Name))
		}
	}
	params := func(fl *ast.FieldList) {
		if fl != nil {
			for _, fld := range fl.List {
				for _, id := range fld.Names {
					flag(id)
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			flag(n.Name)
			params(n.TypeParams)
		case *ast.FuncType:
			params(n.TypeParams)
		}
		return true
	})
	return out
}
