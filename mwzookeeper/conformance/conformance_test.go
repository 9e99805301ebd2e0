package conformance

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
	"zablab/internal/procs"

	"zablab/mwzookeeper"
	"zablab/properties"
)

func TestPointsOfTestsAddUpToTheirPart(t *testing.T) {
	sum := map[string]int{}
	names := map[string]bool{}
	for _, ts := range Tests() {
		if ts.Points <= 0 || ts.Doc == "" {
			t.Errorf("%s/%s: %d points, doc %q: every test carries points and says what it checks", ts.Part, ts.Name, ts.Points, ts.Doc)
		}
		if names[ts.Part+"/"+ts.Name] {
			t.Errorf("%s/%s twice", ts.Part, ts.Name)
		}
		names[ts.Part+"/"+ts.Name] = true
		sum[ts.Part] += ts.Points
	}
	required, optional := 0, 0
	for _, p := range Parts() {
		if sum[p.ID] != p.Points {
			t.Errorf("part %s: its tests carry %d points, the part has %d", p.ID, sum[p.ID], p.Points)
		}
		if p.Optional {
			optional += p.Points
		} else {
			required += p.Points
		}
	}
	if required != 100 || optional != 20 {
		t.Errorf("required parts give %d points, optional %d; want 100 and 20", required, optional)
	}
}

// stub is a Service that does nothing useful, in one of several ways.
type stub struct {
	kind string // "start-fails", "unimplemented", "silent"
	host mwzookeeper.Host
}

func (s *stub) Start(_ *properties.Properties, h mwzookeeper.Host) error {
	if s.kind == "start-fails" {
		return fmt.Errorf("stub: %w", mwzookeeper.ErrUnimplemented)
	}
	s.host = h
	h.Serving(true)
	return nil
}

func (s *stub) Submit(_ *mwzookeeper.Request, reply func(*mwzookeeper.Response)) {
	if s.kind == "unimplemented" {
		reply(&mwzookeeper.Response{Err: mwzookeeper.ErrUnimplemented})
	}
}

func (s *stub) Stop() error { return nil }

// TestStubConformance runs the suite on a stub when the parent test asks
// for it (MWZK_CONFORMANCE_STUB names the stub), and is skipped otherwise.
func TestStubConformance(t *testing.T) {
	kind := os.Getenv("MWZK_CONFORMANCE_STUB")
	if kind == "" {
		t.Skip("runs only as a child of TestSuiteFailsEveryTestOfAStub")
	}
	Run(t, func() mwzookeeper.Service { return &stub{kind: kind} })
}

// TestSuiteFailsEveryTestOfAStub proves the suite can fail: on
// each kind of stub every test fails, and the child ends within its 2-minute -test.timeout.
func TestSuiteFailsEveryTestOfAStub(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite three times in child processes")
	}
	for _, kind := range []string{"start-fails", "unimplemented", "silent"} {
		t.Run(kind, func(t *testing.T) {
			start := time.Now()
			cmd := exec.Command(os.Args[0], "-test.run=^TestStubConformance$", "-test.v", "-test.timeout=2m")
			cmd.Env = append(os.Environ(), "MWZK_CONFORMANCE_STUB="+kind)
			// The child's own -test.timeout bounds it: a suite that hangs on a
			// stub dies there, and the missing FAIL lines below report it.
			outb, err := procs.Run(cmd, 3*time.Minute)
			out := bytes.NewBuffer(outb)
			took := time.Since(start)
			if err == nil {
				t.Fatalf("the suite passed on the %q stub:\n%s", kind, out.String())
			}
			for _, ts := range Tests() {
				name := "TestConformance/" + ts.Part + "/" + ts.Name
				if !regexp.MustCompile(`--- FAIL: TestStubConformance/` + regexp.QuoteMeta(ts.Part+"/"+ts.Name) + ` `).MatchString(out.String()) {
					t.Errorf("%s did not fail on the %q stub", name, kind)
				}
			}
			if !strings.Contains(out.String(), "expected") && !strings.Contains(out.String(), "not run") {
				t.Errorf("no failure says what was expected:\n%s", out.String())
			}
			t.Logf("%q stub: every test failed in %s", kind, took.Round(100*time.Millisecond))
		})
	}
}
