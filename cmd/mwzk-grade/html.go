package main

import (
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strings"
)

// reportPage is one submission's report as a single HTML page with its
// style inline: a student opens it from a file, nothing is fetched. A grade
// of one part shows only the total it has (Report.ShowsRequired), as report.txt.
var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"replay":       replayHint,
	"again":        againLine,
	"notesHeading": func() string { return notesHeading },
	"pct": func(s Score) int {
		if s.Possible == 0 {
			return 0
		}
		return 100 * s.Earned / s.Possible
	},
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Grade of {{.Submission}}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222;padding:0 1em}
h1{font-size:1.5em;margin-bottom:.2em} .meta{color:#666;font-size:.85em}
table{border-collapse:collapse;margin:1em 0;width:100%} td,th{padding:.3em .6em;text-align:left;border-bottom:1px solid #ddd}
.bar{background:#eee;width:10em;height:.8em;display:inline-block;vertical-align:middle}
.bar i{background:#3a7;height:100%;display:block}
.status{font-weight:bold;padding:.15em .5em;border-radius:.3em}
.graded{background:#dfd} .refused,.compile-error,.timeout,.error{background:#fdd}
.test{border-left:4px solid #c33;padding:.2em .8em;margin:1em 0;background:#fafafa}
.test.flaky{border-color:#e90} pre{white-space:pre-wrap;font-size:.85em;margin:.3em 0}
code{background:#f0f0f0;padding:0 .2em}
</style></head><body>
<h1>Grade of {{.Submission}}</h1>
<p><span class="status {{.Status}}">{{.Status}}</span>
&nbsp;{{if .ShowsRequired}} required parts <b>{{.Required.Earned}} / {{.Required.Possible}}</b>{{end}}{{if and .ShowsRequired .ShowsBonus}},{{end}}{{if .ShowsBonus}} bonus <b>{{.Bonus.Earned}} / {{.Bonus.Possible}}</b>{{end}}</p>
{{if .Compile}}<h2>Does not compile</h2><p>No test was run. The compiler says:</p><pre>{{range .Compile}}{{.}}
{{end}}</pre>{{end}}
{{if eq .Status "refused"}}<h2>Refused</h2><p>Nothing was run:</p><pre>{{range .Problems}}{{.}}
{{end}}</pre>{{template "notes" .}}{{else}}
<table><tr><th>part</th><th>points</th><th></th><th>title</th></tr>
{{range .Parts}}<tr><td>{{.ID}}</td><td>{{.Score.Earned}} / {{.Score.Possible}}</td>
<td><span class="bar"><i style="width:{{pct .Score}}%"></i></span></td><td>{{.Title}}</td></tr>
{{end}}</table>
{{template "notes" .}}
{{if .NeverStarted}}<p>No test ran{{if not .Compile}} (the problems below say why){{end}}.</p>{{else}}
{{$rep := .}}{{range $p := .Parts}}{{range .Tests}}{{if ne .Status "pass"}}
<div class="test {{.Status}}"><b>{{$p.ID}}/{{.Name}}</b> ({{.Points}} points{{if .Extra}}, hidden test{{end}}): {{.Status}}{{if gt .Runs 1}}, passed {{.Passes}} of {{.Runs}} runs{{end}}
<pre>{{range .Failure}}{{.}}
{{end}}</pre>{{range .Pictures}}<p>Picture of the failure: <a href="{{.}}">{{.}}</a></p>{{end}}{{if .Extra}}A hidden test: its code is the instructor's, so it cannot be replayed in the hand-in's own checkout.{{else}}Replay in the hand-in's own checkout: <code>{{replay $rep $p.ID .}}</code>{{end}}</div>
{{end}}{{end}}{{end}}{{end}}
{{if .Problems}}<h2>Problems outside the tests</h2><pre>{{range .Problems}}{{.}}
{{end}}</pre>{{end}}{{end}}
{{if .Ignored}}<h2>Ignored</h2><p>Only <code>{{.GradedDir}}*.go</code> is graded, with the grader's own tests.</p><pre>{{range .Ignored}}{{.}}
{{end}}</pre>{{end}}
{{with again .}}<p>This hand-in again, here: <code>{{.}}</code></p>{{end}}
<p class="meta">Graded files in <code>{{.GradedDir}}</code>: {{range .Files}}<code>{{.}}</code> {{end}}<br>
sha256 {{.SHA256}} · grader {{.Grader}} · {{.GoVersion}} · started {{.Date}} · {{.Seconds}} s · {{.Repeat}} run(s)</p>
</body></html>
{{define "notes"}}{{if .Notes}}<h2>{{notesHeading}}</h2><pre>{{range .Notes}}{{.}}
{{end}}</pre>{{end}}{{end}}`))

// replayHint is the command that replays one failing test with the seed
// of the run whose failure the report shows (with --repeat an earlier run
// may have passed with another seed), in the student's own checkout, of
// the code that was graded (IMPL).
func replayHint(rep *Report, part string, t TestGrade) string {
	cmd := fmt.Sprintf("make grade-%s RUN=%s", strings.ToLower(part), t.Name)
	switch {
	case rep.Variant != "":
		// grade-a5.N would run the reference without the variant's change.
		cmd = fmt.Sprintf("make grade-variant V=%s PART=%s", strings.TrimSuffix(filepath.Base(rep.Variant), ".diff"), part)
	case rep.Impl == "solution":
		cmd += " IMPL=solution"
	}
	// Always said: without the race detector a halted test passes (the
	// race is what failed it), and with it one graded without could halt.
	cmd += raceWord(rep.Race)
	if k := t.FailedRun - 1; k >= 0 && k < len(rep.Seeds) {
		if s, ok := rep.Seeds[k][part+"/"+t.Name]; ok {
			return fmt.Sprintf("MWZK_SEED=%d %s", s, cmd)
		}
	}
	return cmd
}

// againLine is the command of printAgain for the page, empty where the
// text report has none (a self-grade or a variant).
func againLine(rep *Report) string {
	if rep.Origin != "" && rep.Variant == "" {
		return againCommand(rep)
	}
	return ""
}

// writeHTML writes rep as one self-contained page.
func writeHTML(file string, rep *Report) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := reportPage.Execute(f, rep); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
