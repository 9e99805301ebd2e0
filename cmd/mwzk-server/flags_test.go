package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBadFlagsPrintUsage: every bad command line says what is wrong, once,
// followed by the usage, and exits 2; --help prints the usage and exits 0.
func TestBadFlagsPrintUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string // in the first line
	}{
		{[]string{"--bogus"}, exitUsage, "unknown flag: --bogus"},
		{[]string{"--config"}, exitUsage, "flag needs an argument: --config"},
		{[]string{"--config", "x.properties", "--impl", "bogus"}, exitUsage, `--impl "bogus": want one of`},
		{nil, exitUsage, "--config is required"},
		{[]string{"--config", "a", "b"}, exitUsage, `unexpected argument "b"`},
		{[]string{"--help"}, exitOK, "usage: mwzk-server"},
	} {
		var out bytes.Buffer
		code := run(tc.args, &out)
		first, _, _ := strings.Cut(out.String(), "\n")
		if code != tc.code || !strings.Contains(first, tc.want) || !strings.Contains(out.String(), "usage: mwzk-server --config") {
			t.Errorf("mwzk-server %q: exit %d, output:\n%s\nwant exit %d, first line with %q, then the usage", tc.args, code, out.String(), tc.code, tc.want)
		}
		if n := strings.Count(out.String(), "usage:"); n != 1 {
			t.Errorf("mwzk-server %q: %d usage lines, want 1:\n%s", tc.args, n, out.String())
		}
	}
}
