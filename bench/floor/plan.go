package floor

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/resource/stack"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/tokens"
)

// Resource is one custom resource (or provider) of the floor.
type Resource struct {
	// URN is its URN in the stack it was taken from.
	URN string
	// Type is its type token, for example aws:ec2/vpc:Vpc or pulumi:providers:aws.
	Type string
	// Name is its name in the floor: the URN's name, with "-<n>" appended to the second and later resources of
	// a type that share a name (they had different parents).
	Name string
	// Provider is the URN of its provider resource; empty for a provider.
	Provider string
	// Inputs are its inputs as the stack recorded them (after the provider's Check), secrets kept secret.
	Inputs resource.PropertyMap
	// DependsOn are the URNs of the floor resources it must come after: its recorded dependencies, with a
	// dependency on a component replaced by the custom resources under that component.
	DependsOn []string
}

// Plan reads a stack export (`pulumi stack export --show-secrets`) and returns its custom resources in
// deployment order (dependencies first), with the providers of their packages. Secrets must be in plaintext: an
// export without --show-secrets is an error.
func Plan(d apitype.UntypedDeployment) ([]Resource, error) {
	var dep apitype.DeploymentV3
	if err := json.Unmarshal(d.Deployment, &dep); err != nil {
		return nil, fmt.Errorf("stack export: %w", err)
	}
	children := map[string][]string{} // component URN -> custom resources under it, at any depth
	parents := map[string]string{}
	component := map[string]bool{}
	for _, r := range dep.Resources {
		parents[string(r.URN)] = string(r.Parent)
		component[string(r.URN)] = !r.Custom
	}
	for _, r := range dep.Resources {
		if !r.Custom {
			continue
		}
		for p := parents[string(r.URN)]; p != ""; p = parents[p] {
			children[p] = append(children[p], string(r.URN))
		}
	}

	// Providers of packages with resources are kept, used or not (an unused one still configures its plugin,
	// in the fleet as here); those of component-only packages (fleet, eks, awsx) are not.
	packages := map[string]bool{}
	for _, r := range dep.Resources {
		if r.Custom && !isProvider(r.Type) {
			packages[r.Type.Module().Package().String()] = true
		}
	}
	var plan []Resource
	kept := map[string]bool{}
	names := map[string]int{} // type + name -> times seen
	for _, r := range dep.Resources {
		urn := string(r.URN)
		provider := isProvider(r.Type)
		if !r.Custom || r.Delete || (provider && !packages[strings.TrimPrefix(string(r.Type), "pulumi:providers:")]) {
			continue
		}
		kept[urn] = true
		inputs, err := stack.DeserializeProperties(r.Inputs, config.NopDecrypter)
		if err != nil {
			return nil, fmt.Errorf("inputs of %s: %w", urn, err)
		}
		name := r.URN.Name()
		key := string(r.Type) + "::" + name
		if names[key]++; names[key] > 1 {
			name = fmt.Sprintf("%s-%d", name, names[key])
		}
		var after []string
		for _, d := range r.Dependencies {
			deps := []string{string(d)}
			if component[string(d)] {
				deps = children[string(d)]
			}
			for _, u := range deps {
				if kept[u] {
					after = append(after, u)
				}
			}
		}
		res := Resource{URN: urn, Type: string(r.Type), Name: name, Inputs: inputs, DependsOn: after}
		if !provider {
			res.Provider = providerURN(r.Provider)
		}
		plan = append(plan, res)
	}
	return plan, nil
}

func isProvider(t tokens.Type) bool { return strings.HasPrefix(string(t), "pulumi:providers:") }

// providerURN is the URN of a provider reference "<urn>::<id>".
func providerURN(ref string) string {
	if i := strings.LastIndex(ref, "::"); i >= 0 {
		return ref[:i]
	}
	return ref
}

// Counts returns how many resources of each type plan holds.
func Counts(plan []Resource) map[string]int {
	out := map[string]int{}
	for _, r := range plan {
		out[r.Type]++
	}
	return out
}
