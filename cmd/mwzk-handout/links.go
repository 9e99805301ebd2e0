package main

import (
	"bytes"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// mdLink is a Markdown link's target: ](target) or ](target#anchor).
var mdLink = regexp.MustCompile(`\]\(([^)\s#]*)(#[^)\s]*)?\)`)

// brokenLinks lists the links of the handout's Markdown files to files or
// folders the handout leaves out (a student's README and docs must not
// send them to a page they do not have).
func brokenLinks(kept []file) []string {
	have := map[string]bool{}
	for _, f := range kept {
		have[f.path] = true
		for d := path.Dir(f.path); d != "."; d = path.Dir(d) {
			have[d] = true
		}
	}
	var out []string
	for _, f := range kept {
		if !strings.HasSuffix(f.path, ".md") {
			continue
		}
		for _, m := range mdLink.FindAllSubmatch(withoutCode(f.data), -1) {
			target := string(m[1])
			if target == "" || strings.Contains(target, ":") { // an anchor here, or a URL
				continue
			}
			if p := path.Clean(path.Join(path.Dir(f.path), target)); !have[p] {
				out = append(out, fmt.Sprintf("%s links %s, which the handout leaves out", f.path, target))
			}
		}
	}
	return out
}

// codeFences are fenced code blocks, of backticks or of tildes (CommonMark
// has both): text in them is shown as written, never a link. Go's regexp
// has no back-references, so each kind is its own expression.
var codeFences = []*regexp.Regexp{
	regexp.MustCompile("(?ms)^```.*?^```"),
	regexp.MustCompile("(?ms)^~~~.*?^~~~"),
}

// blankLine ends a paragraph, and with it any code span.
var blankLine = regexp.MustCompile(`\n[ \t]*\n`)

// withoutCode is md with its fenced code blocks and code spans left out
// ("`conn[0](queued=0)`" is no link). As in CommonMark, a code span opens
// with a run of backticks and closes with the next run of the same length
// in its paragraph, on the same line or a later one: the project's
// Markdown is wrapped, and so are some of its spans. Paired line by line,
// the closing backtick of a wrapped span opened a span up to the next
// one's, and a link between the two was lost.
func withoutCode(md []byte) []byte {
	for _, f := range codeFences {
		md = f.ReplaceAll(md, nil)
	}
	out := make([]byte, 0, len(md))
	for len(md) > 0 {
		end := len(md)
		if loc := blankLine.FindIndex(md); loc != nil {
			end = loc[1]
		}
		out = appendWithoutSpans(out, md[:end])
		md = md[end:]
	}
	return out
}

// appendWithoutSpans appends paragraph p to out with each code span
// replaced by a space (so that "[a]`x`(b)" does not become a link); a run
// of backticks no run of the same length closes is text.
func appendWithoutSpans(out, p []byte) []byte {
	for {
		i := bytes.IndexByte(p, '`')
		if i < 0 {
			return append(out, p...)
		}
		out = append(out, p[:i]...)
		n := backticks(p[i:])
		if j := closingRun(p[i+n:], n); j >= 0 {
			out = append(out, ' ')
			p = p[i+n+j+n:]
		} else {
			out = append(out, p[i:i+n]...)
			p = p[i+n:]
		}
	}
}

// backticks is the length of the run of backticks b starts with.
func backticks(b []byte) int {
	n := 0
	for n < len(b) && b[n] == '`' {
		n++
	}
	return n
}

// closingRun is where in b the first run of exactly n backticks starts;
// -1 if there is none.
func closingRun(b []byte, n int) int {
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		m := backticks(b[i:])
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// docsMention is a path of a page under docs/ named in any text: a Go
// comment's "(docs/decisions.md)" as much as a Markdown link.
var docsMention = regexp.MustCompile(`(?:^|[^A-Za-z0-9_./-])(docs/[A-Za-z0-9_./-]*\.md)\b`)

// missingDocs lists "file:line: docs/x.md" for every mention, in any file
// of the handout, of a docs page the handout leaves out: a student's code
// and docs must not point to a page only instructors have.
func missingDocs(kept []file) []string {
	have := map[string]bool{}
	for _, f := range kept {
		have[f.path] = true
	}
	var out []string
	for _, f := range kept {
		for i, line := range strings.Split(string(f.data), "\n") {
			for _, m := range docsMention.FindAllStringSubmatch(line, -1) {
				if !have[m[1]] {
					out = append(out, fmt.Sprintf("%s:%d: %s", f.path, i+1, m[1]))
				}
			}
		}
	}
	return out
}
