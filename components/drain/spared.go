package drain

import (
	"context"
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ebsDriver is the EBS CSI driver's name in a PersistentVolume's spec.csi.driver.
const ebsDriver = "ebs.csi.aws.com"

// madeFor are the resource types (the element of an ARN's resource before "/") each kind's controller makes,
// which stay when the kind is kept: a kept Ingress keeps its load balancer.
var madeFor = map[Kind][]string{
	Ingresses:              {"loadbalancer", "targetgroup", "security-group"},
	Gateways:               {"loadbalancer", "targetgroup", "security-group"},
	LoadBalancerServices:   {"loadbalancer", "targetgroup", "security-group"},
	PersistentVolumeClaims: {"volume"},
	NodePools:              {"instance", "launch-template"},
	NodeClaims:             {"instance", "launch-template"},
}

// spared tells which leftovers the drain does not wait for, as they stay on purpose: what the kept kinds' objects
// made, and the EBS volumes of PersistentVolumes whose reclaim policy is not Delete (Retain: the volume outlives
// its claim and the cluster by design; the drain never deletes their claims).
func (d Drainer) spared(ctx context.Context, keep []Kind) (func(arn string) bool, error) {
	var types []string
	for _, k := range keep {
		types = append(types, madeFor[k]...)
	}
	list, err := d.Kube.Resource(persistentVolumes).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("draining cluster %q: listing persistentvolumes: %w", d.Cluster, err)
	}
	var retained []string
	for _, pv := range list.Items {
		policy, _, _ := unstructured.NestedString(pv.Object, "spec", "persistentVolumeReclaimPolicy")
		driver, _, _ := unstructured.NestedString(pv.Object, "spec", "csi", "driver")
		handle, _, _ := unstructured.NestedString(pv.Object, "spec", "csi", "volumeHandle")
		if policy != "Delete" && driver == ebsDriver && handle != "" {
			retained = append(retained, handle)
			d.log("keeping volume %s of persistentvolume %s (reclaim policy %s)", handle, pv.GetName(), policy)
		}
	}
	return func(arn string) bool {
		kind, id := resourceOf(arn)
		return slices.Contains(types, kind) || (kind == "volume" && slices.Contains(retained, id))
	}, nil
}

// resourceOf is an ARN's resource type and ID: "volume", "vol-0abc" of arn:aws:ec2:r:a:volume/vol-0abc.
func resourceOf(arn string) (kind, id string) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 {
		return "", ""
	}
	kind, id, _ = strings.Cut(parts[5], "/")
	return kind, id
}
