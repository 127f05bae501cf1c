package tenant

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Tenant is one tenant onboarded onto the clusters it selects (fleet:index:Tenant, standalone or under a Fleet): its
// Argo CD projects and ApplicationSets on the hub, and on every selected cluster its namespaces' objects, its roles,
// its owners' access and its TenantGuard.
//
// With git the in-cluster objects are committed to the registry repository for Argo CD to sync; each selected
// cluster pins what that folder may set with admission policies. Guide: https://github.com/gitops-fleet/pulumi-fleet/blob/main/docs/tenants.md.
type Tenant struct {
	pulumi.ResourceState

	// Clusters are the clusters the tenant is onboarded onto, in the order given.
	Clusters pulumi.StringArrayOutput `pulumi:"clusters"`
	// Project is the tenant's Argo CD project on the hub (tenant-<name>), which its Applications use.
	Project pulumi.StringOutput `pulumi:"project"`
	// Folder is, with Git delivery, the tenant's folder of the repository (tenants/<name>); "" without.
	Folder pulumi.StringOutput `pulumi:"folder"`
}

// Target is a selected cluster: its name (the EKS cluster's), region, API endpoint, CA and the role to reach it as
// (for its TenantGuard), ARN, account and IAM OIDC provider, the Kubernetes provider the tenant's admission
// policies (and, with direct delivery, its objects) reach it through (required), the aws provider of its account
// and region, whether it runs the external_secrets add-on (then each namespace gets a SecretStore), and whether it
// binds roles through EKS Pod Identity (else IRSA).
type Target struct {
	Name, Region                       string
	Endpoint, CertificateAuthorityData pulumi.StringInput
	AssumeRoleArn                      string
	ClusterArn, AccountId              pulumi.StringInput
	OidcProviderArn, OidcProviderUrl   pulumi.StringInput
	Kubernetes                         pulumi.ProviderResource
	AWS                                pulumi.ProviderResource
	ExternalSecrets                    bool
	PodIdentity                        bool
	// Velero says the cluster runs the velero add-on, whose chart binds its server to cluster-admin: the tenant's
	// role-bindings policy admits that one binding (Velero).
	Velero bool
	// Handover is set in the run that moves the cluster from direct to Git delivery: the objects are written
	// directly once more, now retained on delete, so that the next run lets them go without deleting them (Argo
	// CD's Application, syncing the same objects from Git, owns them from then on).
	Handover bool
	// Drain is the cluster's ClusterDrain, when it has one (Fleet's): the tenant's guard depends on it, so that the
	// engine deletes the guard first. A destroy then asks the guard before the drain deletes the cluster's claims,
	// the tenant's among them: with preventDeletion, a tenant's claims stop the destroy instead of being drained.
	Drain pulumi.Resource
}

// Deployment is what Deploy and NewTenant build a tenant with (checked, with defaults): the tenant, its targets in the
// fleet's order, the hub's Kubernetes provider and Argo CD namespace, and what the hub's objects wait for (Argo
// CD's installation).
type Deployment struct {
	Tenant  TenantSpec
	Targets []Target
	Hub     pulumi.ProviderResource
	// Guard is the fleet provider that serves the TenantGuards. Default: the stack's default fleet provider.
	Guard           pulumi.ProviderResource
	ArgocdNamespace string
	After           []pulumi.Resource
	// Git, when set, delivers the in-cluster objects through Git (the registry repository): a file per target
	// (FilePath), committed to Git's branch or, with its pullRequest, as one pull request from its
	// PullRequestBranch, through the github provider GitHub; and on the hub the platform project and
	// ApplicationSet that sync them. Without it they are written through each target's Kubernetes provider.
	Git    *gitopsbridge.GitHubTarget
	GitHub pulumi.ProviderResource
	// AccessEntries registers the owners' EKS access entries on each target (the standalone Tenant); Fleet merges
	// them into each FleetCluster's accessEntries instead (AccessEntries).
	AccessEntries bool
}

// Deploy registers the tenant (fleet:index:Tenant, named after it) with opts and builds it (build): how Fleet
// onboards each of its tenants.
func Deploy(ctx *pulumi.Context, d Deployment, opts ...pulumi.ResourceOption) (*Tenant, error) {
	comp := &Tenant{}
	if err := ctx.RegisterComponentResource(TypeToken, d.Tenant.Name, comp, opts...); err != nil {
		return nil, err
	}
	return comp, build(ctx, comp, d)
}

