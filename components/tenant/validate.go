package tenant

import (
	"encoding/json"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// TypeToken is the type of the Tenant component.
const TypeToken = "fleet:index:Tenant"

// reserved are namespaces no tenant may take: Kubernetes' own, Argo CD's default namespace, and every add-on's,
// identity or not (addons.Namespaces). reservedPrefixes are prefixes no tenant namespace may start with: kube- (Kubernetes'),
// argocd- (Argo CD's Applications namespaces, argocd-addons and argocd-workloads), fleet-stacks- (StackDelivery's
// stage namespaces by default). A Fleet's hub runs Argo CD in its default namespace, argocd.
func reserved() []string {
	names := []string{"default", "kube-system", "kube-public", "kube-node-lease", "argocd", "fleet-stacks"}
	for _, n := range addons.Namespaces() {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

var reservedPrefixes = []string{"kube-", "argocd-", "fleet-stacks-"}

// secretsPrefixPattern is what a secretsPrefix may hold: the characters of an AWS Secrets Manager secret name
// (Secrets Manager's CreateSecret: letters, digits and /_+=.@-), so no IAM wildcard (* or ?) that would let the
// tenant's role read other secrets.
var secretsPrefixPattern = regexp.MustCompile(`^[A-Za-z0-9/_+=.@-]*$`)

// accessPolicies are the EKS access policies an owner's access names (EKS User Guide, "Access policy
// permissions"), each scoped to the tenant's namespaces.
var accessPolicies = map[string]string{
	"admin": "AmazonEKSAdminPolicy",
	"edit":  "AmazonEKSEditPolicy",
	"view":  "AmazonEKSViewPolicy",
}

// podSecurityLevels are the Pod Security Standards levels (Kubernetes, "Pod Security Admission").
var podSecurityLevels = []string{"privileged", "baseline", "restricted"}

// Check adds the problems of one tenant (with its defaults) under field ("tenants[1]"; "" for a Tenant's own
// inputs): names, owners, quantities, service accounts, sync windows. Rules across tenants and clusters (unique
// names and namespaces in the fleet, a selector that selects a cluster) are the fleet's (CheckFleet).
func Check(ps *problems.List, field string, a TenantSpec) {
	at := func(f string) string {
		if field == "" {
			return f
		}
		return field + "." + f
	}
	if errs := validation.IsDNS1123Label(a.Name); len(errs) > 0 {
		ps.Add(at("name"), "%q is not a DNS-1123 label: %s", a.Name, strings.Join(errs, "; "))
	}
	for i, o := range a.Owners {
		f := at(problems.Index("owners", i))
		if !isPrincipal(o.Arn) {
			ps.Add(f+".arn", "%q is not an IAM role or user ARN (arn:aws:iam::<account>:role/<name>)", o.Arn)
		}
		if _, ok := accessPolicies[o.Access]; !ok {
			ps.Add(f+".access", "%q: want admin, edit or view", o.Access)
		}
	}
	if len(a.Namespaces) == 0 {
		ps.Add(at("namespaces"), "list at least one namespace")
	}
	if !secretsPrefixPattern.MatchString(a.SecretsPrefix) || strings.HasPrefix(a.SecretsPrefix, "/") {
		ps.Add(at("secretsPrefix"), "%q: a Secrets Manager name prefix, letters, digits and /_+=.@- only, not starting "+
			"with / (no * or ?: the tenant's role reads <secretsPrefix><tenant>/*)", a.SecretsPrefix)
	}
	seen, taken := map[string]int{}, reserved()
	for i, n := range a.Namespaces {
		f := at(problems.Index("namespaces", i))
		switch errs := validation.IsDNS1123Label(n.Name); {
		case len(errs) > 0:
			ps.Add(f+".name", "%q is not a DNS-1123 label: %s", n.Name, strings.Join(errs, "; "))
		case slices.Contains(taken, n.Name) || slices.ContainsFunc(reservedPrefixes, func(p string) bool { return strings.HasPrefix(n.Name, p) }):
			ps.Add(f+".name", "%q is a namespace of Kubernetes, Argo CD, StackDelivery or an add-on (or starts with %s); choose another",
				n.Name, strings.Join(reservedPrefixes, ", "))
		default:
			if j, dup := seen[n.Name]; dup {
				ps.Add(f+".name", "%q is also namespaces[%d]", n.Name, j)
			}
			seen[n.Name] = i
		}
		for k, v := range n.Labels {
			if errs := validation.IsQualifiedName(k); len(errs) > 0 {
				ps.Add(problems.Key(f+".labels", k), "is not a label key: %s", strings.Join(errs, "; "))
			}
			if errs := validation.IsValidLabelValue(v); len(errs) > 0 {
				ps.Add(problems.Key(f+".labels", k), "%q is not a label value: %s", v, strings.Join(errs, "; "))
			}
		}
		if !slices.Contains(podSecurityLevels, n.PodSecurity) {
			ps.Add(f+".podSecurity", "%q: want privileged, baseline or restricted", n.PodSecurity)
		}
		if q := n.Quota; q != nil {
			quantities(ps, f+".quota", map[string]string{"requestsCpu": q.RequestsCpu, "requestsMemory": q.RequestsMemory,
				"limitsCpu": q.LimitsCpu, "limitsMemory": q.LimitsMemory, "pods": q.Pods, "loadBalancers": q.LoadBalancers,
				"storage": q.Storage})
		}
		if l := n.Limits; l != nil {
			quantities(ps, f+".limits", map[string]string{"cpu": l.Cpu, "memory": l.Memory, "requestCpu": l.RequestCpu,
				"requestMemory": l.RequestMemory})
		}
		accounts := map[string]bool{}
		for j, sa := range n.ServiceAccounts {
			g := problems.Index(f+".serviceAccounts", j)
			if errs := validation.IsDNS1123Subdomain(sa.Name); len(errs) > 0 {
				ps.Add(g+".name", "%q is not a DNS-1123 subdomain: %s", sa.Name, strings.Join(errs, "; "))
			} else if accounts[sa.Name] {
				ps.Add(g+".name", "%q appears twice in the namespace", sa.Name)
			} else if sa.Name == SecretsServiceAccount {
				ps.Add(g+".name", "%q is the service account of the namespace's SecretStore (with external_secrets); "+
					"choose another", sa.Name)
			}
			accounts[sa.Name] = true
			if sa.Policy != "" && !json.Valid([]byte(sa.Policy)) {
				ps.Add(g+".policy", "is not a JSON IAM policy document")
			}
			for k, p := range sa.ManagedPolicyArns {
				if parsed, err := arn.Parse(p); err != nil || parsed.Service != "iam" || !strings.HasPrefix(parsed.Resource, "policy/") {
					ps.Add(problems.Index(g+".managedPolicyArns", k), "%q is not an IAM policy ARN (arn:aws:iam::aws:policy/<name>)", p)
				}
			}
		}
	}
	if w := a.Workloads; w != nil {
		switch {
		case gitopsbridge.HasCredentials(w.URL):
			ps.Add(at("workloads.url"), "carries credentials (user:token@): they would reach the tenant's project, its "+
				"ApplicationSet and the state; give Argo CD a repository credential instead")
		case !gitopsbridge.GitURL(w.URL):
			ps.Add(at("workloads.url"), "%q is not a repository URL (https://host/owner/repository, ssh://, git://)", w.URL)
		}
	}
	for i, r := range a.SourceRepos {
		f := at(problems.Index("sourceRepos", i))
		switch {
		case gitopsbridge.HasCredentials(r):
			ps.Add(f, "carries credentials (user:token@); give Argo CD a repository credential instead")
		case !gitopsbridge.NamesHost(r):
			ps.Add(f, "%q reaches repositories of any host: name the host (https://github.com/acme/*, or "+
				"host/namespace for OCI), globs only after it", r)
		}
	}
	for i, n := range a.Namespaces {
		for j, c := range n.IngressCidrs {
			if p, err := netip.ParsePrefix(c); err != nil || p.Masked() != p {
				ps.Add(at(problems.Index(problems.Index("namespaces", i)+".ingressCidrs", j)),
					"%q is not a network in CIDR form with its host bits zero (\"10.20.0.0/24\")", c)
			}
		}
	}
	for i, k := range a.ExtraKinds {
		f := at(problems.Index("extraKinds", i))
		switch {
		case k.Kind == "" || strings.ContainsAny(k.Group+k.Kind, "*?[]!"):
			ps.Add(f, "%q/%q is not a kind: name one group and one kind, no glob", k.Group, k.Kind)
		case slices.ContainsFunc(PlatformKinds, func(p gitopsbridge.GroupKind) bool { return p.Group == k.Group && p.Kind == k.Kind }):
			ps.Add(f, "%s/%s is the platform's (the tenant's quota, limits, network policies, RBAC and secret store "+
				"are set by the Tenant)", k.Group, k.Kind)
		}
	}
	for i, w := range a.SyncWindows {
		f := at(problems.Index("syncWindows", i))
		if w.Kind != "allow" && w.Kind != "deny" {
			ps.Add(f+".kind", "%q: want allow or deny", w.Kind)
		}
		if len(strings.Fields(w.Schedule)) != 5 {
			ps.Add(f+".schedule", "%q is not a cron schedule of five fields (\"0 22 * * *\")", w.Schedule)
		}
		if d, err := time.ParseDuration(w.Duration); err != nil || d <= 0 {
			ps.Add(f+".duration", "%q is not a Go duration (\"1h\", \"30m\")", w.Duration)
		}
	}
}

// quantities adds a problem for each value that is not a Kubernetes quantity (apimachinery's parser).
func quantities(ps *problems.List, field string, values map[string]string) {
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if _, err := resource.ParseQuantity(values[k]); err != nil {
			ps.Add(field+"."+k, "%q is not a Kubernetes quantity (\"4\", \"500m\", \"8Gi\"): %v", values[k], err)
		}
	}
}

// isPrincipal tells whether s is an IAM role or user ARN.
func isPrincipal(s string) bool {
	a, err := arn.Parse(s)
	return err == nil && a.Service == "iam" && len(a.AccountID) == 12 &&
		(strings.HasPrefix(a.Resource, "role/") || strings.HasPrefix(a.Resource, "user/"))
}
