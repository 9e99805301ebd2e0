package conformance

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"zablab/mwzookeeper"
)

// Run runs the whole suite against the Services f makes, each test as the
// subtest <PartID>/<TestName> of t, so that
//
//	go test -run 'TestConformance/A5.2/' ./yourpkg/
//
// selects one part. The parts run in order, the tests of a part one after
// the other. A part whose ensemble does not start or whose first request
// gets no answer is not tried further: its remaining tests fail at once,
// saying why.
//
// Under mwzk-grade each test's outcome also goes, signed, to the grader
// (package internal/gradeseal): the grade comes from there, not from the
// output.
func Run(t *testing.T, f mwzookeeper.Factory) {
	sealed := openSeal(t)
	g := &gates{}
	for _, p := range Parts() {
		t.Run(p.ID, func(t *testing.T) {
			for i := range suite {
				s := &suite[i]
				if s.part != p.ID {
					continue
				}
				t.Run(s.name, func(t *testing.T) {
					c := &T{T: t, part: p, test: s, f: f, gates: g}
					if sealed {
						t.Cleanup(c.report)
					}
					c.gates.check(c)
					s.run(c)
				})
			}
		})
	}
}

// T is the context of one test: the testing.T, the part, and helpers
// whose failures name the part, the operation, what was expected and what
// came back.
type T struct {
	*testing.T
	part  Part
	test  *test
	f     mwzookeeper.Factory
	gates *gates

	seed int64
	rng  *rand.Rand
}

// failf ends the test: "A5.1 create /a: expected ..., got ...".
func (c *T) failf(op, expected, got string) {
	c.Helper()
	c.Fatalf("%s %s: expected %s, got %s", c.part.ID, op, expected, got)
}

// fatalf ends the test with a message prefixed by the part.
func (c *T) fatalf(format string, args ...any) {
	c.Helper()
	c.Fatalf("%s %s", c.part.ID, fmt.Sprintf(format, args...))
}

// Rand returns the test's random source. Its seed is this test's entry of
// MWZK_SEEDS ("A5.2/Linearizable=42,A5.6/Other=7", as mwzk-grade --replay
// sets it) or MWZK_SEED when set, otherwise drawn; it is logged, and a failing test prints the command
// that replays it.
func (c *T) Rand() *rand.Rand {
	if c.rng != nil {
		return c.rng
	}
	c.seed = time.Now().UnixNano() % 1_000_000_000
	if s, ok := c.seedFromEnv(); ok {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			c.fatalf("seed %q (MWZK_SEED or MWZK_SEEDS): not a number", s)
		}
		c.seed = v
	}
	c.rng = rand.New(rand.NewSource(c.seed))
	c.Logf("%s %s: random schedule with seed %d", c.part.ID, c.test.name, c.seed)
	c.Cleanup(func() {
		if c.Failed() {
			c.Logf("%s %s: replay this schedule with: %s", c.part.ID, c.test.name, c.replay())
		}
	})
	return c.rng
}

// ReplayEnv names the variable through which mwzk-grade tells the suite
// the make command that grades the same code again ("make grade
// IMPL=solution"): the suite runs in the grader's copy, where the graded
// code always sits in assignments/aufgabe5.
const ReplayEnv = "MWZK_GRADE_REPLAY"

// replay is the command that reruns this test with its seed.
func (c *T) replay() string {
	if cmd := os.Getenv(ReplayEnv); cmd != "" {
		return fmt.Sprintf("MWZK_SEED=%d %s PART=%s", c.seed, cmd, c.part.ID)
	}
	pkg := packageDir()
	run := fmt.Sprintf("MWZK_SEED=%d MWZK_GRADE=1 go test -count=1 -run 'TestConformance/%s/%s$' %s",
		c.seed, c.part.ID, c.test.name, pkg)
	// make grade-a5.N runs this one test with its whole output, as the
	// student's loop does; make grade would run the whole part.
	part := fmt.Sprintf("make grade-%s RUN=%s", strings.ToLower(c.part.ID), c.test.name)
	switch {
	case strings.HasPrefix(pkg, "./assignments/"):
		return fmt.Sprintf("MWZK_SEED=%d %s   (or: %s)", c.seed, part, run)
	case strings.HasPrefix(pkg, "./solutions/"):
		return fmt.Sprintf("MWZK_SEED=%d %s IMPL=solution   (or: %s)", c.seed, part, run)
	}
	return run
}

// packageDir is the tested package as ./dir/ relative to the module root
// (go test runs a test in its package's folder).
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(root)
		if up == root {
			return "."
		}
		root = up
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil || rel == "." {
		return "."
	}
	return "./" + filepath.ToSlash(rel) + "/"
}

// gates remember what makes the rest of a part (or of the suite) pointless
// to try, so a stub fails every test quickly instead of waiting for every
// deadline.
type gates struct {
	mu      sync.Mutex
	part    map[string]string // part -> why it stopped
	noStart map[int]string    // ensemble size -> why it did not start
	silent  string            // a Service that answered nothing at all
}

// check fails c at once if an earlier test showed that it cannot pass.
func (g *gates) check(c *T) {
	c.Helper()
	g.mu.Lock()
	why := g.part[c.part.ID]
	if why == "" {
		why = g.silent
	}
	g.mu.Unlock()
	if why != "" {
		c.Fatalf("%s %s: not run, because %s", c.part.ID, c.test.name, why)
	}
}

func (g *gates) stopPart(part, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.part == nil {
		g.part = map[string]string{}
	}
	if g.part[part] == "" {
		g.part[part] = why
	}
}

func (g *gates) startFailed(n int) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.noStart[n]
}

func (g *gates) setStartFailed(n int, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.noStart == nil {
		g.noStart = map[int]string{}
	}
	if g.noStart[n] == "" {
		g.noStart[n] = why
	}
}

func (g *gates) setSilent(why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.silent == "" {
		g.silent = why
	}
}
