package core_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
)

// TestJSONLogNamesRolesAndZxids: with log.format=json (docs/operations.md:
// "for machines") a role change must carry the role's name and the zxid
// as the text format shows them ("LEADING", "0x100000000"); the fields
// came out as numbers ("role":2, "zxid":4294967296), so a log query for
// role "LEADING" found nothing.
func TestJSONLogNamesRolesAndZxids(t *testing.T) {
	var out bytes.Buffer
	lg := logrus.New()
	lg.SetOutput(&out)
	lg.SetFormatter(&logrus.JSONFormatter{})
	lg.SetLevel(logrus.InfoLevel)
	cl := newCluster(t, 3, 0)
	cl.logger, cl.tickLen = lg, time.Second
	cl.start(1, 2, 3)
	cl.until("a leader", 60, func() bool { return cl.leader() != 0 })
	old := cl.leader()
	cl.crash(old) // its followers log "becoming LOOKING" with from=FOLLOWING
	cl.until("a new leader", 60, func() bool { l := cl.leader(); return l != 0 && l != old })
	seen, froms := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not a JSON line: %q: %v", line, err)
		}
		if !strings.HasPrefix(e["msg"].(string), "becoming ") {
			continue
		}
		seen++
		role, _ := e["role"].(string)
		zxid, _ := e["zxid"].(string)
		from, fromOK := e["from"]
		if fromOK {
			froms++
		}
		if !strings.Contains("LOOKING FOLLOWING LEADING", role) || role == "" || !strings.HasPrefix(zxid, "0x") ||
			(fromOK && !strings.Contains("LOOKING FOLLOWING LEADING", from.(string))) {
			t.Errorf("JSON line %s: want role (and from) as LOOKING/FOLLOWING/LEADING and zxid as 0x…", line)
		}
	}
	if seen == 0 || froms == 0 {
		t.Fatalf("%d \"becoming …\" lines logged, %d with from:\n%s", seen, froms, out.String())
	}
}
