package campaign

import (
	"testing"
	"time"
)

// TestMinimizeStopsAtItsBounds: a shrinker that always offers a smaller
// scenario, kept every time, stops at the candidate budget, and at once when
// its time is already up; without either bound it reaches the bottom.
func TestMinimizeStopsAtItsBounds(t *testing.T) {
	t.Parallel()
	down := func(n int) []int {
		if n == 0 {
			return nil
		}
		return []int{n - 1}
	}
	keep := func(int) bool { return true }
	for _, tc := range []struct {
		name   string
		budget int
		until  time.Time
		want   int
	}{
		{name: "no bound", budget: 1 << 20, want: 0},
		{name: "budget", budget: 10, want: 990},
		{name: "time up", budget: 1 << 20, until: time.Now().Add(-time.Second), want: 1000},
	} {
		got, tried := Minimize(1000, down, tc.budget, tc.until, keep)
		if got != tc.want || tried != 1000-tc.want {
			t.Errorf("%s: shrank 1000 to %d after %d candidates, want %d after %d", tc.name, got, tried, tc.want, 1000-tc.want)
		}
	}
}
