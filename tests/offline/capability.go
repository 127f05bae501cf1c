package offline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
	"github.com/gitops-fleet/pulumi-fleet/tests/upstream"
)

// ArgoCDCRDs are the files of Argo CD's CRDs under upstream.Dir, those of the argo-cd chart the self-managed hub
// installs (the managed Argo CD's own version is EKS's; its CRDs are not published apart).
var ArgoCDCRDs = []string{"argo-cd-chart-10.1.1/crd-application.yaml", "argo-cd-chart-10.1.1/crd-applicationset.yaml",
	"argo-cd-chart-10.1.1/crd-appproject.yaml"}

// The access policies EKS associates with a capability's role on its own cluster (EKS User Guide, "Security
// considerations for EKS Capabilities").
const (
	argoCDClusterPolicy = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSArgoCDClusterPolicy"
	argoCDPolicy        = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSArgoCDPolicy"
)

// helmLine is a line of a Helm template (the chart's CRD files are templates): dropped before parsing.
var helmLine = regexp.MustCompile(`(?m)^.*\{\{.*\}\}.*$\n?`)

var crdGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// capabilityHooks do on the offline clusters what EKS does for an Argo CD capability: once it is ACTIVE, Argo CD's
// CRDs and the capability's namespace on the cluster's control plane, and an access entry for the capability's
// role with the two Argo CD access policies (records of the store, as the fleet's own entries are, so the control
// plane authorizes them); once it is deleted, the entry goes and the rest stays.
func capabilityHooks(root string, clusters controlplane.Clusters, store *emulator.Store) capabilities.Hooks {
	return capabilities.Hooks{
		Active: func(region string, c map[string]any) error {
			cluster, role, ns := fmt.Sprint(c["clusterName"]), fmt.Sprint(c["roleArn"]), capabilityNamespace(c)
			if err := installArgoCD(root, clusters, controlplane.Name(region, cluster), ns); err != nil {
				return fmt.Errorf("capability of %s: %w", cluster, err)
			}
			for _, r := range capabilityAccess(region, cluster, role, ns, fmt.Sprint(c["arn"])) {
				if err := store.Put(r); err != nil {
					return err
				}
			}
			return aws.SyncAccess(context.Background(), store, clusters, region, cluster)
		},
		Gone: func(region string, c map[string]any) error {
			cluster := fmt.Sprint(c["clusterName"])
			for _, r := range capabilityAccess(region, cluster, fmt.Sprint(c["roleArn"]), capabilityNamespace(c), "") {
				if _, err := store.Delete(r.Package, r.Type, r.ID); err != nil {
					return err
				}
			}
			return aws.SyncAccess(context.Background(), store, clusters, region, cluster)
		},
	}
}

func capabilityNamespace(c map[string]any) string {
	conf, _ := c["configuration"].(map[string]any)
	argo, _ := conf["argoCd"].(map[string]any)
	if ns, _ := argo["namespace"].(string); ns != "" {
		return ns
	}
	return "argocd"
}

// capabilityAccess are the store's records of the access entry EKS makes a capability's role on its cluster.
func capabilityAccess(region, cluster, role, namespace, arn string) []emulator.Record {
	urn := "eks:capability:" + arn
	rec := func(typ, id string, state map[string]any) emulator.Record {
		raw, err := emulator.PlainState(state)
		if err != nil {
			panic(err) // plain strings and lists: cannot fail
		}
		return emulator.Record{Package: "aws", Type: typ, ID: id, Scope: region, URN: urn, State: raw}
	}
	out := []emulator.Record{rec(aws.AccessEntryType, cluster+":"+role, map[string]any{
		"clusterName": cluster, "principalArn": role, "type": "STANDARD", "kubernetesGroups": []any{}})}
	for policy, scope := range map[string]map[string]any{
		argoCDClusterPolicy: {"type": "cluster"},
		argoCDPolicy:        {"type": "namespace", "namespaces": []any{namespace}},
	} {
		out = append(out, rec(aws.AccessPolicyAssociationType, cluster+"#"+role+"#"+policy, map[string]any{
			"clusterName": cluster, "principalArn": role, "policyArn": policy, "accessScope": scope}))
	}
	return out
}

// installArgoCD creates Argo CD's CRDs (waiting until the API server serves them) and namespace on the control
// plane name.
func installArgoCD(root string, clusters controlplane.Clusters, name, namespace string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := clusters.Start(ctx, name); err != nil {
		return err
	}
	dyn, err := clusters.Dynamic(name)
	if err != nil {
		return err
	}
	up, err := upstream.Dir(root)
	if err != nil {
		return err
	}
	for _, f := range ArgoCDCRDs {
		data, err := os.ReadFile(filepath.Join(up, f))
		if err != nil {
			return err
		}
		var crd unstructured.Unstructured
		if err := yaml.Unmarshal(helmLine.ReplaceAll(data, nil), &crd.Object); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		if _, err := dyn.Resource(crdGVR).Create(ctx, &crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("CRD %s: %w", crd.GetName(), err)
		}
		if err := established(ctx, dyn.Resource(crdGVR), crd.GetName()); err != nil {
			return err
		}
	}
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": namespace}}}
	_, err = dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Create(ctx, ns, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}

// established waits until the API server reports the CRD name Established (it serves its kind).
func established(ctx context.Context, crds dynamic.ResourceInterface, name string) error {
	for {
		crd, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		conditions, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
		for _, c := range conditions {
			if m, _ := c.(map[string]any); m["type"] == "Established" && m["status"] == "True" {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("CRD %s not established: %w", name, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
