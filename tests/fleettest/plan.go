package fleettest

import (
	"slices"
	"strings"
	"time"

	"github.com/pulumi/pulumi/sdk/v3/go/auto/events"
)

// Step is one engine event of an operation: the start (pre) or the end (Done: outputs) of a resource's step, and
// when the test received it.
type Step struct {
	Op, Type, URN string
	Done          bool
	At            time.Time
}

// Steps are an operation's steps in the order the engine reported them.
type Steps []Step

// Plan is an operation's steps by operation and resource type (same and read left out): what a preview plans.
type Plan map[string]map[string]int

// withSteps runs an operation that streams its engine events into the channel it is given (the Automation API
// closes it when the operation ends) and returns the operation's steps with its error.
func withSteps(operation func(chan<- events.EngineEvent) error) (Steps, error) {
	var steps Steps
	ch, done := make(chan events.EngineEvent), make(chan struct{})
	go collect(ch, &steps, done)
	err := operation(ch)
	<-done
	return steps, err
}

// collect gathers an operation's steps from its event stream.
func collect(ch <-chan events.EngineEvent, out *Steps, done chan<- struct{}) {
	defer close(done)
	for e := range ch {
		switch {
		case e.ResourcePreEvent != nil:
			m := e.ResourcePreEvent.Metadata
			*out = append(*out, Step{Op: string(m.Op), Type: m.Type, URN: m.URN, At: time.Now()})
		case e.ResOutputsEvent != nil:
			m := e.ResOutputsEvent.Metadata
			*out = append(*out, Step{Op: string(m.Op), Type: m.Type, URN: m.URN, Done: true, At: time.Now()})
		}
	}
}

// Plan counts the steps' starts by operation and type, leaving out same and read.
func (steps Steps) Plan() Plan {
	p := Plan{}
	for _, s := range steps {
		if s.Done || s.Op == "same" || s.Op == "read" {
			continue
		}
		if p[s.Op] == nil {
			p[s.Op] = map[string]int{}
		}
		p[s.Op][s.Type]++
	}
	return p
}

// URNs are the sorted URNs of the steps' starts with operation op.
func (steps Steps) URNs(op string) []string {
	var out []string
	for _, s := range steps {
		if !s.Done && s.Op == op {
			out = append(out, s.URN)
		}
	}
	slices.Sort(out)
	return out
}

// First is the index of the first step of the type ("" for any), URN suffix and doneness; -1 for none.
func (steps Steps) First(typ, suffix string, done bool) int {
	return slices.IndexFunc(steps, func(s Step) bool { return s.matches(typ, suffix, done) })
}

// Last is the index of the last such step; -1 for none.
func (steps Steps) Last(typ, suffix string, done bool) int {
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].matches(typ, suffix, done) {
			return i
		}
	}
	return -1
}

func (s Step) matches(typ, suffix string, done bool) bool {
	return (typ == "" || s.Type == typ) && strings.HasSuffix(s.URN, suffix) && s.Done == done
}

// Name is the resource name at the end of a URN.
func Name(urn string) string { return urn[strings.LastIndex(urn, "::")+2:] }
