package tenant

import (
	"fmt"
	"slices"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Tenant is one tenant as Fleet builds it: its Argo CD project and ApplicationSet on the hub, and on every
// selected cluster its namespaces' objects, its roles and its TenantGuard.
type Tenant struct {
	pulumi.ResourceState
}

// Target is a selected cluster: its name (the EKS cluster's), region, API endpoint, CA and the role to reach it as
// (for its TenantGuard), ARN, account and IAM OIDC provider, the Kubernetes provider the tenant's objects reach it
// through, the aws provider of its account and region, and whether it runs the external_secrets add-on (then each
// namespace gets a SecretStore).
type Target struct {
	Name, Region                       string
	Endpoint, CertificateAuthorityData pulumi.StringInput
	AssumeRoleArn                      string
	ClusterArn, AccountId              pulumi.StringInput
	OidcProviderArn, OidcProviderUrl   pulumi.StringInput
	Kubernetes                         pulumi.ProviderResource
	AWS                                pulumi.ProviderResource
	ExternalSecrets                    bool
}

// Deployment is what NewTenant builds a tenant with (checked, with defaults): the tenant, its targets in the
// fleet's order, the hub's Kubernetes provider and Argo CD namespace, and what the hub's objects wait for (Argo
// CD's installation).
type Deployment struct {
	Tenant  TenantSpec
	Targets []Target
	Hub     pulumi.ProviderResource
	// Guard is the fleet provider that serves the TenantGuards.
	Guard           pulumi.ProviderResource
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
	project, err := gitopsbridge.NewObject(ctx, t.Name+"-project", Project(t, names, d.ArgocdNamespace), hub...)
	if err != nil {
		return nil, err
	}
	hubObjects := []pulumi.Resource{project}
	if t.Workloads != nil {
		set := map[string]any{"apiVersion": gitopsbridge.ArgoAPIVersion, "kind": "ApplicationSet",
			"metadata": map[string]any{"name": t.Name + "-workloads", "namespace": d.ArgocdNamespace},
			"spec":     ApplicationSet(t, names, *t.Workloads)}
		appSet, err := gitopsbridge.NewObject(ctx, t.Name+"-workloads", set, hub...)
		if err != nil {
			return nil, err
		}
		hubObjects = append(hubObjects, appSet)
	}
	for _, c := range d.Targets {
		roles, err := identities(ctx, comp, t, c)
		if err != nil {
			return nil, err
		}
		registered := append(slices.Clone(hubObjects), roles...)
		for _, n := range t.Namespaces {
			objects, err := Manifests(t, n, nil, c.ExternalSecrets, c.Region)
			if err != nil {
				return nil, err
			}
			if c.ExternalSecrets {
				role, err := secretsRole(ctx, comp, t, c, n)
				if err != nil {
					return nil, err
				}
				annotate(objects, SecretsServiceAccount, role)
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
				registered = append(registered, &r)
			}
		}
		if err := guard(ctx, comp, d, c, registered); err != nil {
			return nil, err
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

// annotate gives the service account named name in objects the eks.amazonaws.com/role-arn annotation role.
func annotate(objects []map[string]any, name string, role pulumi.StringOutput) {
	for _, o := range objects {
		md := o["metadata"].(map[string]any)
		if o["kind"] == "ServiceAccount" && md["name"] == name {
			md["annotations"] = map[string]any{roleArnAnnotation: role}
		}
	}
}

// guard registers the tenant's TenantGuard on target c, after (so deleted before) the objects registered there.
func guard(ctx *pulumi.Context, parent pulumi.Resource, d Deployment, c Target, objects []pulumi.Resource) error {
	var namespaces []string
	for _, n := range d.Tenant.Namespaces {
		namespaces = append(namespaces, n.Name)
	}
	var r struct{ pulumi.CustomResourceState }
	return ctx.RegisterResource(GuardToken, d.Tenant.Name+"-"+c.Name+"-guard", pulumi.Map{
		"tenant": pulumi.String(d.Tenant.Name), "clusterName": pulumi.String(c.Name), "region": pulumi.String(c.Region),
		"endpoint": c.Endpoint, "certificateAuthorityData": c.CertificateAuthorityData,
		"assumeRoleArn": pulumi.String(c.AssumeRoleArn), "namespaces": pulumi.ToStringArray(namespaces),
		"preventDeletion": pulumi.Bool(*d.Tenant.PreventDeletion),
	}, &r, pulumi.Parent(parent), pulumi.Provider(d.Guard), pulumi.DependsOn(objects))
}
