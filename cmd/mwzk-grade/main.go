package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"zablab/mwzookeeper/conformance"
)

// options are mwzk-grade's flags.
type options struct {
	impl    string // assignment or solution
	repeat  int
	part    string
	json    string
	overlay string
	variant string
	timeout time.Duration
	list    bool
}

// implDirs are the packages --impl names.
var implDirs = map[string]string{
	"assignment": "./assignments/aufgabe5/",
	"solution":   "./solutions/aufgabe5/",
}

// errUsage is a bad command line; errNoRun a suite that did not run.
var (
	errUsage = errors.New("usage")
	errNoRun = errors.New("the tests did not run")
)

func main() {
	if err := mainErr(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mwzk-grade:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func mainErr(args []string, stdout io.Writer) error {
	var o options
	fs := pflag.NewFlagSet("mwzk-grade", pflag.ContinueOnError)
	fs.StringVar(&o.impl, "impl", "assignment", "what to grade: assignment (assignments/aufgabe5) or solution (solutions/aufgabe5)")
	fs.IntVar(&o.repeat, "repeat", 1, "run the suite N times; a test that fails in any run earns nothing")
	fs.StringVar(&o.part, "part", "", "grade only this part, e.g. A5.2")
	fs.StringVar(&o.json, "json", "grade.json", "write the grade as JSON to this file (\"\" for none)")
	fs.StringVar(&o.overlay, "overlay", "", "a go build -overlay file to grade with")
	fs.StringVar(&o.variant, "variant", "", "grade a known-bad variant of the solution: a diff under solutions/variants/")
	fs.DurationVar(&o.timeout, "timeout", 5*time.Minute, "go test -timeout of one run")
	fs.BoolVar(&o.list, "list", false, "list the parts and tests with their points, and run nothing")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "mwzk-grade grades an MWZooKeeper Service with the conformance suite.\n\nUsage:\n  mwzk-grade [flags]\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if o.list {
		printTests(stdout)
		return nil
	}
	if o.variant != "" && !fs.Changed("impl") {
		o.impl = "solution"
	}
	if err := o.check(); err != nil {
		return err
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	rep, err := grade(root, o, stdout)
	if err != nil {
		return err
	}
	printReport(stdout, rep)
	if o.json != "" {
		if err := writeJSON(rep, o.json); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nwrote %s\n", o.json)
	}
	return nil
}

func (o *options) check() error {
	if _, ok := implDirs[o.impl]; !ok {
		return fmt.Errorf("%w: --impl %q: want assignment or solution", errUsage, o.impl)
	}
	if o.repeat < 1 {
		return fmt.Errorf("%w: --repeat %d: want at least 1", errUsage, o.repeat)
	}
	if o.part != "" {
		for _, p := range conformance.Parts() {
			if p.ID == o.part {
				return nil
			}
		}
		return fmt.Errorf("%w: --part %q: want one of A5.1 ... A5.7", errUsage, o.part)
	}
	return nil
}

// grade runs the suite o.repeat times and scores it. Progress goes to log.
func grade(root string, o options, log io.Writer) (Report, error) {
	overlay := o.overlay
	if o.variant != "" {
		v, err := loadVariant(o.variant)
		if err != nil {
			return Report{}, err
		}
		dir, err := os.MkdirTemp("", "mwzk-grade-")
		if err != nil {
			return Report{}, err
		}
		defer os.RemoveAll(dir)
		if overlay, err = v.overlay(root, dir); err != nil {
			return Report{}, err
		}
		if o.overlay != "" {
			if overlay, err = mergeOverlay(dir, overlay, o.overlay); err != nil {
				return Report{}, err
			}
		}
		fmt.Fprintf(log, "mwzk-grade: variant %s: %s (must lose %v)\n", o.variant, v.about, v.loses)
	}
	var runs []*run
	for k := 0; k < o.repeat; k++ {
		r, err := goTest(root, implDirs[o.impl], o.part, overlay, o.timeout, log)
		if err != nil {
			return Report{}, err
		}
		runs = append(runs, r)
	}
	rep := score(runs, o.part)
	rep.Impl, rep.Package, rep.Variant = o.impl, implDirs[o.impl], o.variant
	return rep, nil
}

// moduleRoot is the folder of the go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no go.mod in %s or above: run mwzk-grade inside the repository", dir)
		}
		d = up
	}
}
