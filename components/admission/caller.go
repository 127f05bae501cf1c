package admission

import (
	"fmt"

	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// ForCaller are the policies build makes for caller's value (the stack's AWS caller ARN, whose EKS username a
// guard exempts as the deployer), each as an output for Register, and the same policies built for no caller: their
// names, namespaces and count, which the registrations need before caller resolves (the caller changes only the
// exemptions). An error of build, or a count that differs once caller is known, fails the policy.
func ForCaller(caller pulumi.StringOutput, build func(caller string) ([]Policy, error)) ([]Policy, []pulumi.AnyOutput, error) {
	known, err := build("")
	if err != nil {
		return nil, nil, err
	}
	outs := make([]pulumi.AnyOutput, len(known))
	for i := range known {
		outs[i] = caller.ApplyT(func(v string) (Policy, error) {
			ps, err := build(v)
			if err == nil && len(ps) != len(known) {
				err = fmt.Errorf("%d policies for caller %s, %d before it was known", len(ps), v, len(known))
			}
			if err != nil {
				return Policy{}, err
			}
			return ps[i], nil
		}).(pulumi.AnyOutput)
	}
	return known, outs, nil
}
