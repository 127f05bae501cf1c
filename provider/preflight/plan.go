package preflight

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
)

// Operations of a planned step, as the checks see them: a replacement is a create and a delete.
const (
	Create = "create"
	Update = "update"
	Delete = "delete"
)

// Step is one resource the plan creates, updates or deletes.
type Step struct {
	// Op is Create, Update or Delete.
	Op string `json:"op"`
	// Type is the resource's Pulumi type token (aws:eks/cluster:Cluster); URN names it.
	Type string `json:"type"`
	URN  string `json:"urn"`
	// Region is the AWS region of the resource's provider (its region input, or the capability's own); "" when the
	// plan does not say.
	Region string `json:"region,omitempty"`
	// Inputs are the resource's inputs as the preview knows them (unknown values are the engine's placeholder
	// string, secrets "[secret]").
	Inputs map[string]any `json:"-"`
}

// Name is the URN's last part: the resource's name in the program.
func (s Step) Name() string { return s.URN[strings.LastIndex(s.URN, "::")+2:] }

// Input is the input key when the preview knows it as a string; "" otherwise (the engine's events give an
// unknown input as plugin.UnknownStringValue, a secret as "[secret]").
func (s Step) Input(key string) string {
	v, _ := s.Inputs[key].(string)
	if v == plugin.UnknownStringValue || v == "[secret]" {
		return ""
	}
	return v
}

// Plan is what a preview plans, in the engine's order.
type Plan []Step

// PlanOf reads the steps of a preview's engine events (`pulumi preview --event-log`, or the Automation API's
// event stream): each resource's creates, updates and deletes (a replacement gives a create and a delete; same,
// read and refresh steps are left out), with the AWS region of its provider. An error names an event the plan
// cannot be read from.
func PlanOf(events []apitype.EngineEvent) (Plan, error) {
	regions := map[string]string{} // provider URN -> region
	var pre []apitype.StepEventMetadata
	for _, e := range events {
		if e.ResourcePreEvent == nil {
			continue
		}
		m := e.ResourcePreEvent.Metadata
		if m.Type == "pulumi:providers:aws" {
			if s := state(m); s != nil {
				regions[m.URN], _ = s.Inputs["region"].(string)
			}
		}
		pre = append(pre, m)
	}
	var plan Plan
	for _, m := range pre {
		op := opOf(m.Op)
		if op == "" || strings.HasPrefix(m.Type, "pulumi:") {
			continue
		}
		s := state(m)
		if s == nil {
			return nil, fmt.Errorf("preview step %s %s has no state", m.Op, m.URN)
		}
		step := Step{Op: op, Type: m.Type, URN: m.URN, Inputs: s.Inputs}
		provider := m.Provider
		if provider == "" {
			provider = s.Provider
		}
		if i := strings.LastIndex(provider, "::"); i > 0 {
			step.Region = regions[provider[:i]]
		}
		if r := step.Input("region"); r != "" {
			step.Region = r
		}
		plan = append(plan, step)
	}
	return plan, nil
}

// opOf is the check's operation of an engine operation; "" for one that changes nothing in the cloud.
func opOf(op apitype.OpType) string {
	switch op {
	case apitype.OpCreate, apitype.OpCreateReplacement:
		return Create
	case apitype.OpUpdate:
		return Update
	case apitype.OpDelete, apitype.OpDeleteReplaced:
		return Delete
	}
	return ""
}

// state is the step's resource as it will be (as it was, for a delete).
func state(m apitype.StepEventMetadata) *apitype.StepEventStateMetadata {
	if m.New != nil {
		return m.New
	}
	return m.Old
}

// Regions are the regions the plan's steps are in, sorted.
func (p Plan) Regions() []string {
	var out []string
	for _, s := range p {
		if s.Region != "" && !slices.Contains(out, s.Region) {
			out = append(out, s.Region)
		}
	}
	slices.Sort(out)
	return out
}

// Count is how many steps of op create resources of type typ in region.
func (p Plan) Count(op, typ, region string) int {
	n := 0
	for _, s := range p {
		if s.Op == op && s.Type == typ && s.Region == region {
			n++
		}
	}
	return n
}
