package gitopsbridge

import (
	"errors"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

func TestValidation(t *testing.T) {
	app := func(kind, name string) map[string]any {
		return map[string]any{"apiVersion": ArgoAPIVersion, "kind": kind, "metadata": map[string]any{"name": name}}
	}
	cases := map[string]struct {
		reason string
		name   string // resource name; "hub" when empty
		args   func(a *GitOpsBridgeArgs)
		fields []string // every field the error must name
	}{
		"no cluster": {
			reason: "the cluster's facts are required",
			args:   func(a *GitOpsBridgeArgs) { a.Cluster = nil },
			fields: []string{"cluster"},
		},
		"missing facts": {
			reason: "each required fact of a ClusterInfoArgs is named",
			args: func(a *GitOpsBridgeArgs) {
				c := cluster("hub", "us-east-1")
				c.Server, c.Kubeconfig = nil, nil
				a.Cluster = c
			},
			fields: []string{"cluster.server", "cluster.kubeconfig"},
		},
		"label values of known facts": {
			reason: "cluster name, environment and version become label values (at most 63 of [A-Za-z0-9-_.])",
			args: func(a *GitOpsBridgeArgs) {
				c := cluster("hub", "us-east-1")
				c.ClusterName = pulumi.String(strings.Repeat("a", 64))
				c.Environment = pulumi.String("prod env")
				a.Cluster = c
			},
			fields: []string{"cluster.clusterName", "cluster.environment"},
		},
		"controller sharding": {
			reason: "replicas 1-100, a known algorithm, no negative count or budget, and a shard below the replicas",
			args: func(a *GitOpsBridgeArgs) {
				a.Hub.ControllerSharding = &ControllerSharding{Replicas: 101, Algorithm: "legacy", Applications: -1,
					ClustersPerReplica: -1, ApplicationsPerReplica: -1}
				shard := 101
				a.Shard = &shard
			},
			fields: []string{"hub.controllerSharding.replicas", "hub.controllerSharding.algorithm",
				"hub.controllerSharding.applications", "hub.controllerSharding.clustersPerReplica",
				"hub.controllerSharding.applicationsPerReplica", "shard"},
		},
		"a negative shard": {
			reason: "a shard is a replica's number",
			args:   func(a *GitOpsBridgeArgs) { shard := -1; a.Shard = &shard },
			fields: []string{"shard"},
		},
		"addon name": {
			reason: "enable_<addon> must be a qualified name",
			args:   func(a *GitOpsBridgeArgs) { a.Addons = map[string]bool{"cert manager": true} },
			fields: []string{`addons["cert manager"]`},
		},
		"metadata key": {
			reason: "annotation keys are qualified names",
			args:   func(a *GitOpsBridgeArgs) { a.Metadata = map[string]string{"team/": "x"} },
			fields: []string{`metadata["team/"]`},
		},
		"annotations too large": {
			reason: "all annotations of an object together are at most 256 KiB",
			args:   func(a *GitOpsBridgeArgs) { a.Metadata = map[string]string{"blob": strings.Repeat("x", 256*1024)} },
			fields: []string{"metadata"},
		},
		"namespace": {
			reason: "the namespace is a DNS-1123 label",
			args:   func(a *GitOpsBridgeArgs) { a.Namespace = "Argo_CD" },
			fields: []string{"namespace"},
		},
		"secret name from resource name": {
			reason: "the secret name defaults to the resource name and must be a DNS-1123 subdomain",
			name:   "Hub_1",
			fields: []string{"secretName"},
		},
		"secret name too long": {
			reason: "DNS-1123 subdomains are at most 253 characters",
			args:   func(a *GitOpsBridgeArgs) { a.SecretName = strings.Repeat("a", 254) },
			fields: []string{"secretName"},
		},
		"repositories": {
			reason: "a repository has a Git URL, a relative path, and a base path ending in /",
			args: func(a *GitOpsBridgeArgs) {
				a.AddonsRepo = &Repo{URL: "github.com/acme/addons", BasePath: "argocd", Path: "../x"}
				a.WorkloadsRepo = &Repo{URL: "git@github.com:acme/apps.git"}
			},
			fields: []string{"addonsRepo.url", "addonsRepo.path", "addonsRepo.basePath", "workloadsRepo.path"},
		},
		"a hub's wave": {
			reason: "the hub is wave 0, on its own",
			args:   func(a *GitOpsBridgeArgs) { a.Wave = new(1) },
			fields: []string{"wave"},
		},
		"a spoke in the hub's wave": {
			reason: "a spoke's wave is 1 or more: wave 0 is the hub's",
			args: func(a *GitOpsBridgeArgs) {
				a.Hub, a.Spoke = nil, &Spoke{HubKubeconfig: pulumi.String(hubKubeconfig),
					RoleArn: pulumi.String("arn:aws:iam::111122223333:role/spoke")}
				a.Wave = new(0)
			},
			fields: []string{"wave"},
		},
		"hub and spoke": {
			reason: "hub mode and spoke mode are not mixed",
			args:   func(a *GitOpsBridgeArgs) { a.Spoke = &Spoke{HubKubeconfig: pulumi.String(hubKubeconfig)} },
			fields: []string{"spoke"},
		},
		"neither hub nor spoke": {
			reason: "one mode is required",
			args:   func(a *GitOpsBridgeArgs) { a.Hub = nil },
			fields: []string{"hub"},
		},
		"release name too long": {
			reason: "Helm release names are at most 53 characters",
			args:   func(a *GitOpsBridgeArgs) { a.Hub.ReleaseName = strings.Repeat("a", 54) },
			fields: []string{"hub.releaseName"},
		},
		"release name form": {
			reason: "Helm release names are DNS-1123 subdomains",
			args:   func(a *GitOpsBridgeArgs) { a.Hub.ReleaseName = "Argo CD" },
			fields: []string{"hub.releaseName"},
		},
		"repository credentials": {
			reason: "a token in a repository URL would reach annotations, Git and the state",
			args: func(a *GitOpsBridgeArgs) {
				a.AddonsRepo = &Repo{URL: "https://ci:ghp_secret@github.com/acme/addons", Path: "bootstrap"}
				a.WorkloadsRepo = &Repo{URL: "https://ghp_secret@github.com/acme/apps", Path: "apps"}
				a.Hub.ChartRepository = "https://user:pass@charts.example.com"
			},
			fields: []string{"addonsRepo.url", "workloadsRepo.url", "hub.chartRepository"},
		},
		"chart repositories of any host": {
			reason: "a project's chart repositories name their host; globs only after it",
			args: func(a *GitOpsBridgeArgs) {
				a.Hub.ChartRepositories = []string{"https://charts.example.com/*", "*", "https://*/charts", "*.ecr.aws/acme"}
			},
			fields: []string{"hub.chartRepositories[1]", "hub.chartRepositories[2]", "hub.chartRepositories[3]"},
		},
		"chart repository": {
			reason: "the chart repository is an https or oci URL",
			args:   func(a *GitOpsBridgeArgs) { a.Hub.ChartRepository = "argoproj.github.io/argo-helm" },
			fields: []string{"hub.chartRepository"},
		},
		"service account in values": {
			reason: "Pod Identity binds the service accounts the values name",
			args: func(a *GitOpsBridgeArgs) {
				a.Hub.Values = map[string]any{"controller": map[string]any{"serviceAccount": map[string]any{"name": ""}}}
			},
			fields: []string{"hub.values.controller.serviceAccount.name"},
		},
		"bootstrap objects": {
			reason: "bootstrap objects are Argo CD Applications or ApplicationSets with names unique per kind",
			args: func(a *GitOpsBridgeArgs) {
				a.Hub.Bootstrap = []map[string]any{
					{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "Bad Name"}},
					app("Application", "platform"), app("Application", "platform"),
				}
			},
			fields: []string{"hub.bootstrap[0].apiVersion", "hub.bootstrap[0].kind", "hub.bootstrap[0].metadata.name",
				"hub.bootstrap[2].metadata.name"},
		},
		"bootstrap objects in project default": {
			reason: "default is the add-ons' Applications project, admitted from the add-ons' namespace only",
			args: func(a *GitOpsBridgeArgs) {
				set := app("ApplicationSet", "platform")
				set["spec"] = map[string]any{"template": map[string]any{"spec": map[string]any{"project": "default"}}}
				one := app("Application", "platform")
				one["spec"] = map[string]any{"project": "default"}
				a.Hub.Bootstrap = []map[string]any{set, one}
			},
			fields: []string{"hub.bootstrap[0].spec.template.spec.project", "hub.bootstrap[1].spec.project"},
		},
		"Argo CD namespace too long for the Applications' namespaces": {
			reason: "the hub makes <namespace>-workloads, at most 63 characters",
			args:   func(a *GitOpsBridgeArgs) { a.Namespace = strings.Repeat("a", 60) },
			fields: []string{"namespace"},
		},
		"spoke without hub kubeconfig or role": {
			reason: "a spoke needs the hub's kubeconfig and the role Argo CD assumes",
			args: func(a *GitOpsBridgeArgs) {
				a.Hub, a.Spoke = nil, &Spoke{}
			},
			fields: []string{"spoke.hubKubeconfig", "spoke.roleArn"},
		},
		"spoke role ARN": {
			reason: "the role is an IAM role ARN",
			args: func(a *GitOpsBridgeArgs) {
				a.Hub, a.Spoke = nil, &Spoke{HubKubeconfig: pulumi.String(hubKubeconfig), RoleArn: pulumi.String("spoke-role")}
			},
			fields: []string{"spoke.roleArn"},
		},
		"git": {
			reason: "Git delivery names an owner, a repository, a branch and a relative YAML path",
			args: func(a *GitOpsBridgeArgs) {
				a.Git = &GitDelivery{Owner: "-acme", Repository: "acme/fleet", Branch: "main branch", Path: "/etc/x.txt"}
			},
			fields: []string{"git.owner", "git.repository", "git.branch", "git.path"},
		},
		"git pull request branch": {
			reason: "a pull request needs a branch other than its base",
			args: func(a *GitOpsBridgeArgs) {
				a.Git = &GitDelivery{Owner: "acme", Repository: "fleet", PullRequest: true, PullRequestBranch: "main"}
			},
			fields: []string{"git.pullRequestBranch"},
		},
		"git pull request branch without pull request": {
			reason: "pullRequestBranch means nothing in direct mode",
			args: func(a *GitOpsBridgeArgs) {
				a.Git = &GitDelivery{Owner: "acme", Repository: "fleet", PullRequestBranch: "x"}
			},
			fields: []string{"git.pullRequestBranch"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			args := hubArgs()
			if tc.args != nil {
				tc.args(&args)
			}
			resName := tc.name
			if resName == "" {
				resName = "hub"
			}
			cloud, _, err := run(resName, args)
			var verr *ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("%s: want a *ValidationError, got %v", tc.reason, err)
			}
			got := map[string]bool{}
			for _, p := range verr.Problems {
				got[p.Field] = true
			}
			for _, f := range tc.fields {
				if !got[f] {
					t.Errorf("%s: no problem names %s; got %v", tc.reason, f, verr)
				}
			}
			if len(got) != len(tc.fields) {
				t.Errorf("%s: want problems with %d fields, got %v", tc.reason, len(tc.fields), verr)
			}
			if n := len(cloud.Resources()); n != 0 {
				t.Errorf("%d resources registered before validation failed", n)
			}
		})
	}
}

