package fleet

import (
	"fmt"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// spokeFacts are the spokes' cluster secret manifests, deferred: the hub is built first (every spoke trusts its
// management role), yet its admission guard pins the secrets of the spokes (hub.registeredSecrets), so each
// spoke's manifest is promised to the hub and resolved once the spoke's GitOpsBridge exists.
type spokeFacts struct {
	manifests []pulumi.StringInput
	resolve   map[string]func(pulumi.Output)
}

func deferSpokes(ctx *pulumi.Context, clusters []ClusterSpec) *spokeFacts {
	f := &spokeFacts{resolve: map[string]func(pulumi.Output){}}
	for _, c := range clusters {
		if c.Role != Spoke {
			continue
		}
		out, resolve := pulumi.DeferredOutput[string](ctx.Context())
		f.manifests = append(f.manifests, pulumi.StringOutput{OutputState: out.OutputState})
		f.resolve[c.Name] = resolve
	}
	return f
}

// withSpokes is the hub's settings with the fleet's spokes after the registered spokes given in argocd.
func (f *spokeFacts) withSpokes(h *gitopsbridge.Hub) *gitopsbridge.Hub {
	out := gitopsbridge.Hub{}
	if h != nil {
		out = *h
	}
	out.RegisteredSecrets = append(slices.Clone(out.RegisteredSecrets), f.manifests...)
	return &out
}

// built resolves a spoke's manifest with its GitOpsBridge's: the secret the hub's guard pins, labels and
// annotations included, so that a change of the spoke's registration (an add-on toggled) updates the guard in the
// same run.
func (f *spokeFacts) built(name string, bridge *gitopsbridge.GitOpsBridge) {
	f.resolve[name](bridge.Manifest)
	delete(f.resolve, name)
}

// abandon fails the facts of the spokes that were not built (the program failed before them), so that nothing
// waits on them for ever.
func (f *spokeFacts) abandon() {
	for name, resolve := range f.resolve {
		resolve(pulumi.String(name).ToStringOutput().ApplyT(func(n string) (string, error) {
			return "", fmt.Errorf("spoke %s was not built", n)
		}))
	}
	clear(f.resolve)
}
