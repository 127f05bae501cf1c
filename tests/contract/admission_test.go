package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	k8sadmission "k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/policy/generic"
	"k8s.io/apiserver/pkg/admission/plugin/policy/matching"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/cel/environment"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	k8sadmissionregv1 "k8s.io/kubernetes/pkg/apis/admissionregistration/v1"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// admit runs a CREATE (oldObj nil) or UPDATE of obj, as username in namespace, through Kubernetes' own
// ValidatingAdmissionPolicy code (k8s.io/apiserver v0.36.1) with policy and binding as the product writes them
// (p.Object() and p.Binding()): the API server's defaulting of both, its create-time compilation of
// every expression (NewExpressions environment), its matcher (matchConstraints, then the binding's namespace
// selector against a namespace labelled kubernetes.io/metadata.name as the API server labels every namespace),
// the plugin's compilation (StoredExpressions, variables composed, strict cost) and the validator. allowed is
// false, with the API server's message, when a validation is false or fails under failurePolicy Fail and the
// binding's validationActions hold Deny. A request the policy or binding does not match is allowed, with a
// message that says so.
func admit(t *testing.T, p admission.Policy, obj, oldObj map[string]any, namespace, username string,
	gvk schema.GroupVersionKind, gvr schema.GroupVersionResource) (allowed bool, message string) {
	t.Helper()
	return admitWith(t, p.Object(), p.Binding(), obj, oldObj, namespace, username, gvk, gvr)
}

// admitWith is admit with the policy and binding objects as the API server stores them (binding nil: none).
func admitWith(t *testing.T, policy, binding, obj, oldObj map[string]any, namespace, username string,
	gvk schema.GroupVersionKind, gvr schema.GroupVersionResource) (allowed bool, message string) {
	t.Helper()
	return newAdmitter(t, policy, binding).admit(t, obj, oldObj, namespace, username, gvk, gvr)
}

// admitter is a policy and its binding decoded, defaulted, checked as the API server checks a new policy and
// compiled as its admission plugin compiles one: ready to admit requests, many of them in a benchmark.
type admitter struct {
	vap       *admissionregistrationv1.ValidatingAdmissionPolicy
	vapb      *admissionregistrationv1.ValidatingAdmissionPolicyBinding
	validator validating.Validator
}

// newAdmitter decodes, defaults, checks and compiles policy and binding (binding nil: none).
func newAdmitter(t testing.TB, policy, binding map[string]any) *admitter {
	t.Helper()
	vap := &admissionregistrationv1.ValidatingAdmissionPolicy{}
	decodeStrict(t, policy, vap)
	k8sadmissionregv1.SetObjectDefaults_ValidatingAdmissionPolicy(vap)
	var vapb *admissionregistrationv1.ValidatingAdmissionPolicyBinding
	if binding != nil {
		vapb = &admissionregistrationv1.ValidatingAdmissionPolicyBinding{}
		decodeStrict(t, binding, vapb)
		k8sadmissionregv1.SetObjectDefaults_ValidatingAdmissionPolicyBinding(vapb)
		if vapb.Spec.PolicyName != vap.Name {
			t.Fatalf("binding %s names policy %q, not %q", vapb.Name, vapb.Spec.PolicyName, vap.Name)
		}
	}
	checkCreatable(t, vap)
	return &admitter{vap: vap, vapb: vapb, validator: compilePolicy(t, vap)}
}

// admit runs one request through the matcher and the compiled validator (see admit).
func (a *admitter) admit(t testing.TB, obj, oldObj map[string]any, namespace, username string,
	gvk schema.GroupVersionKind, gvr schema.GroupVersionResource) (allowed bool, message string) {
	t.Helper()
	return a.admitSubresource(t, obj, oldObj, namespace, "", "", username, gvk, gvr)
}

