package properties

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Properties is a set of key/value pairs read from a properties file or
// built in code. Each pair remembers the line it was defined on, so that a
// bad value found long after loading can still be reported where it is.
//
// Reading methods may be called from several goroutines at once; Set may
// not run concurrently with anything else. A nil *Properties reads as empty.
type Properties struct {
	file    string // as given to LoadFile; "" when loaded from a reader
	entries map[string]entry
	earlier map[string][]int // key → lines of the definitions the last one overrode
}

type entry struct {
	value string
	line  int // line where the winning definition starts; 0 if set in code
}

// New returns an empty set, for building a configuration in code or tests.
func New() *Properties {
	return &Properties{entries: make(map[string]entry)}
}

// Load reads a properties file in the syntax of java.util.Properties.load
// from r, which must deliver UTF-8. Syntax errors are *Error values
// wrapping ErrSyntax; a failing reader's error is wrapped as is.
func Load(r io.Reader) (*Properties, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("properties: read: %w", err)
	}
	return parse(data, "")
}

// LoadFile reads the properties file at path. Every error names the file:
// syntax errors carry it in Error.File, and I/O errors are *os.PathError.
func LoadFile(path string) (*Properties, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("properties: load: %w", err)
	}
	return parse(data, path)
}

// LoadString is Load for a string, which is handy in tests and examples.
func LoadString(s string) (*Properties, error) {
	return Load(bytes.NewReader([]byte(s)))
}

// Clone returns a copy of p that shares nothing with it: the same file
// name, keys, values and lines.
func (p *Properties) Clone() *Properties {
	if p == nil {
		return nil
	}
	earlier := make(map[string][]int, len(p.earlier))
	for k, lines := range p.earlier {
		earlier[k] = slices.Clone(lines)
	}
	return &Properties{file: p.file, entries: maps.Clone(p.entries), earlier: earlier}
}

// Redefined describes every key the file defines more than once, sorted
// by key, for a warning: the last definition wins, as in Java, and an
// operator who edits an earlier one would otherwise see no effect and no
// reason. Each names the file, the key and the line of the definition in
// force (as an *Error would), and the lines of the ignored ones. Set does
// not count: only the file's own definitions do.
func (p *Properties) Redefined() []string {
	if p == nil {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(p.earlier)) {
		lines := p.earlier[k]
		nums := make([]string, len(lines))
		for i, l := range lines {
			nums[i] = strconv.Itoa(l)
		}
		which := "line " + nums[0] + "'s definition is"
		if n := len(nums); n > 1 {
			which = "lines " + strings.Join(nums[:n-1], ", ") + " and " + nums[n-1] + "'s definitions are"
		}
		e := &Error{File: p.file, Line: p.Line(k), Key: k,
			Msg: "defined again; " + which + " ignored (the last one wins, as in Java)"}
		out = append(out, e.Error())
	}
	return out
}

// Set defines key, replacing an earlier definition. Its line is 0: it does
// not come from the file. It replaces all of the file's definitions, so
// none of them is a redefinition for Redefined to report (it would name
// the file's last one as in force, at line 0).
func (p *Properties) Set(key, value string) {
	if p.entries == nil {
		p.entries = make(map[string]entry)
	}
	delete(p.earlier, key)
	p.entries[key] = entry{value: value}
}

// Get returns the value of key exactly as defined (trailing white space
// included, as in Java) and whether the key is defined at all.
func (p *Properties) Get(key string) (string, bool) {
	e, ok := p.lookup(key)
	return e.value, ok
}

func (p *Properties) lookup(key string) (entry, bool) {
	if p == nil {
		return entry{}, false
	}
	e, ok := p.entries[key]
	return e, ok
}

// Keys returns every defined key in sorted order.
func (p *Properties) Keys() []string {
	if p == nil {
		return []string{}
	}
	keys := make([]string, 0, len(p.entries))
	for k := range p.entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Len returns the number of defined keys.
func (p *Properties) Len() int {
	if p == nil {
		return 0
	}
	return len(p.entries)
}

// File returns the path given to LoadFile, or "" when the set was loaded
// from a reader or built in code.
func (p *Properties) File() string {
	if p == nil {
		return ""
	}
	return p.file
}

// Line returns the 1-based line where the winning definition of key
// starts: the line of its first character, which for a definition
// continued over several lines is the first of them. It is 0 if the key is
// absent or was defined with Set.
func (p *Properties) Line(key string) int {
	e, _ := p.lookup(key)
	return e.line
}

// String returns the value of key, or def if key is absent. The value is
// not trimmed: an empty value is returned as "", not replaced by def.
func (p *Properties) String(key, def string) string {
	if v, ok := p.Get(key); ok {
		return v
	}
	return def
}

// Require returns the value of key, or an *Error wrapping ErrMissing.
func (p *Properties) Require(key string) (string, error) {
	v, ok := p.Get(key)
	if !ok {
		return "", p.Errorf(key, ErrMissing, "required key is not defined")
	}
	return v, nil
}

// Errorf builds an *Error about key that wraps sentinel and carries the
// file and the line of key's definition. Packages that validate values
// (zab, logging, server) use it so that every configuration error reads
// the same way and points at the same place.
func (p *Properties) Errorf(key string, sentinel error, format string, args ...any) error {
	return &Error{
		File: p.File(),
		Line: p.Line(key),
		Key:  key,
		Msg:  fmt.Sprintf(format, args...),
		Err:  sentinel,
	}
}
