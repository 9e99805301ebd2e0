package properties

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is a transcription of java.util.Properties.load(Reader) from
// JDK 17: lineReader.readLine mirrors Properties.LineReader.readLine,
// splitKeyValue and unescape mirror load0 and loadConvert. The structure
// (flags named as in the JDK, the same order of tests) is kept on purpose:
// the quirks of the format live in that order, and keeping it makes the
// code checkable against the JDK line by line. The golden corpus in
// testdata/corpus pins the result against a real JVM.

// isSpace reports the white space of the format. Only these three count:
// Java ignores other Unicode space (U+00A0, \v, ...) here.
func isSpace(c rune) bool { return c == ' ' || c == '\t' || c == '\f' }

func isEOL(c rune) bool { return c == '\n' || c == '\r' }

// lineReader splits decoded input into logical lines: comments and blank
// lines dropped, continuation lines joined, escapes left in place.
type lineReader struct {
	in     []rune
	pos    int    // index of the next rune to read
	line   int    // physical line of in[pos], 1-based
	skipLF bool   // a continuation ended in \r: a \n right after belongs to it
	buf    []rune // the logical line, valid after readLine returned true
	start  int    // physical line of buf[0]
}

// read consumes one rune. It keeps line in step with the physical lines:
// \n, \r\n and a lone \r each end one line.
func (lr *lineReader) read() rune {
	c := lr.in[lr.pos]
	lr.pos++
	if c == '\n' || c == '\r' && (lr.pos == len(lr.in) || lr.in[lr.pos] != '\n') {
		lr.line++
	}
	return c
}

// readLine reads the next logical line into buf. It returns false at the
// end of the input. A returned line may be empty: Java turns a lone
// backslash on the last line into an entry with empty key and value.
func (lr *lineReader) readLine() bool {
	lr.buf = lr.buf[:0]
	skipWhiteSpace := true      // at the start of a logical or continuation line
	appendedLineBegin := false  // at the start of a continuation line
	precedingBackslash := false // the last rune of buf is an unpaired backslash
	for {
		if lr.pos == len(lr.in) {
			return lr.finish(precedingBackslash)
		}
		c := lr.read()
		if lr.skipLF {
			lr.skipLF = false
			if c == '\n' {
				continue
			}
		}
		if skipWhiteSpace {
			if isSpace(c) {
				continue
			}
			// Blank lines between logical lines are skipped, but an empty
			// continuation line ends the logical line it continues.
			if !appendedLineBegin && isEOL(c) {
				continue
			}
			skipWhiteSpace = false
			appendedLineBegin = false
		}
		// The test is on the length, not on "first line": after a line
		// holding only a backslash, buf is empty again and a # on the next
		// line starts a comment, while a # after "a=b\" is part of the value.
		if len(lr.buf) == 0 && (c == '#' || c == '!') {
			if !lr.skipComment() {
				return false
			}
			skipWhiteSpace = true
			continue
		}
		if !isEOL(c) {
			if len(lr.buf) == 0 {
				lr.start = lr.line
			}
			lr.buf = append(lr.buf, c)
			precedingBackslash = c == '\\' && !precedingBackslash
			continue
		}
		if len(lr.buf) == 0 {
			skipWhiteSpace = true
			continue
		}
		if lr.pos == len(lr.in) || !precedingBackslash {
			return lr.finish(precedingBackslash)
		}
		// An odd run of backslashes before the line end: drop the last
		// one and continue with the next line, minus its leading space.
		lr.buf = lr.buf[:len(lr.buf)-1]
		skipWhiteSpace = true
		appendedLineBegin = true
		precedingBackslash = false
		lr.skipLF = c == '\r'
	}
}

// finish ends a logical line at a line end or at the end of the input. An
// unpaired backslash there is dropped: it had nothing left to continue.
func (lr *lineReader) finish(precedingBackslash bool) bool {
	if len(lr.buf) == 0 {
		return false
	}
	if precedingBackslash {
		lr.buf = lr.buf[:len(lr.buf)-1]
	}
	return true
}

// skipComment consumes the rest of a comment line including its line end.
// A comment cannot be continued: a trailing backslash is just text. It
// returns false if the input ends inside the comment.
func (lr *lineReader) skipComment() bool {
	for lr.pos < len(lr.in) {
		if isEOL(lr.read()) {
			return true
		}
	}
	return false
}

// splitKeyValue splits a logical line into the raw (still escaped) key and
// value. The key ends at the first unescaped '=', ':' or white space. After
// it come white space, at most one '=' or ':', and white space again; the
// value is everything after that, trailing white space included.
func splitKeyValue(line []rune) (key, value []rune) {
	keyLen := 0
	valueStart := len(line)
	hasSep := false
	precedingBackslash := false
	for keyLen < len(line) {
		c := line[keyLen]
		if (c == '=' || c == ':') && !precedingBackslash {
			valueStart = keyLen + 1
			hasSep = true
			break
		} else if isSpace(c) && !precedingBackslash {
			valueStart = keyLen + 1
			break
		}
		precedingBackslash = c == '\\' && !precedingBackslash
		keyLen++
	}
	for valueStart < len(line) {
		c := line[valueStart]
		if !isSpace(c) {
			if hasSep || c != '=' && c != ':' {
				break
			}
			hasSep = true
		}
		valueStart++
	}
	return line[:keyLen], line[valueStart:]
}

