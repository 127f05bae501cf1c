package admission

import (
	admissionv1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/admissionregistration/v1"
	metav1 "github.com/pulumi/pulumi-kubernetes/sdk/v4/go/kubernetes/meta/v1"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Register creates the policy ("<name>-policy") and its binding ("<name>-policy-binding", after the policy) with
// the official pulumi-kubernetes types. p is an output of a Policy (its expressions may name facts that are
// outputs, such as the hub's account); name and namespaces are the policy's, known before it resolves (none: the
// binding applies in every namespace).
func Register(ctx *pulumi.Context, name string, policyName string, namespaces []string, p pulumi.AnyOutput,
	opts ...pulumi.ResourceOption,
) ([]pulumi.Resource, error) {
	spec := p.ApplyT(func(v any) admissionv1.ValidatingAdmissionPolicySpec {
		return v.(Policy).spec()
	}).(admissionv1.ValidatingAdmissionPolicySpecOutput)
	policy, err := admissionv1.NewValidatingAdmissionPolicy(ctx, name+"-policy", &admissionv1.ValidatingAdmissionPolicyArgs{
		Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(policyName)},
		Spec:     spec,
	}, opts...)
	if err != nil {
		return nil, err
	}
	bindingSpec := &admissionv1.ValidatingAdmissionPolicyBindingSpecArgs{
		PolicyName:        pulumi.String(policyName),
		ValidationActions: pulumi.ToStringArray([]string{"Deny"}),
	}
	if len(namespaces) > 0 {
		bindingSpec.MatchResources = &admissionv1.MatchResourcesArgs{NamespaceSelector: &metav1.LabelSelectorArgs{
			MatchExpressions: metav1.LabelSelectorRequirementArray{metav1.LabelSelectorRequirementArgs{
				Key: pulumi.String(NamespaceNameLabel), Operator: pulumi.String("In"),
				Values: pulumi.ToStringArray(namespaces),
			}},
		}}
	}
	binding, err := admissionv1.NewValidatingAdmissionPolicyBinding(ctx, name+"-policy-binding",
		&admissionv1.ValidatingAdmissionPolicyBindingArgs{
			Metadata: &metav1.ObjectMetaArgs{Name: pulumi.String(policyName)},
			Spec:     bindingSpec,
		}, append(opts, pulumi.DependsOn([]pulumi.Resource{policy}))...)
	if err != nil {
		return nil, err
	}
	return []pulumi.Resource{policy, binding}, nil
}

// spec is the policy's spec as pulumi-kubernetes' plain type, field for field as Object writes it.
func (p Policy) spec() admissionv1.ValidatingAdmissionPolicySpec {
	fail := "Fail"
	s := admissionv1.ValidatingAdmissionPolicySpec{
		FailurePolicy: &fail,
		MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{
			ApiGroups:   []string{p.Group},
			ApiVersions: []string{p.Version},
			Resources:   p.Resources(),
			Operations:  p.Ops(),
		}}},
	}
	for _, v := range p.Variables {
		s.Variables = append(s.Variables, admissionv1.Variable{Name: v.Name, Expression: v.Expression})
	}
	for _, v := range p.Validations {
		msg := v.Message
		val := admissionv1.Validation{Expression: v.Expression, Message: &msg}
		if v.MessageExpression != "" {
			expr := v.MessageExpression
			val.MessageExpression = &expr
		}
		s.Validations = append(s.Validations, val)
	}
	return s
}
