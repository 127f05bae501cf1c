package admission

import "strconv"

// Policy is a ValidatingAdmissionPolicy and its binding (same name, validationActions Deny) that guard one kind
// of object in a set of namespaces. Every validation is a CEL expression that must be true for a request of one
// of Operations to be admitted; failurePolicy is Fail, so an expression that errors refuses the request too.
type Policy struct {
	// Name of the policy and of its binding, a DNS-1123 subdomain.
	Name string
	// Group, Version and Resource of the objects guarded ("" / "v1" / "secrets").
	Group, Version, Resource string
	// Also are more resources of Group and Version that the same validations read, one kind's namespaced and
	// cluster-scoped forms ("clusterroles" beside "roles"). Default: none.
	Also []string
	// Namespaces the binding applies to (by the kubernetes.io/metadata.name label every namespace carries); none:
	// every namespace (the binding selects no namespace). A cluster-scoped object is matched whatever they are.
	Namespaces []string
	// Variables are named CEL expressions, available to the validations as variables.<name>, in order.
	Variables []Variable
	// Validations must all be true.
	Validations []Validation
	// Operations are the requests the policy applies to: "CREATE", "UPDATE", "DELETE" (then CEL's object is
	// null and oldObject is the object deleted, so every validation must hold, or not read object, on a DELETE).
	// Default: CREATE, UPDATE and DELETE; CREATE and UPDATE when DeleteUnguarded says why a deletion needs no guard.
	Operations []string
	// DeleteUnguarded is why the policy does not see DELETE, in a clause ("the ApplicationSet controller deletes
	// the Applications its generators drop"): a guard sees deletions unless it says why not, and docs/security.md's
	// table gives the reason. Default: "" (DELETE guarded).
	DeleteUnguarded string
}

// Ops are the requests the policy applies to: its Operations; else CREATE and UPDATE when DeleteUnguarded is
// set, and CREATE, UPDATE and DELETE when it is not.
func (p Policy) Ops() []string {
	switch {
	case len(p.Operations) > 0:
		return p.Operations
	case p.DeleteUnguarded != "":
		return []string{"CREATE", "UPDATE"}
	}
	return []string{"CREATE", "UPDATE", "DELETE"}
}

// Resources are Resource and Also: what the policy's one resource rule matches.
func (p Policy) Resources() []string { return append([]string{p.Resource}, p.Also...) }

// OnWrite is a validation of a policy that sees DELETE, expr on a CREATE or UPDATE and true on a DELETE (where CEL's
// object, which expr may read, is null).
func OnWrite(expr string) string { return "request.operation == 'DELETE' || " + expr }

// OnDelete is a validation of a policy that sees DELETE, expr on a DELETE and true on a CREATE or UPDATE.
func OnDelete(expr string) string { return "request.operation != 'DELETE' || " + expr }

// Variable is a named CEL expression.
type Variable struct {
	Name, Expression string
}

// Validation is a CEL expression and the message given when it is false.
type Validation struct {
	Expression, Message string
	// MessageExpression, when set, is a CEL expression of type string that gives the message instead (Message
	// stays the fallback when it errors).
	MessageExpression string
}

// NamespaceNameLabel is the label the API server sets on every namespace to its name (Kubernetes 1.22+).
const NamespaceNameLabel = "kubernetes.io/metadata.name"

// Object is the ValidatingAdmissionPolicy as a Kubernetes object (admissionregistration.k8s.io/v1).
func (p Policy) Object() map[string]any {
	vars := make([]any, len(p.Variables))
	for i, v := range p.Variables {
		vars[i] = map[string]any{"name": v.Name, "expression": v.Expression}
	}
	vals := make([]any, len(p.Validations))
	for i, v := range p.Validations {
		val := map[string]any{"expression": v.Expression, "message": v.Message}
		if v.MessageExpression != "" {
			val["messageExpression"] = v.MessageExpression
		}
		vals[i] = val
	}
	return map[string]any{
		"apiVersion": "admissionregistration.k8s.io/v1",
		"kind":       "ValidatingAdmissionPolicy",
		"metadata":   map[string]any{"name": p.Name},
		"spec": map[string]any{
			"failurePolicy": "Fail",
			"matchConstraints": map[string]any{"resourceRules": []any{map[string]any{
				"apiGroups":   []any{p.Group},
				"apiVersions": []any{p.Version},
				"resources":   anySlice(p.Resources()),
				"operations":  anySlice(p.Ops()),
			}}},
			"variables":   vars,
			"validations": vals,
		},
	}
}

// Binding is the ValidatingAdmissionPolicyBinding that applies the policy, with validationActions Deny, to
// objects in the policy's namespaces (in every namespace when it names none).
func (p Policy) Binding() map[string]any {
	spec := map[string]any{"policyName": p.Name, "validationActions": []any{"Deny"}}
	if len(p.Namespaces) > 0 {
		spec["matchResources"] = map[string]any{"namespaceSelector": map[string]any{"matchExpressions": []any{
			map[string]any{"key": NamespaceNameLabel, "operator": "In", "values": anySlice(p.Namespaces)},
		}}}
	}
	return map[string]any{
		"apiVersion": "admissionregistration.k8s.io/v1",
		"kind":       "ValidatingAdmissionPolicyBinding",
		"metadata":   map[string]any{"name": p.Name},
		"spec":       spec,
	}
}

// String is s as a CEL string literal (double-quoted, escaped as Go quotes it, which CEL reads the same).
func String(s string) string { return strconv.Quote(s) }
