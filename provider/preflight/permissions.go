package preflight

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsarn "github.com/aws/aws-sdk-go-v2/aws/arn"
	"github.com/aws/aws-sdk-go-v2/service/iam"
	"github.com/aws/aws-sdk-go-v2/service/iam/types"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// IAMAPI is the part of IAM the permissions check calls (the AWS SDK's *iam.Client).
type IAMAPI interface {
	SimulatePrincipalPolicy(context.Context, *iam.SimulatePrincipalPolicyInput, ...func(*iam.Options)) (*iam.SimulatePrincipalPolicyOutput, error)
	GetRole(context.Context, *iam.GetRoleInput, ...func(*iam.Options)) (*iam.GetRoleOutput, error)
}

// STSAPI is the part of STS preflight calls (the AWS SDK's *sts.Client).
type STSAPI interface {
	GetCallerIdentity(context.Context, *sts.GetCallerIdentityInput, ...func(*sts.Options)) (*sts.GetCallerIdentityOutput, error)
}

// simulateBatch is how many actions, or resources of one action, one SimulatePrincipalPolicy call is given.
const simulateBatch = 50

// allowed is IAM's decision that lets a call through; the others are implicitDeny (no statement allows it) and
// explicitDeny (a statement, a permissions boundary or an SCP denies it).
const allowed = types.PolicyEvaluationDecisionTypeAllowed

// principal is the IAM identity whose policies IAM's simulator evaluates for the caller arn: a user or role as it
// is, the role of an assumed-role session (its ARN with its path, from iam:GetRole); root is true for the account's
// root user, whom no policy limits.
func principal(ctx context.Context, api IAMAPI, caller string) (source string, root bool, err error) {
	a, err := awsarn.Parse(caller)
	if err != nil {
		return "", false, fmt.Errorf("caller %q: %w", caller, err)
	}
	switch {
	case a.Service == "iam" && a.Resource == "root":
		return "", true, nil
	case a.Service == "iam":
		return caller, false, nil
	case a.Service == "sts" && strings.HasPrefix(a.Resource, "assumed-role/"):
		name := strings.Split(a.Resource, "/")[1]
		out, err := api.GetRole(ctx, &iam.GetRoleInput{RoleName: aws.String(name)})
		if err != nil {
			return "", false, fmt.Errorf("the role of session %s: %w", caller, err)
		}
		return aws.ToString(out.Role.Arn), false, nil
	}
	return "", false, fmt.Errorf("IAM's simulator evaluates users and roles only, and the deployer is %s", caller)
}

// checkPermissions simulates every action the plan needs for the deployer (source), first on every resource ("*"),
// then, for an action not allowed there, on the resources the plan names (a deployer allowed on its own roles'
// path only); a denied action is a failure naming the steps that need it.
func checkPermissions(ctx context.Context, api IAMAPI, source, partition, account string, plan Plan, r *Report) {
	needed, unlisted := plan.Needed()
	for _, typ := range unlisted {
		r.add(Finding{Check: CheckPermissions, Level: Unknown, Subject: typ,
			Message: "preflight does not know the actions of this resource type: not checked"})
	}
	actions := slices.Sorted(maps.Keys(needed))
	if len(actions) == 0 {
		r.pass(CheckPermissions, "the plan calls no AWS action")
		return
	}
	decisions, err := simulate(ctx, api, source, actions)
	if err != nil {
		r.add(Finding{Check: CheckPermissions, Level: Unknown, Subject: "iam:SimulatePrincipalPolicy",
			Message: fmt.Sprintf("the deployer's permissions could not be simulated: %v", err)})
		return
	}
	failed := 0 // actions denied, or whose resources could not be simulated
	for _, action := range actions {
		decision := decisions[action]
		if decision == allowed {
			continue
		}
		steps := needed[action]
		var resources []string
		if decision == types.PolicyEvaluationDecisionTypeImplicitDeny {
			resources = resourcesOf(action, steps, plan, partition, account)
		}
		if resources == nil {
			failed++
			r.add(Finding{Check: CheckPermissions, Level: Fail, Subject: action,
				Message: fmt.Sprintf("%s on every resource; needed by %s", decision, describe(steps))})
			continue
		}
		on, err := simulateOn(ctx, api, source, action, resources)
		if err != nil {
			failed++
			r.add(Finding{Check: CheckPermissions, Level: Unknown, Subject: action,
				Message: fmt.Sprintf("not allowed on every resource, and its resources could not be simulated: %v", err)})
			continue
		}
		var refused []string
		for _, res := range resources {
			if on[res] != allowed {
				refused = append(refused, fmt.Sprintf("%s (%s)", res, on[res]))
			}
		}
		if len(refused) > 0 {
			failed++
			r.add(Finding{Check: CheckPermissions, Level: Fail, Subject: action,
				Message: fmt.Sprintf("not allowed on %s; needed by %s", strings.Join(refused, ", "), describe(steps))})
		}
	}
	if failed == 0 {
		r.pass(CheckPermissions, fmt.Sprintf("%s may call the %d actions the plan needs", source, len(actions)))
	}
}

