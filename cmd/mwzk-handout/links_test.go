package main

import (
	"slices"
	"testing"
)

// TestBrokenLinkBesideWrappedCode: a code span may wrap onto the next line
// (the project's Markdown is wrapped at about 100 columns, and README.md
// and docs/*.md have such spans). Paired line by line, the closing
// backtick of a wrapped span opened a "span" that ran to the next span's
// opening backtick, and a broken link between them went unreported. Code
// spans of two backticks and code in the link's text are code all the same.
func TestBrokenLinkBesideWrappedCode(t *testing.T) {
	kept := []file{
		{path: "README.md", data: []byte("Run `make\ntest` as [the guide](docs/gone.md) says, then `make grade`.\n\n" +
			"A span of two: ``a ` b`` and [`ops`](docs/ops.md), not ``x[0](y.md)``.\n\n" +
			"A lone ` backtick, then [left](docs/left.md).\n")},
		{path: "docs/ops.md"},
	}
	got := brokenLinks(kept)
	want := []string{
		"README.md links docs/gone.md, which the handout leaves out",
		"README.md links docs/left.md, which the handout leaves out",
	}
	if !slices.Equal(got, want) {
		t.Errorf("brokenLinks = %q, want %q", got, want)
	}
}

// TestLinkInATildeFenceIsCode: a fenced block of tildes is code as much as
// one of backticks; a link-shaped text in it ("[i](x.md)" in a Go snippet)
// is no link, and a real link after the block still is one.
func TestLinkInATildeFenceIsCode(t *testing.T) {
	kept := []file{{path: "README.md", data: []byte("~~~go\nv := a[i](x.md)\n~~~\n\nSee [gone](docs/gone.md).\n")}}
	got := brokenLinks(kept)
	want := []string{"README.md links docs/gone.md, which the handout leaves out"}
	if !slices.Equal(got, want) {
		t.Errorf("brokenLinks = %q, want %q", got, want)
	}
}
