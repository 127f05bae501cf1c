package delivery

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
)

// StackSpecFields are the fields of a pulumi.com/v1 Stack's spec in PKO v2.9.0's CRD
// (deploy/crds/pulumi.com_stacks.yaml), the version DefaultOperatorChartVersion installs. The Stack guard pins
// every one to what the stage's manifest says (absent stays absent) but the promotion's (PromotedFields).
var StackSpecFields = []string{
	"accessTokenSecret", "backend", "branch", "commit", "config", "configRef", "continueResyncOnCommitMatch",
	"destroyOnFinalize", "envRefs", "envSecrets", "environment", "envs", "expectNoRefreshChanges", "fluxSource",
	"gitAuth", "gitAuthSecret", "prerequisites", "preview", "programRef", "projectRepo", "refresh", "repoDir",
	"resyncFrequencySeconds", "retryMaxBackoffDurationSeconds", "retryOnUpdateConflict", "runProgram", "secrets",
	"secretsProvider", "secretsRef", "serviceAccountName", "shallow", "stack", "targetDependents", "targets",
	"updateTemplate", "useLocalStackOnly", "workspaceReclaimPolicy", "workspaceTemplate",
}

// WorkspaceSpecFields are the fields of spec.workspaceTemplate.spec (a Workspace's spec) in PKO v2.9.0's Stack CRD.
// The guard pins every one to the stage's workspaceTemplate but WorkspaceFreeFields.
var WorkspaceSpecFields = []string{
	"env", "envFrom", "flux", "git", "image", "imagePullPolicy", "local", "podTemplate", "projectInfo",
	"pulumiLogLevel", "resources", "securityProfile", "serviceAccountName", "serviceTemplate", "stacks",
}

// PromotedFields are the Stack spec fields a manifests commit may change: what a Kargo promotion writes (the
// commit, and the branch it replaces; the branch has a rule of its own). The workspace is pinned field by field.
var PromotedFields = []string{"branch", "commit", "workspaceTemplate"}

// WorkspaceFreeFields are the workspaceTemplate.spec fields a manifests commit may change: the workspace pod's
// resources (its metadata is free too). Everything else in it (image, git, local, flux, env, envFrom, the pod
// template, ...) runs code or reads secrets as the stage's identity.
var WorkspaceFreeFields = []string{"resources"}

// pinnedSpecs are the specs of every Stack the delivery writes, by "<namespace>/<name>", as JSON decodes them:
// what the guard holds each Stack to.
func pinnedSpecs(a StackDeliveryArgs) map[string]any {
	out := map[string]any{}
	for _, s := range a.Stages {
		if !s.deploys() {
			continue
		}
		var objects []map[string]any
		for _, m := range s.members() {
			objects = append(objects, StackObject(a, m.stage, false))
		}
		if s.Preview {
			objects = append(objects, StackObject(a, s, true))
		}
		for _, o := range objects {
			md := o["metadata"].(map[string]any)
			var spec map[string]any
			raw, _ := json.Marshal(o["spec"]) // plain values: maps, slices, strings, numbers and bools
			_ = json.Unmarshal(raw, &spec)
			delete(spec, "commit") // the promotion's: a new commit in the stage's config leaves the guard as it is
			delete(spec, "branch")
			out[md["namespace"].(string)+"/"+md["name"].(string)] = spec
		}
	}
	return out
}

// pinValidations are the guard's variables and validation for the pinned fields: the Stack is one the delivery
// writes (by namespace and name), and its spec equals that Stack's in every field but PromotedFields, its
// workspace's in every field but WorkspaceFreeFields; the message names the fields that differ. A spec with no CEL
// literal (none: the specs are JSON's values) gives a validation that refuses every Stack, naming the error.
func pinValidations(a StackDeliveryArgs) ([]admission.Variable, []admission.Validation) {
	vars, vals, err := pins(a)
	if err != nil {
		return nil, []admission.Validation{{Expression: "false", Message: "the Stack guard could not be written: " + err.Error()}}
	}
	return vars, vals
}

func pins(a StackDeliveryArgs) ([]admission.Variable, []admission.Validation, error) {
	pinned := pinnedSpecs(a)
	lit, err := admission.Literal(pinned)
	if err != nil {
		return nil, nil, err
	}
	names := slices.Sorted(maps.Keys(pinned))
	nameList, err := admission.Literal(names)
	if err != nil {
		return nil, nil, err
	}
	var checks []string
	differs := func(field, got, want string) {
		checks = append(checks, "(dyn("+got+".orValue(null)) == dyn("+want+".orValue(null)) ? [] : ["+admission.String(field)+"])")
	}
	for _, f := range StackSpecFields {
		if !slices.Contains(PromotedFields, f) {
			differs("spec."+f, "object.spec.?"+f, "variables.pinned.?"+f)
		}
	}
	for _, f := range WorkspaceSpecFields {
		if !slices.Contains(WorkspaceFreeFields, f) {
			differs("spec.workspaceTemplate.spec."+f, "object.spec.?workspaceTemplate.?spec.?"+f,
				"variables.pinned.?workspaceTemplate.?spec.?"+f)
		}
	}
	vars := []admission.Variable{
		{Name: "key", Expression: "request.namespace + '/' + object.metadata.name"},
		{Name: "pinned", Expression: lit + "[?variables.key].orValue({})"},
		{Name: "changed", Expression: strings.Join(checks, " + ")},
	}
	stackFields, err := admission.Literal(StackSpecFields)
	if err != nil {
		return nil, nil, err
	}
	workspaceFields, err := admission.Literal(WorkspaceSpecFields)
	if err != nil {
		return nil, nil, err
	}
	vals := []admission.Validation{
		{
			// A field a later PKO adds would escape the field-by-field pins: refused until the guard knows it.
			Expression: "object.spec.all(k, k in " + stackFields + ") && " +
				"object.spec.?workspaceTemplate.?spec.orValue({}).all(k, k in " + workspaceFields + ")",
			Message: "a stage's Stack sets only the fields of PKO v2.9.0's Stack and Workspace specs, which the guard " +
				"pins one by one",
		},
		{
			Expression: "variables.key in " + nameList,
			Message:    "a stage's namespace holds only the Stacks the delivery writes: " + strings.Join(names, ", "),
		},
		{
			Expression: "variables.changed.size() == 0",
			Message: "a stage's Stack keeps the spec the delivery wrote but its commit (the promotion) and its " +
				"workspace's resources",
			MessageExpression: "\"a stage's Stack keeps the spec the delivery wrote but its commit (the promotion) and " +
				"its workspace's resources: \" + variables.changed.join(\", \") + \" differ\"",
		},
	}
	return vars, vals, nil
}
