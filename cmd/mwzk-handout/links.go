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
		for _, m := range mdLink.FindAllSubmatch(f.data, -1) {
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
