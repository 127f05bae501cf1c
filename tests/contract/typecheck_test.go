package contract

import (
	"slices"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/cel/openapi/resolver"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/kube-openapi/pkg/validation/spec"
	k8sadmissionregv1 "k8s.io/kubernetes/pkg/apis/admissionregistration/v1"
	"k8s.io/kubernetes/pkg/generated/openapi"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// crdSchemas resolves the kinds of the upstream CRDs (crdFiles) to the schemas the API server publishes for them:
// apiextensions' own OpenAPI v3 builder, its references followed as the controller manager's discovery resolver
// follows them (resolver.PopulateRefs).
type crdSchemas map[schema.GroupVersionKind]*spec.Schema

// ResolveSchema is the kind's schema, or resolver.ErrSchemaNotFound.
func (c crdSchemas) ResolveSchema(gvk schema.GroupVersionKind) (*spec.Schema, error) {
	if s, ok := c[gvk]; ok {
		return s, nil
	}
	return nil, resolver.ErrSchemaNotFound
}

// loadCRDSchemas reads crdFiles from dir into their published schemas and a REST mapper of their resources.
func loadCRDSchemas(t *testing.T, dir string) (crdSchemas, meta.RESTMapper) {
	t.Helper()
	schemas := crdSchemas{}
	mapper := meta.NewDefaultRESTMapper(nil)
	for i, crd := range readCRDs(t, dir) {
		f := crdFiles[i]
		scope := meta.RESTScopeNamespace
		if crd.Spec.Scope == apiextensionsv1.ClusterScoped {
			scope = meta.RESTScopeRoot
		}
		for _, v := range crd.Spec.Versions {
			gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
			mapper.AddSpecific(gvk, gvk.GroupVersion().WithResource(crd.Spec.Names.Plural),
				gvk.GroupVersion().WithResource(crd.Spec.Names.Singular), scope)
			doc, err := builder.BuildOpenAPIV3(&crd, v.Name, builder.Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", f, v.Name, err)
			}
			for name, s := range doc.Components.Schemas {
				if !slices.ContainsFunc(gvks(s), func(g schema.GroupVersionKind) bool { return g == gvk }) {
					continue
				}
				full, err := resolver.PopulateRefs(func(ref string) (*spec.Schema, bool) {
					s, ok := doc.Components.Schemas[strings.TrimPrefix(ref, "#/components/schemas/")]
					return s, ok
				}, "#/components/schemas/"+name)
				if err != nil {
					t.Fatalf("%s %s: %v", f, v.Name, err)
				}
				schemas[gvk] = full
			}
			if schemas[gvk] == nil {
				t.Fatalf("%s: the API server's OpenAPI for %v has no schema of the kind", f, gvk)
			}
		}
	}
	return schemas, mapper
}

// gvks are the kinds a published schema says it is (x-kubernetes-group-version-kind).
func gvks(s *spec.Schema) []schema.GroupVersionKind {
	list, _ := s.Extensions["x-kubernetes-group-version-kind"].([]any)
	var out []schema.GroupVersionKind
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			g, _ := m["group"].(string)
			v, _ := m["version"].(string)
			k, _ := m["kind"].(string)
			out = append(out, schema.GroupVersionKind{Group: g, Version: v, Kind: k})
		}
	}
	return out
}

// typeChecker is the controller manager's ValidatingAdmissionPolicy status controller's checker
// (cmd/kube-controller-manager/app/validatingadmissionpolicystatus.go, v1.36.1): Kubernetes' built-in kinds from
// its generated OpenAPI definitions, and the upstream CRDs' kinds as the API server publishes them (in a cluster,
// the controller reads those through discovery).
func typeChecker(t *testing.T) *validating.TypeChecker {
	t.Helper()
	crds, crdMapper := loadCRDSchemas(t, upstreamDir(t))
	return &validating.TypeChecker{
		SchemaResolver: resolver.NewDefinitionsSchemaResolver(openapi.GetOpenAPIDefinitions, clientgoscheme.Scheme).Combine(crds),
		RestMapper:     meta.MultiRESTMapper{testrestmapper.TestOnlyStaticRESTMapper(clientgoscheme.Scheme), crdMapper},
	}
}

