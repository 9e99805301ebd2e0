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

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"tickTime", "tickTime", 0}, {"tickTme", "tickTime", 1}, {"tikcTime", "tickTime", 1},
		{"ticktim", "tickTime", 2}, {"initLimt", "initLimit", 1}, {"", "abc", 3}, {"myid", "mid", 1},
	} {
		if d := Distance(tc.a, tc.b); d != tc.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, d, tc.d)
		}
	}
}
