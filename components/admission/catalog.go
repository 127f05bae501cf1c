package admission

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Guard is one row of the fleet's table of admission guards: a kind of policy a component writes, with an example
// built from that component's facts, so that its group, resource, operations and exemptions are read from what the
// component writes, never restated. Every component that writes a guard lists it (List); docs/security.md's table
// of guards is generated from the list (Table), and the contract tests fail for a guard without an attack case.
type Guard struct {
	// Name is the policy's name, with the part that varies in angle brackets ("tenant-<tenant>-services").
	Name string
	// Where is the cluster the policy is written to ("the hub", "each cluster a tenant selects").
	Where string
	// Writer is the component that writes it ("GitOpsBridge").
	Writer string
	// Pins says, in a line, what every writer it binds is held to.
	Pins string
	// Example builds the policy from sample facts, and its exemptions.
	Example func() (Policy, Exemptions)
}

var (
	mu     sync.Mutex
	guards []Guard
)

// List adds guards to the table (a component's package does, in a variable's initialiser) and returns true.
func List(g ...Guard) bool {
	mu.Lock()
	defer mu.Unlock()
	guards = append(guards, g...)
	return true
}

// Guards are the guards of every component package linked into the program, sorted by name.
func Guards() []Guard {
	mu.Lock()
	defer mu.Unlock()
	return slices.SortedFunc(slices.Values(guards), func(a, b Guard) int { return cmp.Compare(a.Name, b.Name) })
}

// Describe says whom e exempts, in words.
func (e Exemptions) Describe() string {
	var out []string
	if e.Deployer != "" {
		out = append(out, "the deployer")
	}
	if e.Masters {
		out = append(out, MastersGroup)
	}
	if e.SystemDeleters {
		out = append(out, "kube-controller-manager deleting")
	}
	if e.EKS {
		out = append(out, "EKS's own ("+EKSUserPrefix+"*)")
	}
	if len(e.Writers) > 0 {
		out = append(out, "named writers for what is theirs")
	}
	if len(out) == 0 {
		return "no one"
	}
	if e.DeletionsOnly {
		return "at a deletion: " + strings.Join(out, ", ") + "; no one otherwise"
	}
	return strings.Join(out, ", ")
}

// Table is the guards as a Markdown table: name, cluster, kind and operations (with the reason a guard does not
// see DELETE), exemptions, what it pins, writer.
func Table() string {
	var b strings.Builder
	b.WriteString("\n| Guard | Where | Kind (operations) | Exempts | Pins | Written by |\n|---|---|---|---|---|---|\n")
	for _, g := range Guards() {
		p, e := g.Example()
		group := p.Group
		if group == "" {
			group = "core"
		}
		ops := strings.Join(p.Ops(), ", ")
		if p.DeleteUnguarded != "" {
			ops += "; not DELETE: " + p.DeleteUnguarded
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s/%s (%s) | %s | %s | %s |\n", g.Name, g.Where, group, strings.Join(p.Resources(), ", "),
			ops, e.Describe(), g.Pins, g.Writer)
	}
	return b.String()
}
