package capability

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi-go-provider/infer"
)

// TypeToken is the type of the ArgoCDCapability resource.
const TypeToken = "fleet:index:ArgoCDCapability"

// Defaults of the EKS API.
const (
	// DefaultName is the capability's name when none is given.
	DefaultName = "argocd"
	// DefaultNamespace is the namespace of the managed Argo CD when none is given (EKS User Guide).
	DefaultNamespace = "argocd"
)

// ArgoCDCapability is Argo CD as an EKS Capability: the managed Argo CD AWS runs for a cluster.
type ArgoCDCapability struct{}

// Annotate gives ArgoCDCapability its schema description.
func (r *ArgoCDCapability) Annotate(a infer.Annotator) {
	a.Describe(r, "ArgoCDCapability is Argo CD as an EKS Capability (EKS CreateCapability, type ARGOCD): the managed "+
		"Argo CD AWS runs for a cluster, outside its nodes. Create waits until EKS reports the capability ACTIVE "+
		"and fails with its health issues named otherwise; the outputs give its status, Argo CD version, server "+
		"URL and health issues, which `pulumi refresh` updates. roleArn, argoCd.networkAccess, "+
		"argoCd.rbacRoleMappings (sent as the roles added or changed and the roles removed) and tags update in "+
		"place; any other change replaces the capability, deleting the old one first, since a cluster has at most "+
		"one Argo CD capability. EKS deletes it with the RETAIN policy, the only one it has: the Applications and "+
		"cluster secrets it manages stay, so delete those first. Import with the ID <clusterName>:<capabilityName>. "+
		"The plugin calls EKS with its ambient AWS credentials (and assumeRoleArn).")
}

// Create creates the capability and waits until EKS has created it.
func (ArgoCDCapability) Create(ctx context.Context, req infer.CreateRequest[ArgoCDCapabilityArgs],
) (infer.CreateResponse[ArgoCDCapabilityState], error) {
	a := req.Inputs
	if err := a.Validate(req.DryRun); err != nil || req.DryRun {
		return infer.CreateResponse[ArgoCDCapabilityState]{Output: ArgoCDCapabilityState{ArgoCDCapabilityArgs: a}}, err
	}
	c, err := a.connect(ctx)
	if err != nil {
		return infer.CreateResponse[ArgoCDCapabilityState]{}, err
	}
	if _, err := c.CreateCapability(ctx, a.createInput()); err != nil {
		return infer.CreateResponse[ArgoCDCapabilityState]{}, fmt.Errorf("creating capability %q on cluster %q: %w",
			a.name(), a.ClusterName, err)
	}
	id := a.ClusterName + ":" + a.name()
	capability, found, err := c.settle(ctx, a.ClusterName, a.name(), types.CapabilityStatusCreating)
	switch {
	case err != nil:
		s := a.state(&types.Capability{Status: types.CapabilityStatusCreating}, c.region)
		return infer.CreateResponse[ArgoCDCapabilityState]{ID: id, Output: s}, infer.ResourceInitFailedError{
			Reasons: []string{err.Error()}}
	case !found:
		return infer.CreateResponse[ArgoCDCapabilityState]{}, fmt.Errorf("capability %q of cluster %q: EKS no "+
			"longer has it after creating it", a.name(), a.ClusterName)
	}
	s := a.state(capability, c.region)
	return infer.CreateResponse[ArgoCDCapabilityState]{ID: id, Output: s}, s.healthy()
}