// unchecked are the guards no type check reaches, and why.
var unchecked = map[string]string{
	"tenant-<tenant>-secret-stores":         "the External Secrets Operator's kinds: the product pins no CRD of them",
	"tenant-<tenant>-external-secrets":      "the External Secrets Operator's kinds: the product pins no CRD of them",
	"tenant-<tenant>-system-token-requests": "a subresource (serviceaccounts/token), which the checker skips",
	"<project>-stacks": "every version of PKO's Stack (apiVersions *), a rule the checker skips; its expressions " +
		"read a Stack as the API server hands it to a policy, untyped (a map: spec's keys listed, containers and " +
		"initContainers joined), which PKO's schema types as objects",
}

// checkedKinds are the kinds the checker checks vap against: its rules' resources but wildcards and subresources
// (typesToCheck's rules), mapped to their kinds.
func checkedKinds(checker *validating.TypeChecker, vap *admissionregistrationv1.ValidatingAdmissionPolicy) []schema.GroupVersionKind {
	var out []schema.GroupVersionKind
	for _, r := range vap.Spec.MatchConstraints.ResourceRules {
		for _, group := range r.APIGroups {
			for _, version := range r.APIVersions {
				for _, resource := range r.Resources {
					if strings.ContainsAny(group+version+resource, "*/") {
						continue
					}
					kinds, _ := checker.RestMapper.KindsFor(schema.GroupVersionResource{Group: group, Version: version, Resource: resource})
					out = append(out, kinds...)
				}
			}
		}
	}
	return out
}

// TestGuardsTypeCheck: every guard of the fleet's table type-checks against the kinds it matches, with no warning,
// as the controller manager's ValidatingAdmissionPolicy status controller checks it in a real cluster and writes
// what it finds to status.typeChecking (the offline control planes run without that controller: see
// tests/controlplane's config). A warning names an expression that reads a field the kind's schema does not have,
// or compares values of types the schema says never match: at admission such an expression errors (failurePolicy
// Fail: the request refused) or never holds, unless it reads the object untyped, as the API server hands it to a
// policy (a Secret's data as base64 text, which dyn() then says); an operator reading the policy's status sees the
// warning either way. Each checked guard is also checked with one wrong expression added, which must be reported:
// the checker skips a kind it has no schema of in silence. A guard no check reaches is listed in unchecked, with why.
func TestGuardsTypeCheck(t *testing.T) {
	checker := typeChecker(t)
	for _, g := range admission.Guards() {
		t.Run(g.Name, func(t *testing.T) {
			p, _ := g.Example()
			vap := &admissionregistrationv1.ValidatingAdmissionPolicy{}
			decodeStrict(t, p.Object(), vap)
			k8sadmissionregv1.SetObjectDefaults_ValidatingAdmissionPolicy(vap)
			kinds := checkedKinds(checker, vap)
			if why, ok := unchecked[g.Name]; ok {
				if len(kinds) > 0 {
					t.Errorf("unchecked lists the guard (%s), but the checker checks it against %v", why, kinds)
				}
				return
			}
			if len(kinds) == 0 {
				t.Fatalf("the checker checks the guard against no kind (rules %v): make it checkable, or list it in unchecked",
					vap.Spec.MatchConstraints.ResourceRules)
			}
			for _, w := range checker.Check(vap) {
				t.Errorf("%s: %s", w.FieldRef, w.Warning)
			}
			wrong := vap.DeepCopy()
			wrong.Spec.Validations = append(wrong.Spec.Validations,
				admissionregistrationv1.Validation{Expression: "object.metadata.nameOfNoField == 1"})
			if len(checker.Check(wrong)) == 0 {
				t.Errorf("a field none of %v has was not reported: the checker resolved no schema of them", kinds)
			}
		})
	}
}
