package addons

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/google/go-cmp/cmp"
)

// govCtx is a context in a partition other than aws, so partition mistakes show.
var govCtx = PolicyContext{Partition: "aws-us-gov", Region: "us-gov-west-1", AccountID: "123456789012",
	ClusterName: "blue", NodeRoleArn: "arn:aws-us-gov:iam::123456789012:role/blue-usgovw1-node",
	QueueArn: "arn:aws-us-gov:sqs:us-gov-west-1:123456789012:blue-usgovw1-karpenter", LogGroupName: "/aws/eks/blue/aws-fluentbit-logs",
	BucketName: "blue-velero-1", BucketPrefix: "blue", HostedZoneIDs: []string{"Z1", "Z2"}, SecretsPrefix: "blue/",
	CertificateAuthorityArns: []string{"arn:aws-us-gov:acm-pca:us-gov-west-1:123456789012:certificate-authority/abc"}}

// wholeService are the service wildcards the upstream recommendations themselves grant.
var wholeService = map[string]string{
	"vpc-lattice:*":     "the Gateway API controller's recommended policy",
	"aps:*":             "ACK's Managed Prometheus controller recommendation",
	"logs:Get*":         "ACK's EMR on EKS controller recommendation",
	"ssm:GetParameter*": "external-secrets' Parameter Store documentation",
}

// maxInlinePolicy is the IAM quota on a role's inline policies, in characters.
const maxInlinePolicy = 10240

func TestPoliciesAreWellFormed(t *testing.T) {
	for _, a := range All() {
		if a.Identity == nil {
			continue
		}
		for _, p := range a.Identity.Policies {
			if p.Inline == nil {
				continue
			}
			t.Run(a.Name+"@"+p.Versions, func(t *testing.T) { checkWellFormed(t, p.Inline(govCtx)) })
		}
	}
}

func checkWellFormed(t *testing.T, doc iampolicy.Document) {
	t.Helper()
	if n := len(doc.JSON()); n > maxInlinePolicy {
		t.Errorf("policy is %d characters; IAM allows %d for a role's inline policies", n, maxInlinePolicy)
	}
	for i, st := range doc.Statement {
		if st.Effect != "Allow" || len(st.Action) == 0 || len(st.Resource) == 0 {
			t.Errorf("statement %d (%s) is incomplete: %+v", i, st.Sid, st)
		}
		for _, act := range st.Action {
			if _, ok := wholeService[act]; act == "*" || (strings.HasSuffix(act, "*") && !ok) {
				t.Errorf("statement %d grants a wildcard no upstream policy grants: %s", i, act)
			}
		}
		for _, r := range st.Resource {
			if strings.HasPrefix(r, "arn:") && !strings.HasPrefix(r, "arn:aws-us-gov:") {
				t.Errorf("statement %d ignores the partition: %s", i, r)
			}
		}
	}
}

// find returns the statements that grant action.
func find(doc iampolicy.Document, action string) []iampolicy.Statement {
	var out []iampolicy.Statement
	for _, st := range doc.Statement {
		if slices.Contains(st.Action, action) {
			out = append(out, st)
		}
	}
	return out
}

func policyOf(t *testing.T, name string, c PolicyContext) iampolicy.Document {
	t.Helper()
	a, ok := Lookup(name)
	if !ok || a.Identity == nil {
		t.Fatalf("%s has no identity", name)
	}
	// The newest document: the samples below are of the latest upstream policy.
	p := a.Identity.Policies[len(a.Identity.Policies)-1]
	if p.Inline == nil {
		t.Fatalf("%s has no inline policy for %s", name, p.Versions)
	}
	return p.Inline(c)
}

