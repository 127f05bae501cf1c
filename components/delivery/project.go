package delivery

import "github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"

// AppProjectName is the Argo CD project of a delivery's Applications: "<project>-delivery".
func AppProjectName(project string) string { return project + "-delivery" }

// hubDestination is namespace on the hub, as the stages' Applications and their project name it: by the hub's
// name in a managed Argo CD (HubName), else the in-cluster server.
func hubDestination(a StackDeliveryArgs, namespace string) gitopsbridge.ProjectDestination {
	if a.HubName != "" {
		return gitopsbridge.ProjectDestination{Name: a.HubName, Namespace: namespace}
	}
	return gitopsbridge.ProjectDestination{Server: gitopsbridge.InClusterServer, Namespace: namespace}
}

// AppProject is the Argo CD project of the stages' Applications: the manifests repository is its only source,
// the stages' namespaces on the hub (hubDestination) its only destinations, pulumi.com Stacks the only kind a sync
// may create (no cluster-scoped kind). So a manifests commit can deliver Stacks to the stages, nothing else; what a
// Stack may say is the Stack guard's (StackGuard).
func AppProject(a StackDeliveryArgs) gitopsbridge.AppProject {
	var dests []gitopsbridge.ProjectDestination
	for _, s := range a.Stages {
		if !s.ownsWorkspace() { // a gate deploys nothing; a preview stage deploys to its target's namespace
			continue
		}
		dests = append(dests, hubDestination(a, s.Namespace))
	}
	return gitopsbridge.AppProject{
		Name: AppProjectName(a.Project), Namespace: a.ArgocdNamespace,
		Description:        "Pulumi Stacks of Kargo project " + a.Project + " from " + a.Manifests.Target().RepoURL(),
		SourceRepos:        []string{a.Manifests.Target().RepoURL()},
		Destinations:       dests,
		NamespaceResources: []gitopsbridge.GroupKind{{Group: "pulumi.com", Kind: StackKind}},
		SignatureKeys:      a.Manifests.SignatureKeys,
	}
}