// build registers the tenant's objects under comp: the AppProject tenant-<name> and, with workloads, the
// ApplicationSet <name>-workloads, in Argo CD's namespace on the hub; on each target, the roles of its service
// accounts (identities), its owners' access entries (d.AccessEntries), its admission policies (NamespacePolicy,
// SecretStorePolicy, through the target's provider), and after them each namespace's manifests (Manifests),
// written through the target's provider, the namespace first, or with Git committed (File) and synced by the
// platform project and ApplicationSet on the hub; last, on each target, the TenantGuard. Objects are named
// <tenant>-<cluster>-<namespace>-<kind>-<name>. It sets comp's outputs and registers them.
func build(ctx *pulumi.Context, comp *Tenant, d Deployment) error {
	t := d.Tenant
	names := make([]string, len(d.Targets))
	for i, c := range d.Targets {
		names[i] = c.Name
	}
	hubObjects, err := hubObjects(ctx, comp, d, names)
	if err != nil {
		return err
	}
	registered := make([][]pulumi.Resource, len(d.Targets))
	var files []gitopsbridge.GitHubFile
	var pinned []pulumi.Resource // every target's admission policies, which the objects they guard wait for
	for i, c := range d.Targets {
		roles, arns, err := identities(ctx, comp, t, c)
		if err != nil {
			return err
		}
		// With Git, the policies come after the hub's objects, so that removing the tenant deletes them first:
		// the platform ApplicationSet's Applications then delete the tenant's objects (Argo CD's resources
		// finalizer) with no guard left to refuse them.
		var after []pulumi.Resource
		if d.Git != nil {
			after = hubObjects
		}
		guards, err := policies(ctx, comp, t, c, after)
		if err != nil {
			return err
		}
		pinned = append(pinned, guards...)
		registered[i] = append(append(slices.Clone(hubObjects), roles...), guards...)
		if d.AccessEntries {
			entries, err := accessEntries(ctx, comp, t, c)
			if err != nil {
				return err
			}
			registered[i] = append(registered[i], entries...)
		}
		if d.Git == nil || c.Handover {
			objects, err := direct(ctx, comp, t, c, arns, guards)
			if err != nil {
				return err
			}
			registered[i] = append(registered[i], objects...)
		}
		if d.Git != nil {
			files = append(files, gitopsbridge.GitHubFile{Name: t.Name + "-" + c.Name + "-file",
				Path: pulumi.String(FilePath(t.Name, c.Name)), Content: fileContent(t, c, arns),
				Message: pulumi.Sprintf("Tenant %s on cluster %s", t.Name, c.Name)})
		}
	}
	if d.Git != nil {
		committed, _, err := gitopsbridge.Commit(ctx, t.Name+"-git", *d.Git, files, gitopsbridge.PullRequest{
			Title: pulumi.Sprintf("Tenant %s", t.Name),
			Body: pulumi.Sprintf("The namespaces of tenant %s on %s (%s).\n\nOpened by %s.", t.Name,
				strings.Join(names, ", "), Folder(t.Name), TypeToken)},
			pulumi.Parent(comp), pulumi.Provider(d.GitHub), pulumi.DependsOn(pinned))
		if err != nil {
			return err
		}
		for i := range d.Targets {
			registered[i] = append(registered[i], committed[i])
		}
	}
	for i, c := range d.Targets {
		if err := guard(ctx, comp, d, c, registered[i]); err != nil {
			return err
		}
	}
	comp.Clusters = pulumi.ToStringArray(names).ToStringArrayOutput()
	comp.Project = pulumi.String(ProjectName(t.Name)).ToStringOutput()
	comp.Folder = pulumi.String("").ToStringOutput()
	if d.Git != nil {
		comp.Folder = pulumi.String(Folder(t.Name)).ToStringOutput()
	}
	return ctx.RegisterResourceOutputs(comp, pulumi.Map{"clusters": comp.Clusters, "project": comp.Project,
		"folder": comp.Folder})
}

