package gitopsbridge

import (
	"encoding/json"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi-aws/sdk/v6/go/aws"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// guard installs the hub's admission guards: for the Secrets in Argo CD's namespace (ClusterSecretGuard), registering
// the hub's own secret and hub.registeredSecrets, and for Argo CD's Applications and projects (ApplicationGuard),
// each exempting the stack's AWS caller as EKS names it (DeployerUsername).
// A registered secret that is not a spoke's cluster secret, or named twice, fails the guard with the field named.
func (b *builder) guard(k8s pulumi.ProviderResource, own pulumi.StringOutput, values map[string]any) ([]pulumi.Resource, error) {
	ns, h := b.args.Namespace, b.args.Hub
	prov, err := b.awsProvider()
	if err != nil {
		return nil, err
	}
	caller := aws.GetCallerIdentityOutput(b.ctx, aws.GetCallerIdentityOutputArgs{}, pulumi.Provider(prov)).Arn()
	writers := []string{serviceAccountUser(ns, serviceAccountOf(values, "server"))}
	if sa := redisSecretInitServiceAccount(h.ReleaseName, values); sa != "" {
		writers = append(writers, serviceAccountUser(ns, sa))
	}
	writers = append(writers, h.SecretWriters...)
	facts := []any{caller, own}
	for _, m := range h.RegisteredSecrets {
		facts = append(facts, pulumi.Unsecret(m.ToStringOutput()))
	}
	policy := pulumi.All(facts...).ApplyT(func(v []any) (admission.Policy, error) {
		g := ClusterSecretGuard{Namespace: ns, Deployer: DeployerUsername(v[0].(string)), SecretWriters: writers}
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
			checkRegistered(&ps, field, s, ns, g.Registered)
			g.Registered = append(g.Registered, s)
		}
		return g.Policy(), ps.Err(TypeToken)
	}).(pulumi.AnyOutput)
	out, err := admission.Register(b.ctx, childName(b.name, "cluster-secrets"), ClusterSecretPolicyName, []string{ns}, policy,
		b.child(k8s)...)
	if err != nil {
		return nil, err
	}
	for i, p := range b.args.ApplicationGuard("").Policies() {
		policy := caller.ApplyT(func(arn string) admission.Policy {
			return b.args.ApplicationGuard(DeployerUsername(arn)).Policies()[i]
		}).(pulumi.AnyOutput)
		part := strings.TrimPrefix(p.Name, "gitops-fleet-")
		rs, err := admission.Register(b.ctx, childName(b.name, part), p.Name, p.Namespaces, policy, b.child(k8s)...)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// checkRegistered adds the problems of a spoke's registered secret s at field: in Argo CD's namespace, named
// neither as one of Argo CD's own Secrets (ArgoCDSecret) nor as another registered secret or another's cluster, and
// reached through a spoke role (awsAuthConfig with an IAM role ARN, the CA verified).
func checkRegistered(ps *problems.List, field string, s ClusterSecret, ns string, before []ClusterSecret) {
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
	var c ClusterConfig
	if err := json.Unmarshal([]byte(s.Config), &c); err != nil || c.AWSAuthConfig == nil ||
		!roleARNPattern.MatchString(c.AWSAuthConfig.RoleARN) || c.TLSClientConfig.Insecure || c.TLSClientConfig.CAData == "" {
		ps.Add(field, "secret %s's config is not a spoke's (awsAuthConfig with the spoke role's ARN, "+
			"arn:aws:iam::<account>:role/<name>, and the cluster's CA, TLS verified): a registered spoke is managed "+
			"through its spoke role", s.Name)
	}
}

// serviceAccountUser is a service account's Kubernetes username.
func serviceAccountUser(namespace, name string) string {
	return "system:serviceaccount:" + namespace + ":" + name
}
