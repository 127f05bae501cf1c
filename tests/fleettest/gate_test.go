package fleettest

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestGateAdmitsByOrder: tests released together are admitted to the runs by Order (those it names, in its order),
// then by arrival; never more at once than the slots.
func TestGateAdmitsByOrder(t *testing.T) {
	for _, slots := range []int{1, 2} {
		started, most := admitAll(slots)
		if want := []string{"TestLongest", "TestLong", "TestShort", "TestOther", "TestLast"}; slots == 1 && !slices.Equal(started, want) {
			t.Errorf("one slot: started %v, want %v", started, want)
		}
		if most != slots {
			t.Errorf("%d runs at once, want the %d slots", most, slots)
		}
	}
}

// admitAll releases five tests together through a gate of slots, each holding its run a moment, and returns the order
// they started in and the most that ran at once.
func admitAll(slots int) (started []string, most int) {
	a := newAdmission()
	a.slots, a.order = slots, []string{"TestLongest", "TestLong"}
	arrivals := []string{"TestShort", "TestOther", "TestLong", "TestLongest", "TestLast"}
	var mu sync.Mutex
	running := 0
	var wg sync.WaitGroup
	for _, name := range arrivals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, release := a.enter(name)
			mu.Lock()
			started = append(started, name)
			running++
			most = max(most, running)
			mu.Unlock()
			time.Sleep(50 * time.Millisecond)
			mu.Lock()
			running--
			mu.Unlock()
			release()
		}()
		time.Sleep(10 * time.Millisecond) // in that order, well within the gate's settling second
	}
	wg.Wait()
	return started, most
}