// unescape resolves the escapes of a raw key or value. It returns the index
// of the backslash of a malformed \uxxxx escape, or -1 if there is none.
//
// Like Java, it works on UTF-16 code units: \uD83D\uDE00 is one emoji. A
// surrogate that is not part of a pair cannot be held in valid UTF-8 and
// becomes U+FFFD, which is also what a JVM writes for it.
func unescape(in []rune) (string, int) {
	if !containsBackslash(in) {
		return string(in), -1
	}
	out := make([]rune, 0, len(in))
	for i := 0; i < len(in); {
		c := in[i]
		i++
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i == len(in) {
			// Cannot happen: readLine never leaves an unpaired backslash
			// at the end of a line. Report it rather than panic.
			return "", i - 1
		}
		c = in[i]
		i++
		switch c {
		case 'u':
			v, ok := hex4(in[i:])
			if !ok {
				return "", i - 2
			}
			out = append(out, v)
			i += 4
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case 'n':
			out = append(out, '\n')
		case 'f':
			out = append(out, '\f')
		default:
			// Any other escaped rune stands for itself: \= \: \# \  \\ \x.
			out = append(out, c)
		}
	}
	return fromUTF16(out), -1
}

func containsBackslash(in []rune) bool {
	for _, c := range in {
		if c == '\\' {
			return true
		}
	}
	return false
}

// hex4 parses the four hex digits of a \u escape. Fewer than four runes
// left (even at a line end) is malformed in Java, as is a non-hex digit.
func hex4(in []rune) (rune, bool) {
	if len(in) < 4 {
		return 0, false
	}
	var v rune
	for _, c := range in[:4] {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 + c - '0'
		case 'a' <= c && c <= 'f':
			v = v<<4 + c - 'a' + 10
		case 'A' <= c && c <= 'F':
			v = v<<4 + c - 'A' + 10
		default:
			return 0, false
		}
	}
	return v, true
}

// fromUTF16 joins surrogate pairs made by \u escapes into one rune.
func fromUTF16(rs []rune) string {
	var b strings.Builder
	b.Grow(len(rs))
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if utf16.IsSurrogate(r) && i+1 < len(rs) {
			if d := utf16.DecodeRune(r, rs[i+1]); d != unicode.ReplacementChar {
				b.WriteRune(d)
				i++
				continue
			}
		}
		b.WriteRune(r) // writes U+FFFD for a lone surrogate
	}
	return b.String()
}

// decode turns the input into runes. Java would silently replace bytes
// that are not UTF-8 by U+FFFD; a file with such bytes is almost always
// in another encoding (ISO 8859-1), so we refuse it and name the line.
func decode(data []byte, file string) ([]rune, error) {
	in := make([]rune, 0, len(data))
	line := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return nil, &Error{File: file, Line: line, Err: ErrSyntax,
				Msg: fmt.Sprintf("invalid UTF-8 byte 0x%02x at byte offset %d", data[i], i)}
		}
		if r == '\n' || r == '\r' && (i+1 == len(data) || data[i+1] != '\n') {
			line++
		}
		in = append(in, r)
		i += size
	}
	return in, nil
}

// parse reads a whole input the way Properties.load does: the last
// definition of a key wins. On error nothing is returned: Java leaves the
// entries before the bad line in the map, a half-loaded configuration that
// callers should not use.
func parse(data []byte, file string) (*Properties, error) {
	in, err := decode(data, file)
	if err != nil {
		return nil, err
	}
	p := &Properties{file: file, entries: make(map[string]entry)}
	lr := &lineReader{in: in, line: 1}
	for lr.readLine() {
		rawKey, rawValue := splitKeyValue(lr.buf)
		key, bad := unescape(rawKey)
		if bad >= 0 {
			return nil, &Error{File: file, Line: lr.start, Err: ErrSyntax,
				Msg: fmt.Sprintf("malformed \\uxxxx encoding %q in key", excerpt(rawKey, bad))}
		}
		value, bad := unescape(rawValue)
		if bad >= 0 {
			return nil, &Error{File: file, Line: lr.start, Key: key, Err: ErrSyntax,
				Msg: fmt.Sprintf("malformed \\uxxxx encoding %q in value", excerpt(rawValue, bad))}
		}
		if old, ok := p.entries[key]; ok {
			if p.earlier == nil {
				p.earlier = make(map[string][]int)
			}
			p.earlier[key] = append(p.earlier[key], old.line)
		}
		p.entries[key] = entry{value: value, line: lr.start}
	}
	return p, nil
}

// excerpt returns the bad escape for an error message: the backslash, the
// u and what there is of the four digits.
func excerpt(in []rune, at int) string {
	end := min(at+6, len(in))
	return string(in[at:end])
}
