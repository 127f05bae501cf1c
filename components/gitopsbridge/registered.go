package gitopsbridge

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// guard installs the hub's admission guards: for the Secrets in Argo CD's namespace (ClusterSecretGuard), registering
// the hub's own secret and hub.registeredSecrets, and for Argo CD's Applications and projects (ApplicationGuard),
// each exempting the stack's AWS caller as EKS names it (DeployerUsername).
// A registered secret that is not a spoke's cluster secret, or named twice, fails the guard with the field named.
// The writers besides the deployer are hub.secretWriters, and with the argo-cd chart its own writers (chartWriters).
func (b *builder) guard(k8s pulumi.ProviderResource, own pulumi.StringOutput, writers []string, deps []pulumi.Resource,
) ([]pulumi.Resource, error) {
	ns, h := b.args.Namespace, b.args.Hub
	prov, err := b.awsProvider()
	if err != nil {
		return nil, err
	}
	caller := aws.GetCallerIdentityOutput(b.ctx, aws.GetCallerIdentityOutputArgs{}, pulumi.Provider(prov)).Arn()
	writers = append(slices.Clone(writers), h.SecretWriters...)
	facts := []any{caller, own}
	for _, m := range h.RegisteredSecrets {
		facts = append(facts, pulumi.Unsecret(m.ToStringOutput()))
	}
	policy := pulumi.All(facts...).ApplyT(func(v []any) (admission.Policy, error) {
		g := ClusterSecretGuard{Namespace: ns, Deployer: DeployerUsername(v[0].(string)), SecretWriters: writers,
			ByARN: h.Managed()}
		hub, err := ParseClusterSecret(v[1].(string))
		if err != nil {
			return admission.Policy{}, err
		}
		g.Registered = append(g.Registered, hub)
		var ps problems.List
		for i, m := range v[2:] {
			field := problems.Index("hub.registeredSecrets", i)
			s, err := ParseClusterSecret(m.(string))
			if err != nil {
				ps.Add(field, "%v; give a spoke GitOpsBridge's manifest output", err)
				continue
			}
			checkRegistered(&ps, field, s, ns, g.Registered, h.Managed())
			g.Registered = append(g.Registered, s)
		}
		policy := g.Policy()
		if size := policySize(policy); size > MaxPolicyBytes {
			ps.Add("hub.registeredSecrets", "%d cluster secrets make the hub's cluster-secret guard %d bytes, past the "+
				"%d a Kubernetes object may take (etcd's request limit): register fewer spokes on this hub (a hub per "+
				"shard), or shorten their annotations", len(g.Registered), size, MaxPolicyBytes)
		}
		return policy, ps.Err(TypeToken)
	}).(pulumi.AnyOutput)
	out, err := admission.Register(b.ctx, childName(b.name, "cluster-secrets"), ClusterSecretPolicyName, []string{ns}, policy,
		b.child(k8s, pulumi.DependsOn(deps))...)
	if err != nil {
		return nil, err
	}
	known, policies, err := admission.ForCaller(caller, func(arn string) ([]admission.Policy, error) {
		return b.args.ApplicationGuard(DeployerUsername(arn)).Policies(), nil
	})
	if err != nil {
		return nil, err
	}
	for i, p := range known {
		part := strings.TrimPrefix(p.Name, "gitops-fleet-")
		rs, err := admission.Register(b.ctx, childName(b.name, part), p.Name, p.Namespaces, policies[i],
			b.child(k8s, pulumi.DependsOn(deps))...)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// chartWriters are the argo-cd chart's writers of Secrets in Argo CD's namespace: its server (argocd-secret and the
// credentials added through its API) and its redis-secret-init Job (argocd-redis).
func chartWriters(h Hub, ns string, values map[string]any) []string {
	writers := []string{serviceAccountUser(ns, serviceAccountOf(values, "server"))}
	if sa := redisSecretInitServiceAccount(h.ReleaseName, values); sa != "" {
		writers = append(writers, serviceAccountUser(ns, sa))
	}
	return writers
}

// checkRegistered adds the problems of a spoke's registered secret s at field: in Argo CD's namespace, named
// neither as one of Argo CD's own Secrets (ArgoCDSecret) nor as another registered secret or another's cluster, and
// reached through a spoke role (awsAuthConfig with an IAM role ARN, the CA verified), or, for a managed hub (byARN),
// named by its EKS cluster ARN with no credential (the capability's role reaches it through its access entry).
func checkRegistered(ps *problems.List, field string, s ClusterSecret, ns string, before []ClusterSecret, byARN bool) {
	if ArgoCDSecret(s.Name) {
		ps.Add(field, "secret %s is named as one of Argo CD's own Secrets: a registration would let a Git sync "+
			"overwrite it, and pruning it delete it", s.Name)
	}
	if s.Namespace != ns {
		ps.Add(field, "secret %s is in namespace %q, not Argo CD's (%s)", s.Name, s.Namespace, ns)
	}
	for _, o := range before {
		if o.Name == s.Name || o.ClusterName == s.ClusterName {
			ps.Add(field, "secret %s (cluster %s) is registered already as %s (cluster %s); a cluster is registered once",
				s.Name, s.ClusterName, o.Name, o.ClusterName)
		}
	}
	if n := utf8.RuneCountInString(pinEntry(s)); n > PinsCodePoints-len("{}") {
		ps.Add(field, "secret %s pins %d code points in the hub's guard, more than one CEL expression holds "+
			"(%d): shorten its annotations", s.Name, n, PinsCodePoints-len("{}"))
	}
	if byARN {
		if !clusterARNPattern.MatchString(s.Server) || s.Config != InClusterConfig() {
			ps.Add(field, "secret %s is not a spoke's of a managed hub (server the EKS cluster's ARN, "+
				"arn:aws:eks:<region>:<account>:cluster/<name>, and config %s): the managed Argo CD reaches a spoke as "+
				"the capability's role, through its access entry (give the spoke GitOpsBridge spoke.hubMode: managed)",
				s.Name, InClusterConfig())
		}
		return
	}
	var c ClusterConfig
	if err := json.Unmarshal([]byte(s.Config), &c); err != nil || c.AWSAuthConfig == nil ||
		!roleARNPattern.MatchString(c.AWSAuthConfig.RoleARN) || c.TLSClientConfig.Insecure || c.TLSClientConfig.CAData == "" {
		ps.Add(field, "secret %s's config is not a spoke's (awsAuthConfig with the spoke role's ARN, "+
			"arn:aws:iam::<account>:role/<name>, and the cluster's CA, TLS verified): a registered spoke is managed "+
			"through its spoke role", s.Name)
	}
}

// clusterARNPattern is an EKS cluster's ARN (EKS cluster names: letters, digits, hyphens, underscores).
var clusterARNPattern = regexp.MustCompile(`^arn:aws(-[a-z]+)*:eks:[a-z]{2}(-[a-z]+)+-\d{1,2}:\d{12}:cluster/[0-9A-Za-z][A-Za-z0-9_-]*$`)

// serviceAccountUser is a service account's Kubernetes username.
func serviceAccountUser(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}

// MaxPolicyBytes is the largest cluster-secret guard the fleet writes, as JSON: under etcd's default request limit
// of 1.5 MiB (--max-request-bytes 1572864), which bounds every object the API server stores, with room for the
// object's metadata and managed fields.
const MaxPolicyBytes = 1_450_000

// policySize is the policy's size as the JSON the API server receives.
func policySize(p admission.Policy) int {
	raw, err := json.Marshal(p.Object())
	if err != nil {
		return 0
	}
	return len(raw)
}
