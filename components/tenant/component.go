package tenant

import (
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Tenant is one tenant as Fleet builds it: its Argo CD project and ApplicationSet on the hub, and its namespaces'
// objects on every selected cluster.
type Tenant struct {
	pulumi.ResourceState
}

// Target is a selected cluster: its name (the EKS cluster's), region and ARN, the Kubernetes provider the
// tenant's objects reach it through, and the aws provider of its account and region.
type Target struct {
	Name, Region string
	ClusterArn   pulumi.StringInput
	Kubernetes   pulumi.ProviderResource
	AWS          pulumi.ProviderResource
}

// Deployment is what NewTenant builds a tenant with (checked, with defaults): the tenant, its targets in the
// fleet's order, the hub's Kubernetes provider and Argo CD namespace, and what the hub's objects wait for (Argo
// CD's installation).
type Deployment struct {
	Tenant          TenantSpec
	Targets         []Target
	Hub             pulumi.ProviderResource
	ArgocdNamespace string
	After           []pulumi.Resource
}

// NewTenant registers the tenant (fleet:index:Tenant) under the fleet: the AppProject tenant-<name> and, with
// workloads, the ApplicationSet <name>-workloads, in Argo CD's namespace on the hub; on each target, the roles and
// Pod Identity associations of its service accounts (identities) and each namespace's manifests (Manifests),
// through the target's provider, the namespace first. Objects are named <tenant>-<cluster>-<namespace>-<kind>-<name>.
func NewTenant(ctx *pulumi.Context, d Deployment, opts ...pulumi.ResourceOption) (*Tenant, error) {
	t := d.Tenant
	comp := &Tenant{}
	if err := ctx.RegisterComponentResource(TypeToken, t.Name, comp, opts...); err != nil {
		return nil, err
	}
	names := make([]string, len(d.Targets))
	for i, c := range d.Targets {
		names[i] = c.Name
	}
	hub := []pulumi.ResourceOption{pulumi.Parent(comp), pulumi.Provider(d.Hub), pulumi.DependsOn(d.After)}
	if _, err := gitopsbridge.NewObject(ctx, t.Name+"-project", Project(t, names, d.ArgocdNamespace), hub...); err != nil {
		return nil, err
	}
	if t.Workloads != nil {
		set := map[string]any{"apiVersion": gitopsbridge.ArgoAPIVersion, "kind": "ApplicationSet",
			"metadata": map[string]any{"name": t.Name + "-workloads", "namespace": d.ArgocdNamespace},
			"spec":     ApplicationSet(t, names, *t.Workloads)}
		if _, err := gitopsbridge.NewObject(ctx, t.Name+"-workloads", set, hub...); err != nil {
			return nil, err
		}
	}
	for _, c := range d.Targets {
		if err := identities(ctx, comp, t, c); err != nil {
			return nil, err
		}
		for _, n := range t.Namespaces {
			// No SecretStore yet: its role (reading the tenant's prefix, trusting the tenant-secrets service account)
			// is not built.
			objects, err := Manifests(t, n, nil, false, c.Region)
			if err != nil {
				return nil, err
			}
			var namespace pulumi.Resource
			for _, obj := range objects {
				md := obj["metadata"].(map[string]any)
				name := fmt.Sprintf("%s-%s-%s-%s-%s", t.Name, c.Name, n.Name, obj["kind"], md["name"])
				if obj["kind"] == "Namespace" {
					name = fmt.Sprintf("%s-%s-%s", t.Name, c.Name, n.Name)
				}
				opts := []pulumi.ResourceOption{pulumi.Parent(comp), pulumi.Provider(c.Kubernetes)}
				if namespace != nil {
					opts = append(opts, pulumi.DependsOn([]pulumi.Resource{namespace}))
				}
				var r kubeObject
				err := ctx.RegisterResource(typeToken(obj), name, pulumi.ToMap(obj), &r, opts...)
				if err != nil {
					return nil, err
				}
				if namespace == nil {
					namespace = &r
				}
			}
		}
	}
	return comp, ctx.RegisterResourceOutputs(comp, pulumi.Map{})
}

// kubeObject is a Kubernetes object registered by its type token.
type kubeObject struct {
	pulumi.CustomResourceState
}

// typeToken is the pulumi-kubernetes type of an object: kubernetes:<group>/<version>:<kind>, the core group
// named "core" ("kubernetes:core/v1:Namespace").
func typeToken(obj map[string]any) string {
	apiVersion := fmt.Sprint(obj["apiVersion"])
	if apiVersion == "v1" {
		apiVersion = "core/v1"
	}
	return fmt.Sprintf("kubernetes:%s:%s", apiVersion, obj["kind"])
}