// admitSubresource is admit for a request to subresource of the object named name (a TokenRequest is a CREATE of
// serviceaccounts/token, named by its service account: its own object has no name); name "" reads the object's.
func (a *admitter) admitSubresource(t testing.TB, obj, oldObj map[string]any, namespace, name, subresource, username string,
	gvk schema.GroupVersionKind, gvr schema.GroupVersionResource) (allowed bool, message string) {
	t.Helper()
	vap, vapb, validator := a.vap, a.vapb, a.validator
	// The API server never applies a policy stored through the API to admission policies and bindings:
	// k8s.io/apiserver v0.36's generic Plugin excludes them (isExcludedFromAPIHooks, checked in Dispatch before any
	// matcher), and the hubs' real API servers, the same release, admit a deletion of one despite a policy saying no.
	if gvr.Group == "admissionregistration.k8s.io" && strings.Contains(gvr.Resource, "admissionpolic") {
		return true, "the API server applies no policy to " + gvr.Resource
	}

	// The request, as the API server hands it to admission.
	// obj and oldObj: an UPDATE; obj alone: a CREATE; oldObj alone: a DELETE (object null, as the API server
	// hands a deletion to CEL).
	op, opts := k8sadmission.Create, runtime.Object(&metav1.CreateOptions{})
	var object, old runtime.Object
	if oldObj != nil {
		op, opts = k8sadmission.Update, &metav1.UpdateOptions{}
		old = versionedObject(t, oldObj, gvk)
	}
	if obj == nil {
		op, opts = k8sadmission.Delete, &metav1.DeleteOptions{}
	} else {
		object = versionedObject(t, obj, gvk)
	}
	named := object
	if named == nil {
		named = old
	}
	if accessor, err := meta.Accessor(named); err == nil && name == "" {
		name = accessor.GetName()
	}
	attrs := k8sadmission.NewAttributesRecord(object, old, gvk, namespace, name, gvr, subresource, op, opts, false,
		&user.DefaultInfo{Name: username, Groups: []string{"system:authenticated"}})

	// The matcher the plugin builds (generic.Plugin.ValidateInitialization) over a namespace lister.
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	var objs []runtime.Object
	if namespace != "" {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace,
			Labels: map[string]string{"kubernetes.io/metadata.name": namespace}}}
		if err := indexer.Add(ns); err != nil {
			t.Fatal(err)
		}
		objs = append(objs, ns)
	}
	matcher := generic.NewPolicyMatcher(matching.NewMatcher(corelisters.NewNamespaceLister(indexer), kubefake.NewClientset(objs...)))
	o := k8sadmission.NewObjectInterfacesFromScheme(clientgoscheme.Scheme)

	// What validating.dispatcher.Dispatch does for one policy and one binding (dispatcher.go:72).
	matches, matchResource, matchKind, err := matcher.DefinitionMatches(attrs, o, validating.NewValidatingAdmissionPolicyAccessor(vap))
	if err != nil {
		return false, fmt.Sprintf("ValidatingAdmissionPolicy '%s' denied request: failed to configure policy: %v", vap.Name, err)
	}
	if !matches {
		return true, "policy " + vap.Name + " does not match the request"
	}
	bindingName, deny := "", true
	if vapb != nil {
		bindingName = vapb.Name
		deny = slices.Contains(vapb.Spec.ValidationActions, admissionregistrationv1.Deny)
		ok, err := matcher.BindingMatches(attrs, o, validating.NewValidatingAdmissionPolicyBindingAccessor(vapb))
		if err != nil {
			return false, fmt.Sprintf("ValidatingAdmissionPolicy '%s' denied request: failed to configure binding: %v", vap.Name, err)
		}
		if !ok {
			return true, "binding " + vapb.Name + " does not match the request"
		}
	}
	versioned, err := k8sadmission.NewVersionedAttributes(attrs, matchKind, o)
	if err != nil {
		t.Fatalf("converting the object to %v: %v", matchKind, err)
	}
	var nsObj *corev1.Namespace
	if namespace != "" {
		if nsObj, err = matcher.GetNamespace(t.Context(), namespace); err != nil {
			t.Fatal(err)
		}
	}
	noOpinion := authorizer.AuthorizerFunc(func(_ context.Context, _ authorizer.Attributes) (authorizer.Decision, string, error) {
		return authorizer.DecisionNoOpinion, "", nil
	})
	result := validator.Validate(t.Context(), matchResource, versioned, nil, nsObj, celconfig.RuntimeCELCostBudget, noOpinion)
	for _, d := range result.Decisions {
		if d.Action == validating.ActionDeny && deny {
			return false, fmt.Sprintf("ValidatingAdmissionPolicy '%s' with binding '%s' denied request: %s", vap.Name, bindingName, d.Message)
		}
	}
	return true, ""
}

