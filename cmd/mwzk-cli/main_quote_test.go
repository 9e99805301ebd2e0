package main

import (
	"bytes"
	"testing"

	"zablab/client/shell"
)

// TestQuoteBothQuoteKinds: a one-shot argument holding both kinds of
// quote ("mwzk-cli create /a 'x\"y'\"'\"'z'") cannot be rejoined by quote so
// that the shell splits it back: the command line the shell gets does not
// even parse (or, for other data, silently loses the quotes).
func TestQuoteBothQuoteKinds(t *testing.T) {
	var errOut bytes.Buffer
	sh := shell.New("127.0.0.1:1", shell.Options{Err: &errOut})
	line := quote([]string{"create", "/a", `x"y'z`})
	if _, err := sh.Exec(line); err != nil && errOut.Len() > 0 && bytes.Contains(errOut.Bytes(), []byte("quote")) {
		t.Fatalf("quote(create /a x\"y'z) = %s, which the shell cannot split back: %s", line, errOut.String())
	}
}

// TestQuoteRoundTrip: what quote joins, the shell splits back word for word.
func TestQuoteRoundTrip(t *testing.T) {
	args := []string{"create", "/a", `x"y'z`, `'`, `"`, `a b`, `it's`, `say "hi"`, ``, `''""`}
	got, err := shell.Split(quote(args))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(args) {
		t.Fatalf("split(quote(%q)) = %q", args, got)
	}
	for i := range args {
		if got[i] != args[i] {
			t.Fatalf("split(quote(%q)) = %q", args, got)
		}
	}
}