// resourcesOf are the ARNs action is called on, where the plan names every one: the steps' own resources, or for
// iam:PassRole the roles the plan creates; nil when one is not known at preview.
func resourcesOf(action string, steps []Step, plan Plan, partition, account string) []string {
	if action == passRole {
		steps = nil
		for _, s := range plan {
			if s.Type == "aws:iam/role:Role" && s.Op == Create {
				steps = append(steps, s)
			}
		}
	}
	var out []string
	for _, s := range steps {
		row := ActionsOf[s.Type]
		if row.ARN == nil {
			return nil
		}
		a := row.ARN(s, partition, account)
		// A row's ARN is its own resource's: an action of another service (a cluster's kms:CreateGrant) acts on
		// another resource.
		if service, _, _ := strings.Cut(action, ":"); a == "" || strings.Split(a, ":")[2] != service {
			return nil
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// simulate is IAM's decision on each action for source, on every resource ("*"), asked simulateBatch actions at a
// time.
func simulate(ctx context.Context, api IAMAPI, source string, actions []string) (map[string]types.PolicyEvaluationDecisionType, error) {
	out := map[string]types.PolicyEvaluationDecisionType{}
	for batch := range slices.Chunk(actions, simulateBatch) {
		pages := iam.NewSimulatePrincipalPolicyPaginator(api, &iam.SimulatePrincipalPolicyInput{
			PolicySourceArn: aws.String(source), ActionNames: batch})
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				return nil, err
			}
			for _, e := range page.EvaluationResults {
				out[aws.ToString(e.EvalActionName)] = e.EvalDecision
			}
		}
	}
	for _, a := range actions {
		if _, ok := out[a]; !ok {
			return nil, errors.New("IAM's simulator gave no decision on " + a)
		}
	}
	return out, nil
}

// simulateOn is IAM's decision on action for source on each of resources (its resource-specific results).
func simulateOn(ctx context.Context, api IAMAPI, source, action string, resources []string) (map[string]types.PolicyEvaluationDecisionType, error) {
	out := map[string]types.PolicyEvaluationDecisionType{}
	for batch := range slices.Chunk(resources, simulateBatch) {
		pages := iam.NewSimulatePrincipalPolicyPaginator(api, &iam.SimulatePrincipalPolicyInput{
			PolicySourceArn: aws.String(source), ActionNames: []string{action}, ResourceArns: batch})
		for pages.HasMorePages() {
			page, err := pages.NextPage(ctx)
			if err != nil {
				return nil, err
			}
			for _, e := range page.EvaluationResults {
				for _, rs := range e.ResourceSpecificResults {
					out[aws.ToString(rs.EvalResourceName)] = rs.EvalResourceDecision
				}
			}
		}
	}
	return out, nil
}

// describe names the steps an action is needed by: "2 creates of aws:iam/role:Role (hub-node, ...)", each type
// once. (sts:GetCallerIdentity, which the AWS provider calls first, is never listed: it needs no permission, STS API
// Reference.)
func describe(steps []Step) string {
	type key struct{ op, typ string }
	var order []key
	names := map[key][]string{}
	for _, s := range steps {
		k := key{s.Op, s.Type}
		if _, ok := names[k]; !ok {
			order = append(order, k)
		}
		names[k] = append(names[k], s.Name())
	}
	var parts []string
	for _, k := range order {
		n := names[k]
		shown := strings.Join(n[:min(len(n), 3)], ", ")
		if len(n) > 3 {
			shown += ", ..."
		}
		parts = append(parts, fmt.Sprintf("%d %s of %s (%s)", len(n), plural(k.op, len(n)), k.typ, shown))
	}
	return strings.Join(parts, "; ")
}

func plural(op string, n int) string {
	if n == 1 {
		return op
	}
	return op + "s"
}
