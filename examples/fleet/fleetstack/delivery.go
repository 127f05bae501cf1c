package fleetstack

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
)

// Delivery is gitops-fleet:delivery: the fleet's own stacks delivered by GitOps from the hub (StackDelivery's
// inputs, in the schema's camelCase keys). Its secrets are config secrets of their own:
// gitops-fleet:kargoAdminPasswordHash and gitops-fleet:kargoTokenSigningKey (required to install Kargo), and
// gitops-fleet:pulumiAccessToken, gitops-fleet:previewAccessToken (the preview Stacks' read-only token),
// gitops-fleet:kargoGitToken (the manifests repository, which Kargo pushes),
// gitops-fleet:kargoProgramGitToken (read-only, a private program repository of its own) and
// gitops-fleet:programGitToken (optional).
type Delivery struct {
	Project   string                    `json:"project,omitempty"`
	Namespace string                    `json:"namespace,omitempty"`
	Backend   string                    `json:"backend,omitempty"`
	Program   fleet.ProgramRepository   `json:"program"`
	Manifests fleet.ManifestsRepository `json:"manifests"`
	Stages    []fleet.DeliveryStage     `json:"stages"`
	Operator  *fleet.OperatorInstall    `json:"operator,omitempty"`
	Kargo     *fleet.KargoInstall       `json:"kargo,omitempty"`
}

// deliver creates the StackDelivery of the config on the hub after the fleet (Argo CD runs there then). hubName is
// the hub's cluster name when Argo CD is managed (its Applications name the hub by it), "" otherwise.
func deliver(ctx *pulumi.Context, d Delivery, f *fleet.Fleet, hubName string) (*fleet.StackDelivery, error) {
	cfg := config.New(ctx, Namespace)
	args := &fleet.StackDeliveryArgs{
		Kubeconfig: f.HubKubeconfig,
		HubName:    optional(hubName),
		Program:    program(cfg, d.Program),
		Manifests:  pulumi.ToOutput(d.Manifests).(fleet.ManifestsRepositoryOutput),
		Stages:     pulumi.ToOutput(d.Stages).(fleet.DeliveryStageArrayOutput),
	}
	args.Project, args.Namespace, args.Backend = optional(d.Project), optional(d.Namespace), optional(d.Backend)
	if d.Operator != nil {
		args.Operator = pulumi.ToOutput(*d.Operator).(fleet.OperatorInstallOutput).ToOperatorInstallPtrOutput()
	}
	if token, ok := secret(cfg, "pulumiAccessToken"); ok {
		args.PulumiAccessToken = token
	}
	if token, ok := secret(cfg, "previewAccessToken"); ok {
		args.PreviewAccessToken = token
	}
	k := fleet.KargoInstall{}
	if d.Kargo != nil {
		k = *d.Kargo
	}
	kargo := fleet.KargoInstallArgs{
		Existing: pulumi.BoolPtrFromPtr(k.Existing), ChartVersion: pulumi.StringPtrFromPtr(k.ChartVersion),
		Namespace: pulumi.StringPtrFromPtr(k.Namespace), CertManager: pulumi.StringPtrFromPtr(k.CertManager),
		Values: pulumi.ToMap(k.Values),
	}
	if k.Oidc != nil {
		kargo.Oidc = pulumi.ToOutput(*k.Oidc).(fleet.KargoOidcOutput).ToKargoOidcPtrOutput()
	}
	if v, ok := secret(cfg, "kargoProgramGitToken"); ok {
		kargo.ProgramGitToken = v
	}
	if v, ok := secret(cfg, "kargoAdminPasswordHash"); ok {
		kargo.AdminPasswordHash = v
	}
	if v, ok := secret(cfg, "kargoTokenSigningKey"); ok {
		kargo.TokenSigningKey = v
	}
	if v, ok := secret(cfg, "kargoGitToken"); ok {
		kargo.GitToken = v
	}
	args.Kargo = kargo
	return fleet.NewStackDelivery(ctx, "delivery", args, pulumi.DependsOn([]pulumi.Resource{f}))
}

// program is the program repository of the config, with gitops-fleet:programGitToken (a secret) as its Git
// token when set.
func program(cfg *config.Config, p fleet.ProgramRepository) fleet.ProgramRepositoryArgs {
	args := fleet.ProgramRepositoryArgs{
		RepoUrl: pulumi.String(p.RepoUrl), RepoDir: pulumi.StringPtrFromPtr(p.RepoDir),
		Branch: pulumi.StringPtrFromPtr(p.Branch), Interval: pulumi.StringPtrFromPtr(p.Interval),
		IncludePaths: pulumi.ToStringArray(p.IncludePaths),
	}
	if token, ok := secret(cfg, "programGitToken"); ok {
		args.GitToken = token
	}
	return args
}

// optional is nil for "", else a pointer to s.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// secret is the config secret key, when it is set.
func secret(cfg *config.Config, key string) (pulumi.StringOutput, bool) {
	if cfg.Get(key) == "" {
		return pulumi.StringOutput{}, false
	}
	return cfg.RequireSecret(key), true
}

// managedHub is the name of the hub cluster when gitops-fleet:argocd's mode is managed, "" otherwise.
func (c *Config) managedHub() string {
	if c.Argocd == nil || c.Argocd.Mode == nil || *c.Argocd.Mode != "managed" {
		return ""
	}
	for _, cl := range c.Clusters {
		if cl.Role == "hub" {
			return cl.Name
		}
	}
	return ""
}
