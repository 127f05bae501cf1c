package iamlint

import (
	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/gitops-fleet/pulumi-fleet/provider/preflight"
)

// Kind is what a policy is attached to, which decides what the linters check.
type Kind string

const (
	// Identity policies are a role's inline policies.
	Identity Kind = "identity"
	// Trust policies are a role's assume-role policies.
	Trust Kind = "trust"
	// Resource policies are attached to a resource (an SQS queue, a KMS key).
	Resource Kind = "resource"
)

// Policy is one policy the fleet writes, named for the findings table: "<add-on>@<versions>" for an add-on's, or
// what it is ("trust/node", "hub/management").
type Policy struct {
	Name string
	Kind Kind
	Doc  iampolicy.Document
}

// Context is the cluster every policy is rendered for: account 123456789012, partition aws, us-east-1, with an
// interruption queue, a log group, a bucket, two hosted zones, a secrets prefix, a KMS key and a private CA, so
// every resource-scoped statement has its resource.
var Context = addons.PolicyContext{Partition: "aws", Region: "us-east-1", AccountID: "123456789012", ClusterName: "blue",
	NodeRoleArn: "arn:aws:iam::123456789012:role/blue-use1-node",
	QueueArn:    "arn:aws:sqs:us-east-1:123456789012:blue-use1-karpenter", LogGroupName: "/aws/eks/blue/aws-fluentbit-logs",
	BucketName: "blue-velero-1", BucketPrefix: "blue", HostedZoneIDs: []string{"Z1D633PJN98FT9", "Z2FDTNDATAQYW2"},
	SecretsPrefix: "blue/", KMSKeyArns: []string{"arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"},
	CertificateAuthorityArns: []string{"arn:aws:acm-pca:us-east-1:123456789012:certificate-authority/12345678-1234-1234-1234-123456789012"}}

// All are the policies the fleet can write, for Context.
func All() []Policy {
	const (
		cluster = "arn:aws:eks:us-east-1:123456789012:cluster/blue"
		oidc    = "arn:aws:iam::123456789012:oidc-provider/oidc.eks.us-east-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE"
		issuer  = "https://oidc.eks.us-east-1.amazonaws.com/id/EXAMPLED539D4633E53DE1B71EXAMPLE"
		hubRole = "arn:aws:iam::123456789012:role/gitops-fleet/hub/hub-argocd-management"
	)
	var out []Policy
	for _, a := range addons.All() {
		if a.Identity == nil {
			continue
		}
		for _, p := range a.Identity.Policies {
			if p.Inline != nil {
				out = append(out, Policy{Name: a.Name + "@" + p.Versions, Kind: Identity, Doc: p.Inline(Context)})
			}
		}
	}
	// The Gateway API controller's policy as the fleet narrows it (addonSettings.gatewayApiController): access logs
	// to a bucket and a stream, and to a log group too.
	gateway, _ := addons.Lookup("aws_gateway_api_controller")
	for _, p := range gateway.Identity.Policies {
		narrowed := Context
		narrowed.NarrowAccessLogs = true
		narrowed.AccessLogDestinations = []string{"arn:aws:s3:::blue-lattice-logs/gateways",
			"arn:aws:firehose:us-east-1:123456789012:deliverystream/blue-lattice"}
		out = append(out, Policy{Name: "narrowed/aws_gateway_api_controller@" + p.Versions, Kind: Identity, Doc: p.Inline(narrowed)})
		narrowed.AccessLogDestinations = append(narrowed.AccessLogDestinations, "arn:aws:logs:us-east-1:123456789012:log-group:/blue/lattice")
		out = append(out, Policy{Name: "narrowed-logs/aws_gateway_api_controller@" + p.Versions, Kind: Identity, Doc: p.Inline(narrowed)})
	}
	return append(out,
		Policy{Name: "trust/node", Kind: Trust, Doc: fleetcluster.NodeTrustPolicy()},
		Policy{Name: "trust/spoke", Kind: Trust, Doc: fleetcluster.SpokeTrustPolicy(hubRole)},
		Policy{Name: "trust/irsa", Kind: Trust, Doc: fleetcluster.IRSATrustPolicy(oidc, issuer, "kube-system", "aws-load-balancer-controller")},
		Policy{Name: "trust/pod-identity", Kind: Trust, Doc: iampolicy.New(iampolicy.PodIdentityTrust(cluster, "kube-system", []string{"aws-load-balancer-controller"}))},
		Policy{Name: "trust/capability", Kind: Trust, Doc: capability.TrustPolicy()},
		Policy{Name: "trust/hub-management", Kind: Trust, Doc: gitopsbridge.ManagementTrustPolicy(cluster, "argocd",
			[]string{"argocd-application-controller", "argocd-applicationset-controller", "argocd-server"})},
		Policy{Name: "hub/management", Kind: Identity, Doc: gitopsbridge.ManagementPolicy("aws", []string{"123456789012"})},
		Policy{Name: "resource/interruption-queue", Kind: Resource, Doc: fleetcluster.InterruptionQueuePolicy(Context.QueueArn)},
		Policy{Name: "resource/secrets-key", Kind: Resource, Doc: fleetcluster.SecretsKeyPolicy(
			[]string{"arn:aws:iam::123456789012:role/deployer"}, "arn:aws:iam::123456789012:role/blue-use1-cluster")},
		Policy{Name: "deployer/every-type", Kind: Identity, Doc: everyType().Policy()},
	)
}

// everyType is a plan that creates, updates and deletes one resource of every type fleet preflight knows: its
// policy (`fleet preflight -policy`) names every action of preflight.ActionsOf, which parliament checks against its
// catalogue of IAM actions.
func everyType() preflight.Plan {
	var plan preflight.Plan
	for typ := range preflight.ActionsOf {
		for _, op := range []string{preflight.Create, preflight.Update, preflight.Delete} {
			plan = append(plan, preflight.Step{Op: op, Type: typ, URN: "urn:pulumi:lint::fleet::" + typ + "::x"})
		}
	}
	return plan
}
