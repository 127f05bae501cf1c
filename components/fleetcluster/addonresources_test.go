package fleetcluster

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/google/go-cmp/cmp"
)

func TestAddonResources(t *testing.T) {
	queue := "https://sqs.us-east-1.amazonaws.com/" + mocks.Account + "/dev-use1-"
	cases := map[string]struct {
		reason   string
		addons   map[string]bool
		settings *AddonSettings
		// types counts the children of these types.
		types map[string]int
		// keys are metadata keys that must hold these values.
		keys map[string]string
	}{
		"karpenter": {
			reason: "its interruption queue fed by five EventBridge rules, and an instance profile of the node role",
			addons: map[string]bool{"karpenter": true},
			types: map[string]int{"aws:sqs/queue:Queue": 1, "aws:sqs/queuePolicy:QueuePolicy": 1,
				"aws:cloudwatch/eventRule:EventRule": 5, "aws:cloudwatch/eventTarget:EventTarget": 5,
				"aws:iam/instanceProfile:InstanceProfile": 1},
			keys: map[string]string{"karpenter_sqs_queue_name": "dev-use1-karpenter", "karpenter_sqs_queue_url": queue + "karpenter",
				"karpenter_node_iam_role_name": "dev-use1-node", "karpenter_node_instance_profile_name": "dev-use1-karpenter-node"},
		},
		"node termination handler": {
			reason: "its own queue, with the Auto Scaling terminate rule and the EC2 rules",
			addons: map[string]bool{"aws_node_termination_handler": true},
			types: map[string]int{"aws:sqs/queue:Queue": 1, "aws:cloudwatch/eventRule:EventRule": 5,
				"aws:iam/instanceProfile:InstanceProfile": 0},
			keys: map[string]string{"aws_node_termination_handler_sqs_queue_url": queue + "aws-node-termination-handler"},
		},
		"fluent bit": {
			reason: "a log group of its own, 90 days by default",
			addons: map[string]bool{"aws_for_fluentbit": true},
			types:  map[string]int{"aws:cloudwatch/logGroup:LogGroup": 1},
			keys:   map[string]string{"aws_for_fluentbit_log_group_name": "/aws/eks/dev/aws-fluentbit-logs"},
		},
		"velero creates its bucket": {
			reason: "encrypted, versioned, public access blocked, owner enforced",
			addons: map[string]bool{"velero": true},
			types: map[string]int{"aws:s3/bucketV2:BucketV2": 1, "aws:s3/bucketVersioningV2:BucketVersioningV2": 1,
				"aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock":                                     1,
				"aws:s3/bucketOwnershipControls:BucketOwnershipControls":                                     1,
				"aws:s3/bucketServerSideEncryptionConfigurationV2:BucketServerSideEncryptionConfigurationV2": 1},
			keys: map[string]string{"velero_backup_s3_bucket_name": "dev-velero-mock", "velero_backup_s3_bucket_prefix": "dev"},
		},
		"velero with a given bucket": {
			reason:   "an existing bucket is used as it is",
			addons:   map[string]bool{"velero": true},
			settings: &AddonSettings{Velero: &VeleroSettings{BucketName: "acme-backups", BucketPrefix: "eks/dev"}},
			types:    map[string]int{"aws:s3/bucketV2:BucketV2": 0},
			keys:     map[string]string{"velero_backup_s3_bucket_name": "acme-backups", "velero_backup_s3_bucket_prefix": "eks/dev"},
		},
		"external-dns": {
			reason:   "the domain filters as the YAML flow list the ApplicationSet splices into its values",
			addons:   map[string]bool{"external_dns": true},
			settings: &AddonSettings{ExternalDns: &ExternalDNSSettings{HostedZoneIds: []string{"Z1"}, DomainFilters: []string{"a.example.com", "b.example.com"}}},
			keys:     map[string]string{"external_dns_domain_filters": `["a.example.com","b.example.com"]`, "external_dns_policy": "upsert-only"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cloud, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Addons: tc.addons, AddonSettings: tc.settings})
			for typ, n := range tc.types {
				if got := len(cloud.OfType(typ)); got != n {
					t.Errorf("%s: %d of %s, want %d", tc.reason, got, typ, n)
				}
			}
			md := mocks.Await[map[string]string](t, fc.GitOpsMetadata)
			for k, v := range tc.keys {
				if md[k] != v {
					t.Errorf("%s: metadata %s = %q, want %q", tc.reason, k, md[k], v)
				}
			}
		})
	}
}

// TestNetworkPolicyTurnsOnTheCNIAgent: networkPolicy configures the vpc-cni add-on with its network policy agent on,
// and nothing else; without it vpc-cni has no configuration (the EBS test above checks that).
func TestNetworkPolicyTurnsOnTheCNIAgent(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", NetworkPolicy: true})
	if got := cloud.MustGet(t, "aws:eks/addon:Addon", "dev-vpc-cni").Input("configurationValues"); got != `{"enableNetworkPolicy":"true"}` {
		t.Errorf("vpc-cni's configuration %v, want the network policy agent on", got)
	}
	for _, other := range []string{"kube-proxy", "coredns", PodIdentityAgentAddon} {
		if got := cloud.MustGet(t, "aws:eks/addon:Addon", "dev-"+other).Input("configurationValues"); got != nil {
			t.Errorf("%s has a configuration: %v", other, got)
		}
	}
}

