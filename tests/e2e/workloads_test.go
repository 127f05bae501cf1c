package e2e

import (
	"slices"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/workloads"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	ingresses  = schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "ingresses"}
	services   = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	claims     = schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}
	volumes    = schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumes"}
	nodePools  = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}
	nodeClaims = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}

	// retainedVolume is the EBS volume of spoke-b's Retain PersistentVolume: it outlives the cluster by design.
	retainedVolume = aws.ARN("ec2", "us-west-2", "volume/vol-0archive")
	// leftover is a load balancer tagged to spoke-b that no object of the cluster made (its Ingress was deleted
	// by hand while the controller was down): it never goes away by itself.
	leftover = workloads.Tagged{ARN: aws.ARN("elasticloadbalancing", "us-west-2", "loadbalancer/app/k8s-orphan/0f1e"),
		Region: "us-west-2", Tags: map[string]string{"elbv2.k8s.aws/cluster": "spoke-b"}}
)

func obj(apiVersion, kind, namespace, name string, spec map[string]any) map[string]any {
	o := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name, "namespace": namespace}}
	if spec != nil {
		o["spec"] = spec
	}
	return o
}

// spokeWorkloads are what a cluster runs once Argo CD synced its workloads: an Ingress (an ALB, its target group
// and security group, tagged by the Load Balancer Controller), a LoadBalancer Service (an NLB) and a ClusterIP
// one, a claim on a Delete volume (tagged by the EBS CSI driver) and one on a Retain volume, and a Karpenter v1
// NodePool and NodeClaim (an instance and a launch template, tagged by Karpenter).
func spokeWorkloads(cluster, region string) ([]workloads.Object, []workloads.Tagged) {
	lbTags := map[string]string{"elbv2.k8s.aws/cluster": cluster, "ingress.k8s.aws/stack": "shop/web"}
	ebsTags := map[string]string{"ebs.csi.aws.com/cluster": "true", "KubernetesCluster": cluster}
	karpenterTags := map[string]string{"kubernetes.io/cluster/" + cluster: "owned", "karpenter.sh/nodepool": "default"}
	alb, tg, sg := aws.ARN("elasticloadbalancing", region, "loadbalancer/app/k8s-shop-web/1a2b"),
		aws.ARN("elasticloadbalancing", region, "targetgroup/k8s-shop-web/3c4d"), aws.ARN("ec2", region, "security-group/sg-0web")
	nlb := aws.ARN("elasticloadbalancing", region, "loadbalancer/net/k8s-shop-api/5e6f")
	data := aws.ARN("ec2", region, "volume/vol-0data")
	instance, template := aws.ARN("ec2", region, "instance/i-0karpenter"), aws.ARN("ec2", region, "launch-template/lt-0default")
	retained := aws.ARN("ec2", region, "volume/vol-0archive")
	objects := []workloads.Object{
		{Cluster: cluster, Resource: ingresses, Object: obj("networking.k8s.io/v1", "Ingress", "shop", "web", nil),
			Made: []string{alb, tg, sg}},
		{Cluster: cluster, Resource: services, Object: obj("v1", "Service", "shop", "api", map[string]any{"type": "LoadBalancer"}),
			Made: []string{nlb}},
		{Cluster: cluster, Resource: services, Object: obj("v1", "Service", "shop", "internal", map[string]any{"type": "ClusterIP"})},
		{Cluster: cluster, Resource: claims, Object: obj("v1", "PersistentVolumeClaim", "shop", "data",
			map[string]any{"volumeName": "pv-data"}), Made: []string{data}},
		{Cluster: cluster, Resource: claims, Object: obj("v1", "PersistentVolumeClaim", "shop", "archive",
			map[string]any{"volumeName": "pv-archive"})},
		{Cluster: cluster, Resource: volumes, Object: obj("v1", "PersistentVolume", "", "pv-data", map[string]any{
			"persistentVolumeReclaimPolicy": "Delete", "csi": map[string]any{"driver": "ebs.csi.aws.com", "volumeHandle": "vol-0data"}})},
		{Cluster: cluster, Resource: volumes, Object: obj("v1", "PersistentVolume", "", "pv-archive", map[string]any{
			"persistentVolumeReclaimPolicy": "Retain", "csi": map[string]any{"driver": "ebs.csi.aws.com", "volumeHandle": "vol-0archive"}})},
		{Cluster: cluster, Resource: nodePools, Object: obj("karpenter.sh/v1", "NodePool", "", "default", nil),
			Made: []string{template}},
		{Cluster: cluster, Resource: nodeClaims, Object: obj("karpenter.sh/v1", "NodeClaim", "", "default-x7k2p", nil),
			Made: []string{instance}},
	}
	var tagged []workloads.Tagged
	for _, by := range []struct {
		arns []string
		tags map[string]string
	}{{[]string{alb, tg, sg, nlb}, lbTags}, {[]string{data, retained}, ebsTags}, {[]string{instance, template}, karpenterTags}} {
		for _, a := range by.arns {
			tagged = append(tagged, workloads.Tagged{ARN: a, Region: region, Tags: by.tags})
		}
	}
	return objects, tagged
}

// taggedARNs are the ARNs of what the add-on controllers made that the offline cloud still holds in region.
func taggedARNs(t *testing.T, env *offline.Env, region string) []string {
	t.Helper()
	tagged, err := workloads.TaggedIn(env.Store, region)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range tagged {
		out = append(out, r.ARN)
	}
	slices.Sort(out)
	return out
}

// putWorkloads adds spokeWorkloads of cluster to the offline cloud.
func putWorkloads(env *offline.Env, cluster, region string) error {
	objects, tagged := spokeWorkloads(cluster, region)
	return workloads.Put(env.Store, objects, tagged)
}
