package gitopsbridge

import "maps"

// TypeToken is the Pulumi type of the component.
const TypeToken = "fleet:index:GitOpsBridge"

const (
	// DefaultNamespace is Argo CD's namespace.
	DefaultNamespace = "argocd"
	// DefaultReleaseName is the Helm release name of Argo CD.
	DefaultReleaseName = "argo-cd"
	// ChartName is the Argo CD chart in the Argo Helm repository.
	ChartName = "argo-cd"
	// DefaultChartRepository is the Argo Helm repository.
	DefaultChartRepository = "https://argoproj.github.io/argo-helm"
	// DefaultChartVersion is the pinned argo-cd chart version (Argo CD v3.4).
	DefaultChartVersion = "10.1.1"
	// DefaultGitBranch is the branch Git delivery writes to.
	DefaultGitBranch = "main"
)

// withDefaults returns args with every default filled in; name is the component's resource name.
func withDefaults(args GitOpsBridgeArgs, name string) GitOpsBridgeArgs {
	a := args
	a.Addons = maps.Clone(args.Addons)
	a.Metadata = maps.Clone(args.Metadata)
	if a.Namespace == "" {
		a.Namespace = DefaultNamespace
	}
	if a.SecretName == "" {
		a.SecretName = name
	}
	if args.Hub != nil {
		h := *args.Hub
		if h.Mode == "" {
			h.Mode = ModeSelfManaged
		}
		if h.ReleaseName == "" {
			h.ReleaseName = DefaultReleaseName
		}
		if h.ChartVersion == "" {
			h.ChartVersion = DefaultChartVersion
		}
		if h.ChartRepository == "" {
			h.ChartRepository = DefaultChartRepository
		}
		// An empty list is unset: Pulumi's Go SDK sends a nil list of a plain struct (pulumi.ToOutput) as an empty one.
		if len(h.ChartRepositories) == 0 {
			h.ChartRepositories = DefaultChartRepositories
		}
		a.Hub = &h
	}
	if args.Spoke != nil {
		s := *args.Spoke
		if s.HubMode == "" {
			s.HubMode = ModeSelfManaged
		}
		a.Spoke = &s
	}
	if args.Git != nil {
		g := *args.Git
		if g.Branch == "" {
			g.Branch = DefaultGitBranch
		}
		if g.PullRequest && g.PullRequestBranch == "" {
			g.PullRequestBranch = "gitops-fleet/" + a.SecretName
		}
		a.Git = &g
	}
	return a
}
