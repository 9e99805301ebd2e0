package server

import (
	"os"
	"strings"
	"testing"
)

// TestAdminAPIDocumented: docs/operations.md's admin API table is where an
// operator looks up what to ask and what comes back. It left out the
// aliases config and env, which the server answers, and stats's and
// connections's secure_connections field. Every name of every command,
// and every top-level field its answer has, must appear there in
// backquotes (monitor's fields are mntr's, listed under Metrics).
func TestAdminAPIDocumented(t *testing.T) {
	b, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start, end := strings.Index(doc, "## The admin API"), strings.Index(doc, "## Metrics")
	if start < 0 || end < start {
		t.Fatal("docs/operations.md has no section \"## The admin API\" before \"## Metrics\"")
	}
	section := doc[start:end]
	s := startServer(t, newFake(), "tickTime=50\nmyid=1\n"+opsProps(t))
	for _, c := range adminCommands() {
		for _, name := range c.names {
			if !strings.Contains(section, "`"+name+"`") {
				t.Errorf("docs/operations.md's admin API does not name the command %q (of %s)", name, c.names[0])
			}
		}
		if c.names[0] == "monitor" {
			continue
		}
		for field := range c.answer(s) {
			if !strings.Contains(section, "`"+field+"`") {
				t.Errorf("docs/operations.md's admin API does not name %s's field %q", c.names[0], field)
			}
		}
	}
}
