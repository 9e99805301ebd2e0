package near

import "testing"

func TestWord(t *testing.T) {
	known := []string{"REPEAT", "PART", "SUBMISSION", "SUBMISSIONS", "J", "OUT"}
	for _, c := range []struct{ w, want string }{
		{"REPEATS", "REPEAT"}, {"PARTS", "PART"}, {"SUBMISION", "SUBMISSION"}, {"OTU", "OUT"},
		{"GOFLAGS", ""}, {"TMPDIR", ""}, {"CC", ""},
	} {
		got, ok := Word(c.w, known)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Word(%q) = %q, %v; want %q", c.w, got, ok, c.want)
		}
	}
}