func TestEBSCSIDriverIsAManagedAddon(t *testing.T) {
	cloud, fc := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Addons: map[string]bool{"aws_ebs_csi_driver": true}})
	addon := cloud.MustGet(t, "aws:eks/addon:Addon", "dev-aws-ebs-csi-driver")
	if got := addon.Input("serviceAccountRoleArn"); got != "arn:aws:iam::"+mocks.Account+":role/dev-use1-aws-ebs-csi-driver" {
		t.Errorf("the managed add-on's controller assumes the driver's IRSA role, got %v", got)
	}
	if !slices.Contains(addon.Dependencies, mocks.URN("fleet:index:FleetCluster", "aws:eks/nodeGroup:NodeGroup", "dev-ng-system")) {
		t.Errorf("the driver's pods need nodes: %v", addon.Dependencies)
	}
	if got := addon.Input("configurationValues"); got != `{"controller":{"extraVolumeTags":{"KubernetesCluster":"dev"}}}` {
		t.Errorf("every volume the driver creates carries KubernetesCluster=dev, which the drain looks for: %v", got)
	}
	for _, other := range []string{"vpc-cni", "kube-proxy", "coredns", PodIdentityAgentAddon} {
		if got := cloud.MustGet(t, "aws:eks/addon:Addon", "dev-"+other).Input("configurationValues"); got != nil {
			t.Errorf("%s has a configuration: %v", other, got)
		}
	}
	want := map[string]bool{"aws_ebs_csi_driver": true, "aws_ebs_csi_resources": true}
	if diff := cmp.Diff(want, mocks.Await[map[string]bool](t, fc.Addons)); diff != "" {
		t.Errorf("the template installs the storage classes under enable_aws_ebs_csi_resources (-want +got):\n%s", diff)
	}
}

func TestInterruptionQueuePolicy(t *testing.T) {
	doc := InterruptionQueuePolicy("arn:aws:sqs:us-east-1:111122223333:q")
	want := `{"Version":"2012-10-17","Statement":[{"Sid":"SendEvents","Effect":"Allow","Principal":{"Service":["events.amazonaws.com","sqs.amazonaws.com"]},"Action":["sqs:SendMessage"],"Resource":["arn:aws:sqs:us-east-1:111122223333:q"]},` +
		`{"Sid":"DenyHTTP","Effect":"Deny","Principal":{"AWS":"*"},"Action":["sqs:*"],"Resource":["arn:aws:sqs:us-east-1:111122223333:q"],"Condition":{"Bool":{"aws:SecureTransport":"false"}}}]}`
	if got := doc.JSON(); got != want {
		t.Errorf("Karpenter's KarpenterInterruptionQueuePolicy:\n got %s\nwant %s", got, want)
	}
}

func TestBackupBucketIsRetained(t *testing.T) {
	cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", Addons: map[string]bool{"velero": true}})
	var types []string
	for _, r := range cloud.Resources() {
		if r.RetainOnDelete {
			types = append(types, r.Type)
		}
	}
	want := []string{"aws:s3/bucketOwnershipControls:BucketOwnershipControls", "aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock",
		"aws:s3/bucketServerSideEncryptionConfigurationV2:BucketServerSideEncryptionConfigurationV2",
		"aws:s3/bucketV2:BucketV2", "aws:s3/bucketVersioningV2:BucketVersioningV2"}
	slices.Sort(types)
	if !slices.Equal(want, types) {
		t.Errorf("the backups outlive disabling velero or destroying the stack: retained %v, want %v", types, want)
	}
}

// TestNodeSessionManager: the node role carries the kubelet's, the VPC CNI's and ECR pulls' managed policies, and
// Session Manager's only with nodeSessionManager.
func TestNodeSessionManager(t *testing.T) {
	for name, tc := range map[string]struct {
		on   bool
		want []string
	}{
		"default": {want: []string{"AmazonEC2ContainerRegistryPullOnly", "AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy"}},
		"nodeSessionManager": {on: true, want: []string{"AmazonEC2ContainerRegistryPullOnly", "AmazonEKSWorkerNodePolicy",
			"AmazonEKS_CNI_Policy", "AmazonSSMManagedInstanceCore"}},
	} {
		t.Run(name, func(t *testing.T) {
			cloud, _ := build(t, "dev", FleetClusterArgs{Region: "us-east-1", NodeSessionManager: tc.on})
			var got []string
			for _, r := range cloud.OfType("aws:iam/rolePolicyAttachment:RolePolicyAttachment") {
				if strings.HasPrefix(r.Name, "dev-node-role-") {
					got = append(got, strings.TrimPrefix(fmt.Sprint(r.Input("policyArn")), "arn:aws:iam::aws:policy/"))
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("node role policies %v, want %v", got, tc.want)
			}
		})
	}
}