func TestLoadBalancerControllerPolicy(t *testing.T) {
	doc := policyOf(t, "aws_load_balancer_controller", govCtx)
	elb := func(r string) string { return "arn:aws-us-gov:elasticloadbalancing:*:*:" + r }
	owned := map[string]map[string]any{"Null": {"aws:ResourceTag/elbv2.k8s.aws/cluster": "false"}}
	// Statement by statement, the conditions and resources of iam_policy.json (v3.5.0) that the security review
	// found missing or wrong.
	cases := map[string]struct {
		reason    string
		index     int
		actions   []string
		resources []string
		condition map[string]map[string]any
	}{
		"open node security groups": {reason: "targets on the nodes' untagged groups must become reachable", index: 3,
			actions: []string{"ec2:AuthorizeSecurityGroupIngress", "ec2:RevokeSecurityGroupIngress"}, resources: []string{"*"}},
		"tag own security groups": {reason: "only groups it tagged, and never by removing the tag in the same call", index: 6,
			actions: []string{"ec2:CreateTags", "ec2:DeleteTags"}, resources: []string{"arn:aws-us-gov:ec2:*:*:security-group/*"},
			condition: map[string]map[string]any{"Null": {"aws:RequestTag/elbv2.k8s.aws/cluster": "true", "aws:ResourceTag/elbv2.k8s.aws/cluster": "false"}}},
		"listeners and rules": {reason: "CreateListener and CreateRule work on untagged listeners", index: 9,
			actions: []string{"elasticloadbalancing:CreateListener", "elasticloadbalancing:DeleteListener",
				"elasticloadbalancing:CreateRule", "elasticloadbalancing:DeleteRule"}, resources: []string{"*"}},
		"tag listeners and rules": {reason: "tagging of listeners and rules is on by default upstream", index: 11,
			actions:   []string{"elasticloadbalancing:AddTags", "elasticloadbalancing:RemoveTags"},
			resources: []string{elb("listener/net/*/*/*"), elb("listener/app/*/*/*"), elb("listener-rule/net/*/*/*"), elb("listener-rule/app/*/*/*")}},
		"modify own load balancers": {reason: "ModifyListenerAttributes and capacity reservations are part of it", index: 12,
			actions: []string{"elasticloadbalancing:ModifyLoadBalancerAttributes", "elasticloadbalancing:SetIpAddressType",
				"elasticloadbalancing:SetSecurityGroups", "elasticloadbalancing:SetSubnets", "elasticloadbalancing:DeleteLoadBalancer",
				"elasticloadbalancing:ModifyTargetGroup", "elasticloadbalancing:ModifyTargetGroupAttributes",
				"elasticloadbalancing:DeleteTargetGroup", "elasticloadbalancing:ModifyListenerAttributes",
				"elasticloadbalancing:ModifyCapacityReservation", "elasticloadbalancing:ModifyIpPools"},
			resources: []string{"*"}, condition: owned},
		"register targets": {reason: "any target group's targets", index: 14,
			actions:   []string{"elasticloadbalancing:RegisterTargets", "elasticloadbalancing:DeregisterTargets"},
			resources: []string{elb("targetgroup/*/*")}},
		"rule priorities": {reason: "SetRulePriorities reorders rules without 503s (upstream #4039)", index: 15,
			actions: []string{"elasticloadbalancing:SetWebAcl", "elasticloadbalancing:ModifyListener",
				"elasticloadbalancing:AddListenerCertificates", "elasticloadbalancing:RemoveListenerCertificates",
				"elasticloadbalancing:ModifyRule", "elasticloadbalancing:SetRulePriorities"}, resources: []string{"*"}},
	}
	if len(doc.Statement) != 16 {
		t.Fatalf("iam_policy.json has 16 statements, got %d", len(doc.Statement))
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			st := doc.Statement[tc.index]
			want := iampolicy.Statement{Effect: "Allow", Action: tc.actions, Resource: tc.resources, Condition: tc.condition}
			if diff := cmp.Diff(want, st); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestKarpenterPolicy(t *testing.T) {
	doc := policyOf(t, "karpenter", govCtx)
	bySid := map[string]iampolicy.Statement{}
	for _, st := range doc.Statement {
		bySid[st.Sid] = st
	}
	owned := "kubernetes.io/cluster/blue"
	cases := map[string]struct {
		reason string
		sid    string
		check  func(iampolicy.Statement) bool
	}{
		"launch templates by tag": {reason: "existing launch templates only when tagged for this cluster and a node pool",
			sid: "AllowScopedEC2LaunchTemplateAccessActions", check: func(st iampolicy.Statement) bool {
				return st.Condition["StringEquals"]["aws:ResourceTag/"+owned] == "owned" &&
					st.Condition["StringLike"]["aws:ResourceTag/karpenter.sh/nodepool"] == "*"
			}},
		"deletion by node pool": {reason: "terminate and delete only what a node pool of this cluster launched",
			sid: "AllowScopedDeletion", check: func(st iampolicy.Statement) bool {
				return st.Condition["StringLike"]["aws:ResourceTag/karpenter.sh/nodepool"] == "*" &&
					st.Condition["StringEquals"]["aws:ResourceTag/"+owned] == "owned"
			}},
		"post-launch tagging": {reason: "names and node claims are tagged after launch, with only those keys",
			sid: "AllowScopedResourceTagging", check: func(st iampolicy.Statement) bool {
				return st.Condition["ForAllValues:StringEquals"]["aws:TagKeys"] != nil
			}},
		"instance profiles by tag": {reason: "only its own instance profiles",
			sid: "AllowScopedInstanceProfileActions", check: func(st iampolicy.Statement) bool {
				return st.Condition["StringEquals"]["aws:ResourceTag/topology.kubernetes.io/region"] == "us-gov-west-1"
			}},
		"list instance profiles": {reason: "v1 lists them", sid: "AllowUnscopedInstanceProfileListAction",
			check: func(st iampolicy.Statement) bool { return slices.Contains(st.Action, "iam:ListInstanceProfiles") }},
		"instance status": {reason: "v1.14 reads instance status", sid: "AllowRegionalReadActions",
			check: func(st iampolicy.Statement) bool { return slices.Contains(st.Action, "ec2:DescribeInstanceStatus") }},
		"interruption queue": {reason: "the queue's messages, and no other queue", sid: "AllowInterruptionQueueActions",
			check: func(st iampolicy.Statement) bool { return cmp.Equal(st.Resource, []string{govCtx.QueueArn}) }},
		"pass node role": {reason: "only the cluster's node role, only to EC2", sid: "AllowPassingInstanceRole",
			check: func(st iampolicy.Statement) bool { return cmp.Equal(st.Resource, []string{govCtx.NodeRoleArn}) }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			st, ok := bySid[tc.sid]
			if !ok || !tc.check(st) {
				t.Errorf("%s: statement %s = %+v", tc.reason, tc.sid, st)
			}
		})
	}
}

func TestRoute53Policies(t *testing.T) {
	zones := []string{"arn:aws-us-gov:route53:::hostedzone/Z1", "arn:aws-us-gov:route53:::hostedzone/Z2"}
	cm := policyOf(t, "cert_manager", govCtx)
	change := find(cm, "route53:ChangeResourceRecordSets")
	if len(change) != 1 || !cmp.Equal(change[0].Resource, zones) ||
		fmt.Sprint(change[0].Condition["ForAllValues:StringEquals"]["route53:ChangeResourceRecordSetsRecordTypes"]) != "[TXT]" {
		t.Errorf("cert-manager may change TXT records of the given zones only: %+v", change)
	}
	noZones := govCtx
	noZones.HostedZoneIDs = nil
	if got := find(policyOf(t, "cert_manager", noZones), "route53:ChangeResourceRecordSets"); len(got) != 0 {
		t.Errorf("cert-manager without zones may change no records: %+v", got)
	}
	dns := policyOf(t, "external_dns", govCtx)
	if change := find(dns, "route53:ChangeResourceRecordSets"); len(change) != 1 || !cmp.Equal(change[0].Resource, zones) {
		t.Errorf("external-dns may change the given zones only: %+v", change)
	}
	if len(find(dns, "route53:ListTagsForResources")) != 1 || len(find(dns, "route53:ListTagsForResource")) != 0 {
		t.Error("external-dns calls route53:ListTagsForResources (plural)")
	}
}

func TestScopedToOwnResources(t *testing.T) {
	cases := map[string]struct {
		reason string
		addon  string
		action string
		want   []string
	}{
		"secrets under the prefix": {reason: "not every secret of the account", addon: "external_secrets",
			action: "secretsmanager:GetSecretValue", want: []string{"arn:aws-us-gov:secretsmanager:us-gov-west-1:123456789012:secret:blue/*"}},
		"parameters under the prefix": {reason: "not every parameter of the account", addon: "external_secrets",
			action: "ssm:GetParameter*", want: []string{"arn:aws-us-gov:ssm:us-gov-west-1:123456789012:parameter/blue/*"}},
		"fluent bit's own group": {reason: "never the control plane's /aws/eks/blue/cluster", addon: "aws_for_fluentbit",
			action: "logs:PutRetentionPolicy", want: []string{
				"arn:aws-us-gov:logs:us-gov-west-1:123456789012:log-group:/aws/eks/blue/aws-fluentbit-logs:*",
				"arn:aws-us-gov:logs:us-gov-west-1:123456789012:log-group:/aws/eks/blue/aws-fluentbit-logs/*:*"}},
		"velero tags its objects": {reason: "Velero tags backup objects", addon: "velero", action: "s3:PutObjectTagging",
			want: []string{"arn:aws-us-gov:s3:::blue-velero-1/*"}},
		"issuer's CAs": {reason: "only the given CAs", addon: "aws_privateca_issuer", action: "acm-pca:IssueCertificate",
			want: govCtx.CertificateAuthorityArns},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := find(policyOf(t, tc.addon, govCtx), tc.action)
			if len(got) != 1 || !cmp.Equal(tc.want, got[0].Resource) {
				t.Errorf("%s: %+v", tc.reason, got)
			}
		})
	}
	for _, st := range find(policyOf(t, "velero", govCtx), "s3:GetObject") {
		if st.Condition["StringEquals"]["s3:ResourceAccount"] != "123456789012" {
			t.Errorf("velero's bucket access is limited to buckets of its account: %+v", st)
		}
	}
	if decrypt := find(policyOf(t, "external_secrets", govCtx), "kms:Decrypt"); len(decrypt) != 0 {
		t.Errorf("with the AWS managed key external-secrets needs no KMS permission (its documentation grants none): %+v", decrypt)
	}
	withKeys := govCtx
	withKeys.KMSKeyArns = []string{"arn:aws-us-gov:kms:us-gov-west-1:123456789012:key/k1"}
	decrypt := find(policyOf(t, "external_secrets", withKeys), "kms:Decrypt")
	if len(decrypt) != 1 || !cmp.Equal(decrypt[0].Resource, withKeys.KMSKeyArns) ||
		decrypt[0].Condition["StringEquals"]["kms:ViaService"] == nil {
		t.Errorf("external-secrets decrypts the given customer keys only, only through Secrets Manager or SSM: %+v", decrypt)
	}
}