// Read describes the capability: its status, version, server URL and health issues, and the settings EKS
// updates in place as they are now (a change made outside Pulumi shows in a refresh, and the next update undoes
// it). With an import ID alone it reads every input.
func (ArgoCDCapability) Read(ctx context.Context, req infer.ReadRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState],
) (infer.ReadResponse[ArgoCDCapabilityArgs, ArgoCDCapabilityState], error) {
	recorded := req.State.ArgoCDCapabilityArgs
	importing := recorded.ClusterName == ""
	if importing {
		cluster, name, ok := parseID(req.ID)
		if !ok {
			return infer.ReadResponse[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{}, fmt.Errorf("import ID %q: "+
				"expected <clusterName>:<capabilityName>", req.ID)
		}
		recorded = ArgoCDCapabilityArgs{ClusterName: cluster, CapabilityName: name}
	}
	c, err := recorded.connect(ctx)
	if err != nil {
		return infer.ReadResponse[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{}, err
	}
	capability, found, err := c.describe(ctx, recorded.ClusterName, recorded.name())
	if err != nil || !found {
		return infer.ReadResponse[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{}, err // not found: gone
	}
	live := argsOf(capability, c.region)
	if !importing {
		live = recorded.withUpdatable(live)
	}
	return infer.ReadResponse[ArgoCDCapabilityArgs, ArgoCDCapabilityState]{ID: req.ID, Inputs: live,
		State: live.state(capability, c.region)}, nil
}

// Diff tells, for each changed input, whether EKS updates it in place or the capability is replaced (diff);
// a replacement deletes the old capability first, since a cluster has at most one of each type.
func (ArgoCDCapability) Diff(_ context.Context, req infer.DiffRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState],
) (p.DiffResponse, error) {
	d := diff(req.State.ArgoCDCapabilityArgs, req.Inputs)
	resp := p.DiffResponse{HasChanges: len(d) > 0, DetailedDiff: d}
	for _, v := range d {
		resp.DeleteBeforeReplace = resp.DeleteBeforeReplace || v.Kind == p.UpdateReplace
	}
	return resp, nil
}

// Update sends what changed: roleArn, networkAccess and the role mappings' deltas in one UpdateCapability,
// waited for; tags through TagResource and UntagResource.
func (ArgoCDCapability) Update(ctx context.Context, req infer.UpdateRequest[ArgoCDCapabilityArgs, ArgoCDCapabilityState],
) (infer.UpdateResponse[ArgoCDCapabilityState], error) {
	old, a := req.State, req.Inputs
	if a.Region == "" {
		a.Region = old.Region
	}
	if err := a.Validate(req.DryRun); err != nil || req.DryRun {
		s := old
		s.ArgoCDCapabilityArgs = a
		return infer.UpdateResponse[ArgoCDCapabilityState]{Output: s}, err
	}
	c, err := a.connect(ctx)
	if err != nil {
		return infer.UpdateResponse[ArgoCDCapabilityState]{}, err
	}
	if in, changed := updateInput(old.ArgoCDCapabilityArgs, a); changed {
		out, err := c.UpdateCapability(ctx, in)
		if err != nil {
			return infer.UpdateResponse[ArgoCDCapabilityState]{}, fmt.Errorf("updating capability %q of cluster "+
				"%q: %w", a.name(), a.ClusterName, err)
		}
		if err := c.awaitUpdate(ctx, a.ClusterName, a.name(), aws.ToString(out.Update.Id)); err != nil {
			return infer.UpdateResponse[ArgoCDCapabilityState]{}, err
		}
	}
	if err := c.retag(ctx, old.Arn, old.Tags, a.Tags); err != nil {
		return infer.UpdateResponse[ArgoCDCapabilityState]{}, err
	}
	capability, found, err := c.settle(ctx, a.ClusterName, a.name(), types.CapabilityStatusUpdating)
	if err == nil && !found {
		err = fmt.Errorf("capability %q of cluster %q: EKS no longer has it", a.name(), a.ClusterName)
	}
	if err != nil {
		return infer.UpdateResponse[ArgoCDCapabilityState]{}, err
	}
	s := a.state(capability, c.region)
	return infer.UpdateResponse[ArgoCDCapabilityState]{Output: s}, s.healthy()
}

// Delete deletes the capability and waits until EKS no longer has it.
func (ArgoCDCapability) Delete(ctx context.Context, req infer.DeleteRequest[ArgoCDCapabilityState]) (infer.DeleteResponse, error) {
	a := req.State.ArgoCDCapabilityArgs
	c, err := a.connect(ctx)
	if err != nil {
		return infer.DeleteResponse{}, err
	}
	_, err = c.DeleteCapability(ctx, &eks.DeleteCapabilityInput{ClusterName: aws.String(a.ClusterName),
		CapabilityName: aws.String(a.name())})
	var notFound *types.ResourceNotFoundException
	switch {
	case errors.As(err, &notFound):
		return infer.DeleteResponse{}, nil
	case err != nil:
		return infer.DeleteResponse{}, fmt.Errorf("deleting capability %q of cluster %q: %w", a.name(), a.ClusterName, err)
	}
	capability, found, err := c.settle(ctx, a.ClusterName, a.name(), types.CapabilityStatusDeleting)
	if err != nil || !found {
		return infer.DeleteResponse{}, err
	}
	s := a.state(capability, c.region)
	return infer.DeleteResponse{}, fmt.Errorf("capability %q of cluster %q is %s after its deletion: %s",
		a.name(), a.ClusterName, s.Status, s.issues())
}

// healthy is nil for an ACTIVE capability, and for any other an error naming its health issues that still
// records it (the engine keeps the state and the next update retries).
func (s ArgoCDCapabilityState) healthy() error {
	if s.Status == string(types.CapabilityStatusActive) {
		return nil
	}
	return infer.ResourceInitFailedError{Reasons: []string{fmt.Sprintf("capability %q of cluster %q is %s: %s",
		s.name(), s.ClusterName, s.Status, s.issues())}}
}

// withUpdatable is a with the settings EKS updates in place taken from live (what a refresh shows): the others
// cannot change without a new capability, and EKS may report defaults the inputs left out.
func (a ArgoCDCapabilityArgs) withUpdatable(live ArgoCDCapabilityArgs) ArgoCDCapabilityArgs {
	a.RoleArn, a.Tags = live.RoleArn, live.Tags
	a.ArgoCD.NetworkAccess, a.ArgoCD.RbacRoleMappings = live.ArgoCD.NetworkAccess, live.ArgoCD.RbacRoleMappings
	return a
}

// updateInput is the UpdateCapability request taking old to news, and whether there is anything to send.
func updateInput(old, news ArgoCDCapabilityArgs) (*eks.UpdateCapabilityInput, bool) {
	in := &eks.UpdateCapabilityInput{ClusterName: aws.String(news.ClusterName), CapabilityName: aws.String(news.name())}
	argo, changed := &types.UpdateArgoCdConfig{}, false
	if old.RoleArn != news.RoleArn {
		in.RoleArn, changed = aws.String(news.RoleArn), true
	}
	if vpce := news.ArgoCD.vpceIDs(); !slices.Equal(sorted(old.ArgoCD.vpceIDs()), sorted(vpce)) {
		argo.NetworkAccess, changed = &types.ArgoCdNetworkAccessConfigRequest{VpceIds: append([]string{}, vpce...)}, true
	}
	if add, remove := mappingChanges(old.ArgoCD.RbacRoleMappings, news.ArgoCD.RbacRoleMappings); len(add)+len(remove) > 0 {
		argo.RbacRoleMappings = &types.UpdateRoleMappings{AddOrUpdateRoleMappings: roleMappings(add),
			RemoveRoleMappings: roleMappings(remove)}
		changed = true
	}
	if argo.NetworkAccess != nil || argo.RbacRoleMappings != nil {
		in.Configuration = &types.UpdateCapabilityConfiguration{ArgoCd: argo}
	}
	return in, changed
}

// retag brings the capability's tags from old to news.
func (c client) retag(ctx context.Context, arn string, old, news map[string]string) error {
	var gone []string
	for _, k := range slices.Sorted(maps.Keys(old)) {
		if _, ok := news[k]; !ok {
			gone = append(gone, k)
		}
	}
	if len(gone) > 0 {
		if _, err := c.UntagResource(ctx, &eks.UntagResourceInput{ResourceArn: aws.String(arn), TagKeys: gone}); err != nil {
			return fmt.Errorf("untagging capability %s: %w", arn, err)
		}
	}
	if len(news) > 0 && !maps.Equal(old, news) {
		if _, err := c.TagResource(ctx, &eks.TagResourceInput{ResourceArn: aws.String(arn), Tags: news}); err != nil {
			return fmt.Errorf("tagging capability %s: %w", arn, err)
		}
	}
	return nil
}
