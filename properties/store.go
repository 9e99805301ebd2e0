package properties

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Store writes p to w as UTF-8 in properties syntax: one key=value line per
// key, in sorted order, without the date comment Java writes (so that the
// output of the same set is always the same bytes). Loading the output with
// Load, or with Java's Properties.load(Reader), gives back the same pairs.
//
// Escaping follows Java's Properties.store: white space in keys, a leading
// space in values, \t \n \r \f, the backslash and = : # ! are escaped. In
// addition, other control characters and U+FEFF are written as \uxxxx so the
// file shows no invisible characters and no editor can take a key's first
// character for a byte order mark. Other non-ASCII text is written as is.
// Bytes of a string that are not UTF-8 are written as U+FFFD.
func (p *Properties) Store(w io.Writer) error {
	bw := bufio.NewWriter(w)
	var line strings.Builder
	for _, key := range p.Keys() {
		value, _ := p.Get(key)
		line.Reset()
		escape(&line, key, true)
		line.WriteByte('=')
		escape(&line, value, false)
		line.WriteByte('\n')
		if _, err := bw.WriteString(line.String()); err != nil {
			return fmt.Errorf("properties: store: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("properties: store: %w", err)
	}
	return nil
}

// escape writes s so that the reader gives s back. In a key every space
// must be escaped or it would end the key; in a value only a leading space,
// which the reader would skip as separator white space.
func escape(b *strings.Builder, s string, isKey bool) {
	for i, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case ' ':
			if isKey || i == 0 {
				b.WriteByte('\\')
			}
			b.WriteByte(' ')
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case '=', ':', '#', '!':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			if r < 0x20 || r == 0x7f || r == '\uFEFF' {
				fmt.Fprintf(b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
}
