package tenant

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// A tenant namespace's fences are the objects that bound what its workloads may do beyond it: the ResourceQuota
// and LimitRange (what it may use of the cluster) and the NetworkPolicies (deny all, then the namespace's own pods,
// DNS, AWS, and its ingressCidrs). With Git delivery a commit to the tenant's folder writes them through Argo CD,
// and the namespace's owners may edit NetworkPolicies (Kubernetes' aggregated edit role). So each selected
// cluster's API server pins them, one policy per kind: in the tenant's namespaces, an object of the kind is one the
// stack computed, with the spec it computed, and only the stack deletes one.

// fence is one kind of a tenant namespace's fences.
type fence struct {
	// part names the policy (tenant-<tenant>-<part>); group, version and resource guard the kind; kind and plural
	// name it in messages.
	part, group, version, resource, kind, plural string
}

// fences are the kinds FencePolicies pins, in the order Manifests writes them.
var fences = []fence{
	{"quotas", "", "v1", "resourcequotas", "ResourceQuota", "ResourceQuotas"},
	{"limit-ranges", "", "v1", "limitranges", "LimitRange", "LimitRanges"},
	{"network-policies", "networking.k8s.io", "v1", "networkpolicies", "NetworkPolicy", "NetworkPolicies"},
}

// FencePolicyNames are the fence policies' names for tenant: tenant-<tenant>-quotas, -limit-ranges and
// -network-policies.
func FencePolicyNames(tenant string) []string {
	var out []string
	for _, f := range fences {
		out = append(out, ProjectName(tenant)+"-"+f.part)
	}
	return out
}

// FenceExemptions are who the fence policies let through: the deployer, which writes and deletes the fences itself
// (a namespace or the tenant removed from the stack, direct delivery), kube-controller-manager deleting a deleted
// namespace's objects, and system:masters.
func FenceExemptions(deployer string) admission.Exemptions {
	return admission.Exemptions{Deployer: deployer, SystemDeleters: true, Masters: true}
}

// FencePolicies are the tenant's fence policies (CREATE, UPDATE and DELETE, in the tenant's namespaces), deployer
// being the stack's EKS username (gitopsbridge.DeployerUsername): an object of a fenced kind is admitted only when
// it is one Manifests computes (<namespace>/<name>) with exactly that spec, and deleted only by an exempt writer
// (FenceExemptions), so that neither a commit (Argo CD's sync, or its prune of an object the commit removes) nor a
// namespace's owner adds, loosens or removes one. A namespace the tenant no longer lists is not bound: its objects
// go with it.
func FencePolicies(t TenantSpec, deployer string) ([]admission.Policy, error) {
	specs := map[string]map[string]any{}
	for _, n := range t.Namespaces {
		objs, err := Manifests(t, n, nil, false, "")
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			kind, _ := o["kind"].(string)
			md, _ := o["metadata"].(map[string]any)
			if specs[kind] == nil {
				specs[kind] = map[string]any{}
			}
			specs[kind][fmt.Sprintf("%s/%s", md["namespace"], md["name"])] = o["spec"]
		}
	}
	exempt := FenceExemptions(deployer)
	var out []admission.Policy
	for _, f := range fences {
		pinned, err := admission.Literal(specs[f.kind])
		if err != nil {
			return nil, err
		}
		var names []string
		for k := range specs[f.kind] {
			names = append(names, k[strings.Index(k, "/")+1:])
		}
		slices.Sort(names)
		names = slices.Compact(names)
		out = append(out, admission.Policy{
			Name: ProjectName(t.Name) + "-" + f.part, Group: f.group, Version: f.version, Resource: f.resource,
			Namespaces: t.NamespaceNames(),
			Variables: append(exempt.Variables(),
				admission.Variable{Name: "key", Expression: "request.namespace + '/' + request.name"},
				admission.Variable{Name: "pinned", Expression: pinned}),
			Validations: []admission.Validation{
				{
					Expression: "variables.exempt || request.operation == 'DELETE' || " +
						"(variables.key in variables.pinned && object.spec == variables.pinned[variables.key])",
					Message: fmt.Sprintf("a tenant namespace holds the %s the stack computed (%s), each with the spec "+
						"it computed: a commit or the namespace's owners neither add one nor change one", f.plural,
						strings.Join(names, ", ")),
					MessageExpression: fmt.Sprintf("%s + variables.key + (variables.key in variables.pinned ? "+
						"' differs from the spec the stack computed for it' : ' is not one the stack computed for the tenant') + "+
						"%s", admission.String("tenant "+f.kind+" "), admission.String(": a commit or the namespace's owners "+
						"neither add a "+f.kind+" nor change one")),
				},
				{
					Expression: "variables.exempt || request.operation != 'DELETE' || !(variables.key in variables.pinned)",
					Message: fmt.Sprintf("a tenant namespace's %s are deleted by the stack only: not by a commit "+
						"that removes one (Argo CD's prune) nor by the namespace's owners", f.plural),
				},
			},
		})
	}
	return out, nil
}
