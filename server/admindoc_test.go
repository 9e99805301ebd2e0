package server

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// adminDocPeers, where set (admindoc_ensemble_test.go, which imports the
// reference Service and is left out of the students' handout), starts a
// 3-peer ensemble and returns its leader and a follower by name: a lone
// fake server prints neither leader_id nor leader_ip, so only an
// ensemble shows whether every documented field is printed.
var adminDocPeers func(t *testing.T) map[string]*Server

// adminDocRow is one row of the admin API's table: its commands and the
// backquoted names in its fields cell.
type adminDocRow struct {
	commands, fields []string
}

// backquoted finds `name` spans.
var backquoted = regexp.MustCompile("`([^`]+)`")

// notFields are backquoted words of the fields cells that are values or
// notation, not fields.
var notFields = []string{"yes", "no", "[]", "peer<i>", "server.<id>=…", "zk_"}

// adminDocTable reads docs/operations.md's admin API table.
func adminDocTable(t *testing.T) (rows []adminDocRow) {
	b, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start, end := strings.Index(doc, "## The admin API"), strings.Index(doc, "## Metrics")
	if start < 0 || end < start {
		t.Fatal("docs/operations.md has no section \"## The admin API\" before \"## Metrics\"")
	}
	for _, line := range strings.Split(doc[start:end], "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		var row adminDocRow
		for _, m := range backquoted.FindAllStringSubmatch(cells[1], -1) {
			row.commands = append(row.commands, m[1])
		}
		for _, m := range backquoted.FindAllStringSubmatch(cells[2], -1) {
			if !slices.Contains(notFields, m[1]) {
				row.fields = append(row.fields, m[1])
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		t.Fatal("docs/operations.md's admin API section has no table rows")
	}
	return rows
}

// printedFields adds to seen every key of answer, at any depth.
func printedFields(answer any, seen map[string]bool) {
	switch v := answer.(type) {
	case map[string]any:
		for k, x := range v {
			seen[k] = true
			printedFields(x, seen)
		}
	case []map[string]any:
		for _, x := range v {
			printedFields(x, seen)
		}
	case []any:
		for _, x := range v {
			printedFields(x, seen)
		}
	}
}

// fieldsToDocument are the fields of an answer its row must name (the
// top-level ones and server_stats's), and those of its connections, which
// the connections row names.
func fieldsToDocument(answer map[string]any) (own, conn []string) {
	own = slices.Collect(maps.Keys(answer))
	if st, ok := answer["server_stats"].(map[string]any); ok {
		own = append(own, slices.Collect(maps.Keys(st))...)
	}
	if conns, ok := answer["connections"].([]map[string]any); ok {
		for _, c := range conns {
			conn = append(conn, slices.Collect(maps.Keys(c))...)
		}
	}
	return own, conn
}

// adminRowOf is the index of the row naming command, -1 if none does.
func adminRowOf(rows []adminDocRow, command string) int {
	return slices.IndexFunc(rows, func(r adminDocRow) bool { return slices.Contains(r.commands, command) })
}

// TestAdminAPIDocumented: docs/operations.md's admin API table is where an
// operator looks up what to ask and what comes back. It left out the
// aliases config and env, which the server answers, and stats's and
// connections's secure_connections field. Every name of every command
// must appear in its row, every field a lone fake server, an ensemble's
// leader or its follower prints (top-level, server_stats's, a
// connection's) must be named in the command's row, and every field a row
// names must be printed by one of them (monitor's fields are mntr's,
// listed under Metrics; command and error are every answer's).
func TestAdminAPIDocumented(t *testing.T) {
	rows := adminDocTable(t)
	fake := startServer(t, newFake(), "tickTime=50\nmyid=9\n"+opsProps(t)) // not an ensemble peer's id: zab.PeerFigures is per process
	servers := map[string]*Server{"a lone fake server": fake}
	if adminDocPeers != nil {
		maps.Copy(servers, adminDocPeers(t))
	}
	for _, s := range servers {
		zkClient(t, 10*time.Second, s.Addr().String()) // a connection for cons and stats to list
	}
	connRow := adminRowOf(rows, "connections")
	if connRow < 0 {
		t.Fatal("docs/operations.md's admin API table has no row for connections")
	}
	printed := make([]map[string]bool, len(rows))
	for _, c := range adminCommands() {
		i := adminRowOf(rows, c.names[0])
		if i < 0 {
			t.Errorf("docs/operations.md's admin API table has no row for the command %q", c.names[0])
			continue
		}
		for _, name := range c.names[1:] {
			if !slices.Contains(rows[i].commands, name) {
				t.Errorf("docs/operations.md's admin API row of %s does not name its alias %q", c.names[0], name)
			}
		}
		if c.names[0] == "monitor" {
			continue
		}
		if printed[i] == nil {
			printed[i] = map[string]bool{"command": true, "error": true}
		}
		for who, s := range servers {
			answer := c.answer(s)
			printedFields(answer, printed[i])
			own, conn := fieldsToDocument(answer)
			for _, field := range own {
				if field != "error" && !slices.Contains(rows[i].fields, field) {
					t.Errorf("%s prints %s's field %q, which docs/operations.md's admin API row does not name", who, c.names[0], field)
				}
			}
			for _, field := range conn {
				if !slices.Contains(rows[connRow].fields, field) {
					t.Errorf("%s prints a connection's field %q (in %s), which docs/operations.md's admin API row of connections does not name",
						who, field, c.names[0])
				}
			}
		}
	}
	if adminDocPeers == nil {
		t.Log("no ensemble in this build (the reference Service is left out): documented fields not checked for being printed")
		return
	}
	checkDocumentedPrinted(t, rows, printed)
}

// checkDocumentedPrinted fails for every field a row names that no server
// printed (printed[i]: the fields row i's commands printed).
func checkDocumentedPrinted(t *testing.T, rows []adminDocRow, printed []map[string]bool) {
	commandNames := map[string]bool{}
	for _, c := range adminCommands() {
		for _, name := range c.names {
			commandNames[name] = true
		}
	}
	for i, row := range rows {
		for _, field := range row.fields {
			// A command's name in a fields cell refers to it ("as conf shows them").
			if printed[i] != nil && !printed[i][field] && !commandNames[field] {
				t.Errorf("docs/operations.md's admin API names %q in the row of %s, and neither a lone server nor an ensemble's leader or follower prints it",
					field, row.commands[0])
			}
		}
	}
}
