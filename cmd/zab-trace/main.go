package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"zablab/zab/trace"
	"zablab/zab/trace/timeline"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("zab-trace", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("html", "", "the page to write (required)")
	title := fs.String("title", "", "the page's heading (default: the peers and the date)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: zab-trace --html out.html peer1.trace [peer2.trace ...]")
		return 2
	}
	var files [][]trace.Event
	for _, path := range fs.Args() {
		evs, err := trace.ReadFile(path)
		if err != nil {
			fmt.Fprintln(stderr, "zab-trace:", err)
			return 1
		}
		if len(evs) == 0 {
			fmt.Fprintf(stderr, "zab-trace: %s: no events (was trace.file set for that peer?)\n", path)
			return 1
		}
		files = append(files, evs)
	}
	merged, st := trace.Merge(files)
	p := &timeline.Page{Title: *title, Events: merged, Real: true,
		Summary: fmt.Sprintf("%d peers' traces merged: %s", len(files), st),
		Notes: []string{"ordered by the messages (every receipt after its send), not by the peers' clocks; " +
			"the left column shows the first event's clock of each row", "files: " + names(fs.Args())}}
	if p.Title == "" {
		p.Title = "zab-trace " + time.Unix(0, merged[0].Time).Format("2006-01-02 15:04:05")
	}
	if st.Broken > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d receipts could not be matched consistently and are drawn without their send", st.Broken))
	}
	if err := timeline.WriteFile(*out, p); err != nil {
		fmt.Fprintln(stderr, "zab-trace:", err)
		return 1
	}
	fmt.Fprintf(stdout, "zab-trace: %s\nzab-trace: wrote %s; open it in a browser\n", st, *out)
	return 0
}

func names(paths []string) string {
	s := ""
	for i, p := range paths {
		if i > 0 {
			s += ", "
		}
		s += filepath.Base(p)
	}
	return s
}
