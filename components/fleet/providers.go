package fleet

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi-github/sdk/v6/go/github"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// providers are the fleet's shared providers: one aws provider per (region, assume role), one Kubernetes
// provider for the hub (Argo CD and every cluster secret), one github provider for Git delivery. Each provider
// is a plugin process, so sharing them keeps a large fleet's run small.
type providers struct {
	ctx    *pulumi.Context
	parent pulumi.Resource
	git    *gitopsbridge.GitDelivery
	byKey  map[string]*aws.Provider // by "<region> <role ARN>"
	names  map[string]bool          // the aws providers' resource names
	hub    *kubernetes.Provider
	gh     *github.Provider
}

func newProviders(ctx *pulumi.Context, parent pulumi.Resource, git *gitopsbridge.GitDelivery) *providers {
	return &providers{ctx: ctx, parent: parent, git: git, byKey: map[string]*aws.Provider{}, names: map[string]bool{}}
}

// aws is the provider of region with role (the ambient credentials when role is ""), one per (region, role ARN),
// named aws-<region>, aws-<region>-<account>-<role name>, or for a role with a path
// aws-<region>-<account>-<path>-<role name> (the path's segments joined by "-"). Two roles whose names join alike
// (path a/b-c and a-b/c) get two providers: the second name ends with a hash of its ARN.
func (p *providers) aws(region, role string) (*aws.Provider, error) {
	key := region + " " + role
	if prov, ok := p.byKey[key]; ok {
		return prov, nil
	}
	name := "aws-" + region
	if role != "" {
		resource := role[strings.Index(role, ":role/")+len(":role/"):]
		name += "-" + accountOf(role) + "-" + strings.ReplaceAll(resource, "/", "-")
	}
	if p.names[name] {
		sum := sha256.Sum256([]byte(role))
		name += "-" + hex.EncodeToString(sum[:4])
	}
	args := &aws.ProviderArgs{Region: pulumi.String(region)}
	if role != "" {
		args.AssumeRole = &aws.ProviderAssumeRoleArgs{
			RoleArn:     pulumi.String(role),
			SessionName: pulumi.String("gitops-fleet"),
		}
	}
	prov, err := aws.NewProvider(p.ctx, name, args, pulumi.Parent(p.parent))
	if err != nil {
		return nil, err
	}
	p.byKey[key], p.names[name] = prov, true
	return prov, nil
}

// setHub creates the hub's Kubernetes provider from its kubeconfig (kept secret).
func (p *providers) setHub(kubeconfig pulumi.StringOutput) error {
	prov, err := clusterinfo.NewKubernetesProvider(p.ctx, "hub-k8s", kubeconfig, pulumi.Parent(p.parent))
	p.hub = prov
	return err
}

// github is the provider of Git delivery (nil without git), GitOpsBridge's for git.owner.
func (p *providers) github() (*github.Provider, error) {
	if p.git == nil || p.gh != nil {
		return p.gh, nil
	}
	prov, err := gitopsbridge.NewGitHubProvider(p.ctx, "github", p.git.Owner, pulumi.Parent(p.parent))
	p.gh = prov
	return prov, err
}