// hubObjects registers the tenant's objects on the hub, through its provider after d.After: the AppProject
// tenant-<name>; with workloads, the ApplicationSet <name>-workloads; with Git, the platform project and
// ApplicationSet of its folder.
func hubObjects(ctx *pulumi.Context, comp *Tenant, d Deployment, clusters []string) ([]pulumi.Resource, error) {
	t, ns := d.Tenant, d.ArgocdNamespace
	type object struct {
		name string
		obj  map[string]any
	}
	objects := []object{{t.Name + "-project", Project(t, clusters, ns)}}
	if t.Workloads != nil {
		objects = append(objects, object{t.Name + "-workloads",
			applicationSet(t.Name+"-workloads", ns, ApplicationSet(t, clusters, *t.Workloads))})
	}
	if d.Git != nil {
		objects = append(objects, object{t.Name + "-platform-project", PlatformProject(t, clusters, d.Git.RepoURL(), ns)},
			object{t.Name + "-platform", applicationSet(PlatformSetName(t.Name), ns, PlatformApplicationSet(t, clusters, *d.Git))})
	}
	opts := []pulumi.ResourceOption{pulumi.Parent(comp), pulumi.Provider(d.Hub), pulumi.DependsOn(d.After)}
	var out []pulumi.Resource
	for _, o := range objects {
		r, err := gitopsbridge.NewObject(ctx, o.name, o.obj, opts...)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// applicationSet is an ApplicationSet object named name in Argo CD's namespace ns.
func applicationSet(name, ns string, spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": gitopsbridge.ArgoAPIVersion, "kind": "ApplicationSet",
		"metadata": map[string]any{"name": name, "namespace": ns}, "spec": spec}
}

// direct writes each namespace's manifests onto target c through its Kubernetes provider, after the admission
// policies that guard them (after), the namespace first, its IRSA service accounts annotated with their roles
// (arns); retained on delete in a handover.
func direct(ctx *pulumi.Context, comp *Tenant, t TenantSpec, c Target, arns map[string]roleArns, after []pulumi.Resource,
) ([]pulumi.Resource, error) {
	var out []pulumi.Resource
	for _, n := range t.Namespaces {
		objects, err := Manifests(t, n, nil, c.ExternalSecrets, c.Region)
		if err != nil {
			return nil, err
		}
		for sa, arn := range arns[n.Name] {
			annotate(objects, sa, arn)
		}
		var namespace pulumi.Resource
		for _, obj := range objects {
			md := obj["metadata"].(map[string]any)
			name := fmt.Sprintf("%s-%s-%s-%s-%s", t.Name, c.Name, n.Name, obj["kind"], md["name"])
			if obj["kind"] == "Namespace" {
				name = fmt.Sprintf("%s-%s-%s", t.Name, c.Name, n.Name)
			}
			opts := []pulumi.ResourceOption{pulumi.Parent(comp), pulumi.Provider(c.Kubernetes), pulumi.RetainOnDelete(c.Handover),
				pulumi.DependsOn(after)}
			if namespace != nil {
				opts = append(opts, pulumi.DependsOn([]pulumi.Resource{namespace}))
			}
			var r kubeObject
			if err := ctx.RegisterResource(typeToken(obj), name, pulumi.ToMap(obj), &r, opts...); err != nil {
				return nil, err
			}
			if namespace == nil {
				namespace = &r
			}
			out = append(out, &r)
		}
	}
	return out, nil
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

// guard registers the tenant's TenantGuard on target c, after (so deleted before) the objects registered there and
// the cluster's drain.
func guard(ctx *pulumi.Context, parent pulumi.Resource, d Deployment, c Target, objects []pulumi.Resource) error {
	after := objects
	if c.Drain != nil {
		after = append(slices.Clone(objects), c.Drain)
	}
	opts := []pulumi.ResourceOption{pulumi.Parent(parent), pulumi.DependsOn(after)}
	if d.Guard != nil {
		opts = append(opts, pulumi.Provider(d.Guard))
	}
	var r struct{ pulumi.CustomResourceState }
	return ctx.RegisterResource(GuardToken, d.Tenant.Name+"-"+c.Name+"-guard", pulumi.Map{
		"tenant": pulumi.String(d.Tenant.Name), "clusterName": pulumi.String(c.Name), "region": pulumi.String(c.Region),
		"endpoint": c.Endpoint, "certificateAuthorityData": c.CertificateAuthorityData,
		"assumeRoleArn": pulumi.String(c.AssumeRoleArn), "namespaces": pulumi.ToStringArray(d.Tenant.NamespaceNames()),
		"preventDeletion": pulumi.Bool(*d.Tenant.PreventDeletion),
	}, &r, opts...)
}
