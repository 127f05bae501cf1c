package capability

import (
	"testing"
	"time"
)

// TestPollBacksOff: the plugin asks EKS after a second, then at twice the previous interval, never less often than
// every 10 s, so a capability EKS settles in seconds is seen in seconds and a slow create costs few calls.
func TestPollBacksOff(t *testing.T) {
	var got []time.Duration
	for i, d := 0, firstPoll; i < 7; i, d = i+1, next(d) {
		got = append(got, d)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second,
		10 * time.Second, 10 * time.Second}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("intervals %v, want %v", got, want)
		}
	}
}
