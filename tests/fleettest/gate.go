package fleettest

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"
)

// ParallelEnv sets how many runs the harness keeps going at once (by default, one more than the machine's CPUs): a
// run is a backend, its control planes and plugins, and spends part of its time waiting on its servers (Helm's
// waits, Argo CD's reconciles). Measured on 2 cores (tests/e2e, warm): 2 runs at once, 942 s; 3 runs, 875 s, the
// cores 97% busy.
const ParallelEnv = "FLEETTEST_PARALLEL"

// Order names the tests that take longest, longest first: when several parallel tests wait for a run, the one
// earliest here starts first, and the others after them, in their order of arrival, so that a long test never
// starts last. Go releases parallel tests together in no set order; go test's -parallel must let them all reach New
// (make test passes -parallel 64) for the order to apply.
func Order(names ...string) {
	gate.mu.Lock()
	defer gate.mu.Unlock()
	gate.order = names
}

// gate admits runs to the slots, by Order.
var gate = newAdmission()

// admission is the harness's own admission of runs: the waiting tests and the runs going.
type admission struct {
	mu      sync.Mutex
	changed *sync.Cond
	slots   int
	running int
	order   []string
	waiting []*waiter
	seq     int
	opens   time.Time // no run starts before: the moment the tests released together all arrive
}

type waiter struct {
	name string
	seq  int
}

func newAdmission() *admission {
	a := &admission{slots: runtime.NumCPU() + 1}
	if n, err := strconv.Atoi(os.Getenv(ParallelEnv)); err == nil && n > 0 {
		a.slots = n
	}
	a.changed = sync.NewCond(&a.mu)
	return a
}

// enter waits until test name may start its run, and returns how long it waited and the release of its slot.
func (a *admission) enter(name string) (time.Duration, func()) {
	start := time.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.opens.IsZero() {
		const settle = time.Second
		a.opens = start.Add(settle)
		time.AfterFunc(settle, func() { a.mu.Lock(); a.changed.Broadcast(); a.mu.Unlock() })
	}
	w := &waiter{name: name, seq: a.seq}
	a.seq++
	a.waiting = append(a.waiting, w)
	for time.Now().Before(a.opens) || a.running >= a.slots || a.next() != w {
		a.changed.Wait()
	}
	a.waiting = slices.DeleteFunc(a.waiting, func(o *waiter) bool { return o == w })
	a.running++
	a.changed.Broadcast()
	return time.Since(start), func() {
		a.mu.Lock()
		a.running--
		a.changed.Broadcast()
		a.mu.Unlock()
	}
}

// next is the waiter to start next: the earliest in Order, then the earliest to arrive.
func (a *admission) next() *waiter {
	rank := func(w *waiter) int {
		if i := slices.Index(a.order, w.name); i >= 0 {
			return i
		}
		return len(a.order)
	}
	best := a.waiting[0]
	for _, w := range a.waiting[1:] {
		if r, b := rank(w), rank(best); r < b || r == b && w.seq < best.seq {
			best = w
		}
	}
	return best
}
