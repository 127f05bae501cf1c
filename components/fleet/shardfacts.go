package fleet

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// ShardFacts are what the hub stack's Fleet reads of a shard through a stack reference (its shards[].stack): the
// shard's name and how each of its spokes is registered (Fleet's shardFacts output; empty outside a shard).
type ShardFacts struct {
	// Shard is the shard's name among the hub stack's shards (hub.shard); "" outside a shard.
	Shard string `pulumi:"shard" json:"shard"`
	// Spokes are the shard's spokes, in the order of its clusters.
	Spokes []ShardSpoke `pulumi:"spokes" json:"spokes"`
}

// ShardSpoke is a spoke's cluster secret, for the hub's admission guard (GitOpsBridge's hub.registeredSecrets),
// and the environment its registry file lies under.
type ShardSpoke struct {
	// Name is the cluster's name in the fleet.
	Name string `pulumi:"name" json:"name"`
	// Environment is the cluster's environment: its cluster secret lies in clusters/<environment>/ of the registry.
	Environment string `pulumi:"environment" json:"environment"`
	// ClusterName is the EKS cluster's name: the secret's name and cluster_name.
	ClusterName string `pulumi:"clusterName" json:"clusterName"`
	// Server is the cluster's API server URL.
	Server string `pulumi:"server" json:"server"`
	// CertificateAuthorityData is the cluster's CA certificate, base64-encoded PEM.
	CertificateAuthorityData string `pulumi:"certificateAuthorityData" json:"certificateAuthorityData"`
	// SpokeRoleArn is the role Argo CD on the hub assumes to manage the cluster.
	SpokeRoleArn string `pulumi:"spokeRoleArn" json:"spokeRoleArn"`
	// Manifest is the cluster secret's manifest as the spoke's GitOpsBridge writes it (its manifest output): what
	// the hub's guard admits for the spoke, name, data, labels and annotations.
	Manifest string `pulumi:"manifest" json:"manifest"`
	// TenantApplications are the Argo CD Applications the shard's tenants run on the hub for this spoke (one per
	// tenant with workloads that selects it, while it is not decommissioned), which a managed hub counts against
	// its limit (HubCapacity). 0 from a shard stack of an earlier version.
	TenantApplications int `pulumi:"tenantApplications" json:"tenantApplications"`
}

// ShardFactsOutput is an output of ShardFacts.
type ShardFactsOutput struct{ *pulumi.OutputState }

// ElementType is ShardFacts.
func (ShardFactsOutput) ElementType() reflect.Type { return reflect.TypeFor[ShardFacts]() }

func init() {
	pulumi.RegisterOutputType(ShardFactsOutput{})
}

// shardFactsOf is the shardFacts output of a shard named shard whose spokes are built.
func shardFactsOf(shard string, spokes []built) ShardFactsOutput {
	facts := []any{}
	for _, s := range spokes {
		facts = append(facts, pulumi.All(s.cl.ClusterName, s.cl.Endpoint, s.cl.CertificateAuthorityData,
			s.cl.SpokeRoleArn, s.bridge.Manifest))
	}
	return pulumi.All(facts...).ApplyT(func(v []any) ShardFacts {
		out := ShardFacts{Shard: shard, Spokes: []ShardSpoke{}}
		for i, f := range v {
			s := f.([]any)
			out.Spokes = append(out.Spokes, ShardSpoke{Name: spokes[i].spec.Name, Environment: spokes[i].spec.Environment,
				ClusterName: s[0].(string), Server: s[1].(string), CertificateAuthorityData: s[2].(string),
				SpokeRoleArn: s[3].(string), Manifest: s[4].(string), TenantApplications: spokes[i].spec.tenantApplications(false)})
		}
		return out
	}).(ShardFactsOutput)
}

// readShards reads the shardFacts of each shard with a stack, through the stack reference <name>-shard-<shard>,
// before anything else is registered (the hub's guard and registry Applications are made of them). A shard whose
// stack reports another shard's name, or a spoke the hub did not list among its clusters, is a problem at
// shards[i].stack: a shard's stack cannot register what the hub's stack did not grant it. managed says the hub is
// managed (argocd.mode managed), whose spokes' secrets name their clusters by ARN (grantedSpoke).
func readShards(ctx *pulumi.Context, name string, parent pulumi.Resource, shards []Shard, managed bool) ([]ShardSpoke, error) {
	var ps problems.List
	var spokes []ShardSpoke
	for i, s := range shards {
		if s.Stack == "" {
			continue
		}
		field := problems.Index("shards", i) + ".stack"
		ref, err := pulumi.NewStackReference(ctx, name+"-shard-"+s.Name,
			&pulumi.StackReferenceArgs{Name: pulumi.String(s.Stack)}, pulumi.Parent(parent))
		if err != nil {
			return nil, err
		}
		var facts ShardFacts
		found, err := stackOutput(ctx, ref, "shardFacts", &facts)
		if err != nil {
			return nil, err
		}
		if !found || facts.Shard == "" {
			ps.Add(field, "stack %s has no shardFacts output of a shard; run up on it first (a Fleet with hub: "+
				"{stack, shard: %s}), or remove stack", s.Stack, s.Name)
			continue
		}
		if facts.Shard != s.Name {
			ps.Add(field, "stack %s is shard %q, not %q", s.Stack, facts.Shard, s.Name)
			continue
		}
		for _, sp := range facts.Spokes {
			if !slices.Contains(s.Clusters, sp.Name) {
				ps.Add(field, "stack %s has the spoke %q, which is not among shard %s's clusters; add it to clusters "+
					"to admit it", s.Stack, sp.Name, s.Name)
				continue
			}
			if sp.Manifest == "" {
				ps.Add(field, "stack %s's spoke %q has no manifest (its shardFacts predate the hub's pinned "+
					"registrations); run up on it first", s.Stack, sp.Name)
				continue
			}
			if err := grantedSpoke(sp, s.Name, managed); err != nil {
				ps.Add(field, "stack %s's spoke %q: %v", s.Stack, sp.Name, err)
				continue
			}
			spokes = append(spokes, sp)
		}
	}
	return spokes, ps.Err(TypeToken)
}