func TestValidInputsPass(t *testing.T) {
	cases := map[string]struct {
		reason   string
		args     GitOpsBridgeArgs
		provider bool
	}{
		"hub":   {reason: "the defaults are valid", args: hubArgs()},
		"spoke": {reason: "a spoke with the cluster's role", args: spokeArgs()},
		"spoke through an explicit provider": {
			reason: "a kubernetes provider stands in for hubKubeconfig", provider: true,
			args: GitOpsBridgeArgs{Cluster: func() clusterinfo.ClusterInfoArgs {
				c := cluster("s", "us-east-2")
				c.SpokeRoleArn = pulumi.String(spokeRoleArn)
				return c
			}(), Spoke: &Spoke{}},
		},
		"everything": {
			reason: "all optional inputs at once",
			args: func() GitOpsBridgeArgs {
				a := hubArgs()
				a.Addons = map[string]bool{"cert_manager": true}
				a.Metadata = map[string]string{"example.com/team": "platform"}
				a.AddonsRepo = &Repo{URL: "git@github.com:acme/addons.git", BasePath: "argocd/", Path: "bootstrap"}
				a.Git = &GitDelivery{Owner: "acme", Repository: "fleet.config", PullRequest: true}
				return a
			}(),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if err := Validate(withDefaults(tc.args, "hub"), tc.provider); err != nil {
				t.Errorf("%s: %v", tc.reason, err)
			}
		})
	}
}

func TestAllProblemsAtOnce(t *testing.T) {
	args := hubArgs()
	args.Namespace = "Bad"
	args.Hub.ReleaseName = strings.Repeat("a", 60)
	args.Git = &GitDelivery{}
	_, _, err := run("hub", args, func(ctx *pulumi.Context) []pulumi.ResourceOption {
		p, _ := kubernetes.NewProvider(ctx, "unused", nil)
		return []pulumi.ResourceOption{pulumi.Provider(p)}
	})
	var verr *problems.Error
	if !errors.As(err, &verr) || len(verr.Problems) != 4 {
		t.Fatalf("want namespace, hub.releaseName, git.owner and git.repository in one error, got %v", err)
	}
	if !strings.HasPrefix(verr.Error(), "invalid "+TypeToken+" inputs (4 problems):") {
		t.Errorf("error does not say which component: %v", verr)
	}
}
