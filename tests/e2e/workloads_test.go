package e2e

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/workloads"
	"github.com/gitops-fleet/pulumi-fleet/tests/fleettest"
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

// obj is an object of apiVersion and kind named namespace/name with spec (when not nil) and finalizers.
func obj(apiVersion, kind, namespace, name string, spec map[string]any, finalizers ...string) map[string]any {
	fs := []any{} // JSON's types, as runtime.DeepCopyJSON takes them
	for _, f := range finalizers {
		fs = append(fs, f)
	}
	md := map[string]any{"name": name, "finalizers": fs}
	if namespace != "" {
		md["namespace"] = namespace
	}
	o := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": md}
	if spec != nil {
		o["spec"] = spec
	}
	return o
}

// ingressFinalizer is the AWS Load Balancer Controller's finalizer on an Ingress whose load balancer it made.
const ingressFinalizer = "ingress.k8s.aws/resources"

// spokeWorkloads are what a cluster runs once Argo CD synced its workloads, as a real API server takes them: an
// Ingress (an ALB, its target group and security group, tagged by the Load Balancer Controller, under its
// finalizer), a LoadBalancer Service (an NLB, likewise) and a ClusterIP one, a claim bound to a Delete volume (tagged
// by the EBS CSI driver) and one bound to a Retain volume, and a Karpenter v1 NodePool and its NodeClaim (an
// instance and a launch template, tagged by Karpenter, under Karpenter's finalizer), all in namespace shop.
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
	ports := []any{map[string]any{"port": int64(443)}}
	claim := func(volume string) map[string]any {
		return map[string]any{"accessModes": []any{"ReadWriteOnce"}, "storageClassName": "", "volumeName": volume,
			"resources": map[string]any{"requests": map[string]any{"storage": "1Gi"}}}
	}
	volume := func(policy, handle, claim string) map[string]any {
		return map[string]any{"persistentVolumeReclaimPolicy": policy, "accessModes": []any{"ReadWriteOnce"},
			"capacity": map[string]any{"storage": "1Gi"}, "csi": map[string]any{"driver": "ebs.csi.aws.com", "volumeHandle": handle},
			"claimRef": map[string]any{"namespace": "shop", "name": claim}}
	}
	objects := []workloads.Object{
		{Cluster: cluster, Resource: ingresses, Object: obj("networking.k8s.io/v1", "Ingress", "shop", "web", map[string]any{
			"defaultBackend": map[string]any{"service": map[string]any{"name": "web", "port": map[string]any{"number": int64(443)}}}},
			ingressFinalizer), Made: []string{alb, tg, sg}},
		{Cluster: cluster, Resource: services, Object: obj("v1", "Service", "shop", "api",
			map[string]any{"type": "LoadBalancer", "ports": ports}, lbFinalizer), Made: []string{nlb}},
		{Cluster: cluster, Resource: services, Object: obj("v1", "Service", "shop", "internal",
			map[string]any{"type": "ClusterIP", "ports": ports})},
		{Cluster: cluster, Resource: volumes, Object: obj("v1", "PersistentVolume", "", "pv-data", volume("Delete", "vol-0data", "data"))},
		{Cluster: cluster, Resource: volumes, Object: obj("v1", "PersistentVolume", "", "pv-archive", volume("Retain", "vol-0archive", "archive"))},
		{Cluster: cluster, Resource: claims, Object: obj("v1", "PersistentVolumeClaim", "shop", "data", claim("pv-data")),
			Made: []string{data}},
		{Cluster: cluster, Resource: claims, Object: obj("v1", "PersistentVolumeClaim", "shop", "archive", claim("pv-archive"))},
		{Cluster: cluster, Resource: nodePools, Object: obj("karpenter.sh/v1", "NodePool", "", "default",
			map[string]any{"template": map[string]any{"spec": map[string]any{}}}, karpenterFinalizer), Made: []string{template}},
		{Cluster: cluster, Resource: nodeClaims, Object: obj("karpenter.sh/v1", "NodeClaim", "", "default-x7k2p",
			map[string]any{}, karpenterFinalizer), Made: []string{instance}},
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
func taggedARNs(t *testing.T, env *fleettest.Env, region string) []string {
	t.Helper()
	tagged, err := workloads.TaggedIn(env.Cloud().Store(), region)
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