// compilePolicy is validating.compilePolicy (plugin.go:147, unexported) line for line: the validator the
// plugin builds for a policy. A validation that does not compile is reported here; at admission it would
// refuse every request (failurePolicy Fail).
func compilePolicy(t testing.TB, p *admissionregistrationv1.ValidatingAdmissionPolicy) validating.Validator {
	t.Helper()
	hasParam := p.Spec.ParamKind != nil
	optionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: true}
	expressionOptionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: false}
	// getCompositionEnvTemplateWithStrictCost (plugin.go:52); the base env set carries StrictCostOpt.
	compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		t.Fatal(err)
	}
	variables := make([]plugincel.NamedExpressionAccessor, len(p.Spec.Variables))
	for i, v := range p.Spec.Variables {
		variables[i] = &validating.Variable{Name: v.Name, Expression: v.Expression}
	}
	compiler.CompileAndStoreVariables(variables, optionalVars, environment.StoredExpressions)

	var matcher matchconditions.Matcher
	if len(p.Spec.MatchConditions) > 0 {
		conditions := make([]plugincel.ExpressionAccessor, len(p.Spec.MatchConditions))
		for i := range p.Spec.MatchConditions {
			conditions[i] = (*matchconditions.MatchCondition)(&p.Spec.MatchConditions[i])
		}
		matcher = matchconditions.NewMatcher(compiler.CompileCondition(conditions, optionalVars, environment.StoredExpressions),
			p.Spec.FailurePolicy, "policy", "validate", p.Name)
	}
	validations := make([]plugincel.ExpressionAccessor, len(p.Spec.Validations))
	messages := make([]plugincel.ExpressionAccessor, len(p.Spec.Validations))
	for i, v := range p.Spec.Validations {
		validations[i] = &validating.ValidationCondition{Expression: v.Expression, Message: v.Message, Reason: v.Reason}
		if v.MessageExpression != "" {
			messages[i] = &validating.MessageExpressionCondition{MessageExpression: v.MessageExpression}
		}
	}
	audits := make([]plugincel.ExpressionAccessor, len(p.Spec.AuditAnnotations))
	for i, a := range p.Spec.AuditAnnotations {
		audits[i] = &validating.AuditAnnotationCondition{Key: a.Key, ValueExpression: a.ValueExpression}
	}
	validationFilter := compiler.CompileCondition(validations, optionalVars, environment.StoredExpressions)
	for _, err := range validationFilter.CompilationErrors() {
		t.Errorf("policy %s: %v", p.Name, err)
	}
	return validating.NewValidator(
		validationFilter,
		matcher,
		compiler.CompileCondition(audits, optionalVars, environment.StoredExpressions),
		compiler.CompileCondition(messages, expressionOptionalVars, environment.StoredExpressions),
		p.Spec.FailurePolicy,
		nil,
	)
}

// checkCreatable compiles every variable and validation as the API server does before it stores a new policy
// (k8s.io/kubernetes pkg/apis/admissionregistration/validation: validateVariable, validateValidationExpression):
// one composited compiler, NewExpressions environment (only what the compatibility version allows),
// authorizer declared. The API server refuses a policy with an expression that fails here.
func checkCreatable(t testing.TB, p *admissionregistrationv1.ValidatingAdmissionPolicy) {
	t.Helper()
	if p.Spec.FailurePolicy == nil || p.Spec.MatchConstraints == nil || len(p.Spec.MatchConstraints.ResourceRules) == 0 || len(p.Spec.Validations) == 0 {
		t.Fatalf("policy %s: failurePolicy, matchConstraints.resourceRules and validations are required", p.Name)
	}
	compiler, err := plugincel.NewCompositedCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	if err != nil {
		t.Fatal(err)
	}
	decls := plugincel.OptionalVariableDeclarations{HasParams: p.Spec.ParamKind != nil, HasAuthorizer: true}
	for _, v := range p.Spec.Variables {
		res := compiler.CompileAndStoreVariable(&validating.Variable{Name: v.Name, Expression: v.Expression}, decls, environment.NewExpressions)
		if res.Error != nil {
			t.Fatalf("policy %s: variable %s: %v", p.Name, v.Name, res.Error)
		}
	}
	for i, v := range p.Spec.Validations {
		res := compiler.CompileCELExpression(&validating.ValidationCondition{Expression: v.Expression}, decls, environment.NewExpressions)
		if res.Error != nil {
			t.Fatalf("policy %s: validation %d: %v", p.Name, i, res.Error)
		}
	}
}

// versionedObject is obj as the validator sees it. A kind client-go's scheme knows (a core v1 Secret) is decoded
// into its type, as the API server holds it (a Secret's stringData merged into data, as the v1-to-internal
// conversion does, so CEL sees data as the base64 text of the bytes); any other kind (a pulumi.com Stack) stays
// unstructured, as a custom resource does. Integers stay integers (apimachinery's JSON).
func versionedObject(t testing.TB, obj map[string]any, gvk schema.GroupVersionKind) runtime.Object {
	t.Helper()
	if typed, err := clientgoscheme.Scheme.New(gvk); err == nil {
		decodeStrict(t, obj, typed)
		if s, ok := typed.(*corev1.Secret); ok && len(s.StringData) > 0 {
			if s.Data == nil {
				s.Data = map[string][]byte{}
			}
			for k, v := range s.StringData {
				s.Data[k] = []byte(v)
			}
			s.StringData = nil
		}
		typed.GetObjectKind().SetGroupVersionKind(gvk)
		return typed
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	u := map[string]any{}
	if err := utiljson.Unmarshal(raw, &u); err != nil {
		t.Fatal(err)
	}
	out := &unstructured.Unstructured{Object: u}
	if out.GroupVersionKind() != gvk {
		t.Fatalf("object is %v, request is for %v", out.GroupVersionKind(), gvk)
	}
	return out
}

// decodeStrict is in through JSON into out, refusing a field out does not have (the API server's strict field
// validation).
func decodeStrict(t testing.TB, in any, out any) {
	t.Helper()
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(out); err != nil {
		t.Fatalf("decoding into %T: %v", out, err)
	}
}
