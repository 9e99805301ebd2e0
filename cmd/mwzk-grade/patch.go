package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A small unified-diff applier: enough for the known-bad variants, which
// are diffs against solutions/aufgabe5 made with diff -u or git diff. A
// hunk's context must match exactly; it may have moved (the reference
// changes), so it is searched for near the line the hunk names.

var errPatch = errors.New("patch does not apply")

// filePatch is the hunks for one file.
type filePatch struct {
	path  string // repository-relative, from the +++ line
	hunks []hunk
}

type hunk struct {
	oldStart    int      // 1-based line of the hunk in the original
	old, new    []string // lines before and after
	lead, trail int      // context lines at the start and at the end
}

// parseDiff reads a unified diff. Text before the first "--- " line is a
// preamble (the variant's description).
func parseDiff(text string) (preamble []string, files []filePatch, err error) {
	lines := strings.SplitAfter(text, "\n")
	i := 0
	for ; i < len(lines) && !strings.HasPrefix(lines[i], "--- "); i++ {
		preamble = append(preamble, strings.TrimRight(lines[i], "\n"))
	}
	for i < len(lines) {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "--- "):
			i++
			if i >= len(lines) || !strings.HasPrefix(lines[i], "+++ ") {
				return nil, nil, fmt.Errorf("%w: line %d: --- without +++", errPatch, i)
			}
			files = append(files, filePatch{path: diffPath(lines[i][4:])})
			i++
		case strings.HasPrefix(l, "@@ "):
			if len(files) == 0 {
				return nil, nil, fmt.Errorf("%w: line %d: hunk before a file header", errPatch, i+1)
			}
			h, next, err := parseHunk(lines, i)
			if err != nil {
				return nil, nil, err
			}
			f := &files[len(files)-1]
			f.hunks = append(f.hunks, h)
			i = next
		default:
			i++ // "diff --git", "index", blank lines between files
		}
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("%w: no file in the diff", errPatch)
	}
	return preamble, files, nil
}

// diffPath strips "b/" and a trailing tab and timestamp from a +++ name.
func diffPath(s string) string {
	s = strings.TrimRight(s, "\n")
	if tab := strings.IndexByte(s, '\t'); tab >= 0 {
		s = s[:tab]
	}
	return strings.TrimPrefix(s, "b/")
}

// parseHunk reads the hunk whose header is lines[i].
func parseHunk(lines []string, i int) (hunk, int, error) {
	var h hunk
	hdr := lines[i]
	f := strings.Fields(hdr)
	if len(f) < 3 || !strings.HasPrefix(f[1], "-") {
		return h, 0, fmt.Errorf("%w: line %d: bad hunk header %q", errPatch, i+1, strings.TrimSpace(hdr))
	}
	start, _, _ := strings.Cut(f[1][1:], ",")
	n, err := strconv.Atoi(start)
	if err != nil {
		return h, 0, fmt.Errorf("%w: line %d: bad hunk header %q", errPatch, i+1, strings.TrimSpace(hdr))
	}
	h.oldStart = n
	i++
	for ; i < len(lines); i++ {
		l := lines[i]
		if l == "" || strings.HasPrefix(l, "@@ ") || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "diff ") {
			break
		}
		body := l[1:]
		switch l[0] {
		case ' ':
			h.old, h.new = append(h.old, body), append(h.new, body)
			if len(h.old) == len(h.new) && h.lead == len(h.old)-1 {
				h.lead++
			}
			h.trail++
		case '-':
			h.old, h.trail = append(h.old, body), 0
		case '+':
			h.new, h.trail = append(h.new, body), 0
		case '\\': // "\ No newline at end of file"
			trimLast(&h.old)
			trimLast(&h.new)
		case '\n':
			h.old, h.new = append(h.old, "\n"), append(h.new, "\n")
			if len(h.old) == len(h.new) && h.lead == len(h.old)-1 {
				h.lead++
			}
			h.trail++
		default:
			return h, 0, fmt.Errorf("%w: line %d: %q in a hunk", errPatch, i+1, strings.TrimSpace(l))
		}
	}
	return h, i, nil
}

func trimLast(ls *[]string) {
	if n := len(*ls); n > 0 {
		(*ls)[n-1] = strings.TrimSuffix((*ls)[n-1], "\n")
	}
}

// apply applies fp's hunks to the file's text.
func (fp *filePatch) apply(text string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var out []string
	pos, shift := 0, 0 // next unconsumed line; how far hunks moved
	for k, h := range fp.hunks {
		at := find(lines, h.old, pos, h.oldStart-1+shift)
		for fuzz := 1; at < 0 && fuzz <= maxFuzz; fuzz++ {
			h = h.fuzzed(fuzz)
			at = find(lines, h.old, pos, h.oldStart-1+shift)
		}
		if at < 0 {
			return "", fmt.Errorf("%w: %s, hunk %d (line %d): its context is not in the file (the reference changed: regenerate the variant)",
				errPatch, fp.path, k+1, h.oldStart)
		}
		shift = at - (h.oldStart - 1)
		out = append(out, lines[pos:at]...)
		out = append(out, h.new...)
		pos = at + len(h.old)
	}
	out = append(out, lines[pos:]...)
	return strings.Join(out, ""), nil
}

// maxFuzz is how many context lines at each end of a hunk may be
// ignored when the hunk does not match as it is (GNU patch's fuzz factor).
const maxFuzz = 2

// fuzzed returns h without up to fuzz context lines at each end.
func (h hunk) fuzzed(fuzz int) hunk {
	lead, trail := min(fuzz, h.lead), min(fuzz, h.trail)
	if lead+trail >= len(h.old) {
		return h
	}
	return hunk{oldStart: h.oldStart + lead, lead: h.lead - lead, trail: h.trail - trail,
		old: h.old[lead : len(h.old)-trail], new: h.new[lead : len(h.new)-trail]}
}

// find returns where old occurs in lines at or after from, the nearest to
// want, or -1.
func find(lines, old []string, from, want int) int {
	match := func(at int) bool {
		if at < from || at+len(old) > len(lines) {
			return false
		}
		for j, l := range old {
			if lines[at+j] != l {
				return false
			}
		}
		return true
	}
	for d := 0; d <= len(lines); d++ {
		if match(want - d) {
			return want - d
		}
		if match(want + d) {
			return want + d
		}
	}
	return -1
}