// joinShards joins a hub fleet's shards' spokes into its plan: with git and no registryEnvironments given, the hub
// also syncs the registry folders of their environments. Their secrets join the hub's registeredSecrets through
// spokes.
func (p *plan) joinShards(read []ShardSpoke, spokes *spokeFacts) {
	if p.Git != nil && (p.given.Argocd == nil || len(p.given.Argocd.RegistryEnvironments) == 0) {
		h := *p.Argocd
		h.RegistryEnvironments = slices.Clone(h.RegistryEnvironments)
		for _, s := range read {
			if !slices.Contains(h.RegistryEnvironments, s.Environment) {
				h.RegistryEnvironments = append(h.RegistryEnvironments, s.Environment)
			}
		}
		p.Argocd = &h
	}
	for _, s := range read {
		spokes.manifests = append(spokes.manifests, pulumi.String(s.Manifest))
	}
}

// registryOf is the registry a fleet's shards commit to: its git's repository and branch (nil without git).
func registryOf(git *gitopsbridge.GitDelivery) *Registry {
	if git == nil {
		return nil
	}
	return &Registry{Owner: git.Owner, Repository: git.Repository, Branch: or(git.Branch, "main")}
}

// String is the registry as owner/repository@branch.
func (r Registry) String() string {
	return fmt.Sprintf("%s/%s@%s", r.Owner, r.Repository, or(r.Branch, "main"))
}

// eksEndpoint is an EKS cluster's API server endpoint (https://<hex digits>.<zone>.<region>.eks.amazonaws.com).
var eksEndpoint = regexp.MustCompile(`^https://[0-9A-F]+\.[a-z0-9]+\.[a-z0-9-]+\.eks\.amazonaws\.com(\.cn)?$`)

// grantedSpoke checks that a shard's spoke registers the cluster the hub granted it, as a Fleet registers it: its
// secret and its EKS cluster named as the hub's stack names the cluster, an EKS endpoint, and a spoke role under
// clusterinfo.SpokeRolePath; for a managed hub (managed), the cluster's EKS cluster ARN as its server and no role
// (the capability's role reaches it through its access entry). A shard's stack cannot register a cluster under
// another name, point it elsewhere or have Argo CD assume another role.
func grantedSpoke(sp ShardSpoke, shard string, managed bool) error {
	s, err := gitopsbridge.ParseClusterSecret(sp.Manifest)
	if err != nil {
		return err
	}
	var c gitopsbridge.ClusterConfig
	_ = json.Unmarshal([]byte(s.Config), &c)
	role := ""
	if c.AWSAuthConfig != nil {
		role = c.AWSAuthConfig.RoleARN
	}
	switch {
	case s.Name != sp.Name || s.ClusterName != sp.Name || sp.ClusterName != sp.Name:
		return fmt.Errorf("its secret %s registers cluster %s (EKS cluster %s): shard %s's spokes register under "+
			"the names the hub's shards[].clusters grant", s.Name, s.ClusterName, sp.ClusterName, shard)
	case managed && !eksClusterARN(sp.Name).MatchString(s.Server):
		return fmt.Errorf("its server %q is not the EKS cluster ARN of %s, which a managed hub's Argo CD names its "+
			"clusters by", s.Server, sp.Name)
	case managed && (role != "" || sp.SpokeRoleArn != ""):
		return fmt.Errorf("its role %q: a managed hub reaches its spokes as the capability's role, through access "+
			"entries, and assumes no spoke role", role+sp.SpokeRoleArn)
	case managed:
	case s.Server != sp.Server || !eksEndpoint.MatchString(s.Server):
		return fmt.Errorf("its server %q is not the cluster's EKS endpoint", s.Server)
	case role != sp.SpokeRoleArn || !strings.Contains(role, ":role"+clusterinfo.SpokeRolePath):
		return fmt.Errorf("its role %q is not a spoke role (under %s)", role, clusterinfo.SpokeRolePath)
	}
	return nil
}

// eksClusterARN matches the ARN of the EKS cluster name in any partition, region and account
// (arn:<partition>:eks:<region>:<account>:cluster/<name>).
func eksClusterARN(name string) *regexp.Regexp {
	return regexp.MustCompile(`^arn:aws(-[a-z]+)*:eks:[a-z0-9-]+:[0-9]{12}:cluster/` + regexp.QuoteMeta(name) + `$`)
}
