package fleetcluster

import (
	"fmt"
	"regexp"

	"github.com/gitops-fleet/pulumi-fleet/components/awsnames"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// arnKind is a kind of ARN an input must be, with the form shown in errors.
type arnKind struct {
	form    string
	pattern *regexp.Regexp
}

// IAM names: letters, digits and +=,.@_- (IAM CreateRole/CreateUser API); paths are "/" or "/.../".
var (
	iamRoleARN = arnKind{form: awsnames.RoleARNForm, pattern: awsnames.RoleARNPattern}
	iamUserARN = arnKind{
		form:    "arn:<partition>:iam::<12-digit account>:user/<path><name>",
		pattern: regexp.MustCompile(`^arn:aws(-[a-z]+)*:iam::\d{12}:user/([\w+=,.@-]+/)*[\w+=,.@-]{1,64}$`),
	}
	iamPrincipalARN = arnKind{
		form:    "arn:<partition>:iam::<12-digit account>:role/<name> or ...:user/<name>",
		pattern: regexp.MustCompile(`^arn:aws(-[a-z]+)*:iam::\d{12}:(role|user)/([\w+=,.@-]+/)*[\w+=,.@-]{1,64}$`),
	}
	accessPolicyARN = arnKind{form: awsnames.AccessPolicyARNForm, pattern: awsnames.AccessPolicyARNPattern}
)

func (k arnKind) problem(v string) string {
	return fmt.Sprintf("%q is not a valid ARN; expected %s", v, k.form)
}

// checkARN adds a problem when a known input is not of the kind; a nil input is reported as missing.
func checkARN(ps *problems.List, field string, in pulumi.StringInput, kind arnKind) {
	if in == nil {
		ps.Add(field, "is required; expected %s", kind.form)
		return
	}
	if v, ok := problems.Known(in); ok && !kind.pattern.MatchString(v) {
		ps.Add(field, "%s", kind.problem(v))
	}
}

// checkedARN passes an input through, failing the output (and so every resource that uses it) when a value
// that was unknown at validation time resolves to something other than the kind of ARN.
func checkedARN(field string, in pulumi.StringInput, kind arnKind) pulumi.StringOutput {
	return in.ToStringOutput().ApplyT(func(v string) (string, error) {
		if !kind.pattern.MatchString(v) {
			return "", fmt.Errorf("%s: %s", field, kind.problem(v))
		}
		return v, nil
	}).(pulumi.StringOutput)
}
