package main

import (
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

// codeSpan is a fenced code block or an inline code span: text in them
// is shown as written, never a link ("`conn[0](queued=0)`").
var codeSpan = regexp.MustCompile("(?ms)^```.*?^```|`[^`\n]*`")

// withoutCode is md with its code blocks and spans left out.
func withoutCode(md []byte) []byte { return codeSpan.ReplaceAll(md, nil) }

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
