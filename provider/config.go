package provider

import (
	"context"

	p "github.com/pulumi/pulumi-go-provider"
)

// withConfigUpdatedInPlace makes a change of the provider's configuration an update of the provider, never a
// replacement (pulumi-go-provider replaces the provider on any config change, pulumi-go-provider#409). A replaced
// provider replaces every resource it serves: each ClusterDrain would be deleted, and so would drain its cluster.
// The configuration (drainForce) only tunes what the next operations do, so an update, which the engine applies
// to every operation of the run, deletes included, is what it means.
func withConfigUpdatedInPlace(prov p.Provider) p.Provider {
	diff := prov.DiffConfig
	if diff == nil {
		return prov
	}
	inPlace := map[p.DiffKind]p.DiffKind{p.AddReplace: p.Add, p.DeleteReplace: p.Delete, p.UpdateReplace: p.Update}
	prov.DiffConfig = func(ctx context.Context, req p.DiffRequest) (p.DiffResponse, error) {
		resp, err := diff(ctx, req)
		resp.DeleteBeforeReplace = false
		for k, d := range resp.DetailedDiff {
			if kind, ok := inPlace[d.Kind]; ok {
				d.Kind = kind
				resp.DetailedDiff[k] = d
			}
		}
		return resp, err
	}
	return prov
}
