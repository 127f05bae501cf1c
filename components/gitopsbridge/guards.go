package gitopsbridge

import "github.com/gitops-fleet/pulumi-fleet/components/admission"

// sampleDeployer is the deployer of the guards' examples: any session of an assumed role.
const sampleDeployer = "arn:aws:sts::111122223333:assumed-role/platform-deployer/" + SessionNameTemplate

// sampleHub is a hub with Git delivery and both repositories, for the guards' examples.
func sampleHub() GitOpsBridgeArgs {
	return GitOpsBridgeArgs{Namespace: DefaultNamespace, Hub: &Hub{FleetClusters: []string{"hub", "spoke"}},
		AddonsRepo:    &Repo{URL: "https://github.com/acme/addons", Path: "bootstrap"},
		WorkloadsRepo: &Repo{URL: "https://github.com/acme/workloads", Path: "apps"},
		Git:           &GitDelivery{Owner: "acme", Repository: "registry"}}
}

// The hub's guards in the fleet's table of guards (admission.List).
var _ = admission.List(
	admission.Guard{Name: ClusterSecretPolicyName, Where: "the hub", Writer: "GitOpsBridge",
		Pins: "Secrets in Argo CD's namespace: each cluster secret exactly one the stack registered (name, data, labels, annotations); other Secrets written by Argo CD's own writers only; a registered one deleted by the deployer only",
		Example: func() (admission.Policy, admission.Exemptions) {
			g := ClusterSecretGuard{Namespace: DefaultNamespace, Deployer: sampleDeployer,
				SecretWriters: []string{serviceAccountUser(DefaultNamespace, ServerServiceAccount)},
				Registered: []ClusterSecret{{Name: "hub", Namespace: DefaultNamespace, ClusterName: "hub",
					Labels: Labels("hub", "prod", "1.33", 0, nil, nil), Server: InClusterServer, Config: InClusterConfig()}}}
			return g.Policy(), g.Exemptions()
		}},
	admission.Guard{Name: ApplicationPolicyName, Where: "the hub", Writer: "GitOpsBridge",
		Pins: "an Application of a repository's namespace names that repository's project; no other names default (an empty project is default)",
		Example: func() (admission.Policy, admission.Exemptions) {
			return sampleHub().ApplicationGuard(sampleDeployer).Policies()[0], admission.Exemptions{}
		}},
	admission.Guard{Name: ProjectPolicyName, Where: "the hub", Writer: "GitOpsBridge",
		Pins: "the hub's projects: what they permit changed or deleted by the deployer only",
		Example: func() (admission.Policy, admission.Exemptions) {
			g := sampleHub().ApplicationGuard(sampleDeployer)
			return g.Policies()[1], g.ProjectExemptions()
		}},
)
