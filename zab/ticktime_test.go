package zab

import (
	"errors"
	"strings"
	"testing"

	"zablab/properties"
)

// TestTickTimeErrorStatesItsBound: tickTime=-1 said "want a whole number
// of milliseconds >= 0", a bound that 0 to 9 then failed with another
// message; an operator fixing the first error should learn the real
// minimum, MinTickTime, at once. A value that is no number keeps the
// getter's message.
func TestTickTimeErrorStatesItsBound(t *testing.T) {
	for v, want := range map[string]string{
		"-1":  "must be at least 10 ms",
		"0":   "must be at least 10 ms",
		"9":   "must be at least 10 ms",
		"-1x": "want a whole number of milliseconds",
		"2s":  "want a whole number of milliseconds",
	} {
		p, err := properties.LoadString("tickTime=" + v + "\n")
		if err != nil {
			t.Fatal(err)
		}
		_, err = TickTime(p)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `"tickTime"`) ||
			!strings.Contains(err.Error(), v) {
			t.Errorf("tickTime=%s: %v; want an error naming the key, the value and %q", v, err, want)
		}
		if want == "must be at least 10 ms" && !errors.Is(err, ErrConfig) {
			t.Errorf("tickTime=%s: %v; want ErrConfig", v, err)
		}
	}
	if d, err := TickTime(mustProps(t, "tickTime=10\n")); err != nil || d != MinTickTime {
		t.Errorf("tickTime=10: %v, %v; want %v", d, err, MinTickTime)
	}
}

func mustProps(t *testing.T, text string) *properties.Properties {
	t.Helper()
	p, err := properties.LoadString(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
