package gitopsbridge

import (
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/apiextensions"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// RegistryApplicationName is the name of the registry Application of an environment.
func RegistryApplicationName(environment string) string { return "cluster-registry-" + environment }

// RegistryPath is the folder of the registry repository that holds an environment's cluster secrets: where
// Git delivery commits them by default (clusters/<environment>/<cluster>.yaml).
func RegistryPath(environment string) string { return "clusters/" + environment }

// RegistryApplication is the spec of the Argo CD Application (argoproj.io/v1alpha1) that syncs an environment's
// cluster secrets from the registry repository into the hub's Argo CD namespace, in project fleet-registry: a merged pull request registers
// a cluster, a removed file unregisters it (prune), and an edit on the hub is put back (selfHeal). A sync the hub's
// guard refuses is retried (RegistryRetry): a commit and the guard that admits it land in the same `up`, in no
// set order, so the first sync of a new registration may come before its guard. hub is where it syncs to: Argo
// CD's namespace on the hub (HubDestination).
func RegistryApplication(g GitDelivery, environment string, hub ProjectDestination) map[string]any {
	return map[string]any{
		"project": RegistryProject,
		"source": map[string]any{
			"repoURL":        g.Target().RepoURL(),
			"targetRevision": g.Branch,
			"path":           RegistryPath(environment),
		},
		"destination": hub.Object(),
		"syncPolicy": map[string]any{
			"automated": map[string]any{"prune": true, "selfHeal": true},
			"retry":     RegistryRetry,
		},
	}
}

// RegistryRetry is the registry Applications' retry of a failed sync (Argo CD's syncPolicy.retry): without limit
// (a negative limit), 5 s apart at first, doubling up to every 3 minutes, so that a registration converges once the
// hub's stack has run. Each retry syncs the branch's latest commit (refresh: true): Argo CD's default retries the
// revision that failed, so a commit the guard refused would be retried forever and hide every later commit to the
// registry, the one that fixes it included (Argo CD's RetryStrategy.Refresh, in the CRD of chart 10.1.1).
var RegistryRetry = map[string]any{
	"limit":   -1,
	"backoff": map[string]any{"duration": "5s", "factor": 2, "maxDuration": "3m"},
	"refresh": true,
}

// registry creates the hub's registry Applications, one per environment of hub.registryEnvironments (default:
// the hub's own), through the hub's provider after Argo CD.
func (b *builder) registry(k8s pulumi.ProviderResource, after pulumi.ResourceOption) ([]pulumi.Resource, error) {
	if len(b.args.Hub.RegistryEnvironments) == 0 {
		app, err := b.registryApplication(k8s, after, "registry", b.cluster.Environment)
		return []pulumi.Resource{app}, err
	}
	var out []pulumi.Resource
	for _, env := range b.args.Hub.RegistryEnvironments {
		app, err := b.registryApplication(k8s, after, "registry-"+env, pulumi.String(env).ToStringOutput())
		if err != nil {
			return nil, err
		}
		out = append(out, app)
	}
	return out, nil
}

func (b *builder) registryApplication(k8s pulumi.ProviderResource, after pulumi.ResourceOption, part string,
	environment pulumi.StringOutput,
) (pulumi.Resource, error) {
	g, ns := *b.args.Git, b.args.Namespace
	return apiextensions.NewCustomResource(b.ctx, childName(b.name, part), &apiextensions.CustomResourceArgs{
		ApiVersion: pulumi.String(ArgoAPIVersion),
		Kind:       pulumi.String("Application"),
		Metadata: &metav1.ObjectMetaArgs{
			Name:      environment.ApplyT(RegistryApplicationName).(pulumi.StringOutput),
			Namespace: pulumi.String(ns),
		},
		OtherFields: kubernetes.UntypedArgs{"spec": pulumi.All(environment, b.cluster.ClusterName).ApplyT(func(v []any) map[string]any {
			return RegistryApplication(g, v[0].(string), HubDestination(b.args, v[1].(string), ns))
		}).(pulumi.MapOutput)},
	}, b.child(k8s, after)...)
}
