package delivery

import (
	"maps"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"k8s.io/apimachinery/pkg/util/validation"
)

// A stage with several stacks (stages[].stacks): the shard stacks of a fleet beyond one stack, each its own
// pulumi.com Stack, which PKO runs side by side in workspaces of their own. One promotion moves them all to the
// Freight's commit, and the stage is verified when every one of them is.

// StageStack is one of the stacks an update stage deploys side by side (stages[].stacks), for example a shard's
// stack of a fleet beyond one stack.
type StageStack struct {
	// Name is the stack's name in the stage, a DNS-1123 label unique in it ("us", "eu"): its Stack object is
	// "<stackName>-<name>" (at most 42 characters, PKO's rule) and its file <path>/<stage>/stack-<name>.yaml.
	// Required.
	Name string `pulumi:"name"`
	// Stack is the Pulumi stack the Stack object deploys (spec.stack), as the stage's stack. Required.
	Stack string `pulumi:"stack"`
	// Config is the stack's configuration inline (spec.config), laid over the stage's config. Default: the
	// stage's.
	Config map[string]string `pulumi:"config,optional"`
}

// member is one Stack of a stage: the stage as that Stack's settings, and its name among the stage's stacks
// ("" for a stage with one stack).
type member struct {
	name  string
	stage DeliveryStage
}

// members are the stage's Stacks (without its preview Stack): the stage itself, or one per stacks entry with its
// stack, its Stack object name "<stackName>-<name>" and its config over the stage's.
func (s DeliveryStage) members() []member {
	if len(s.Stacks) == 0 {
		return []member{{stage: s}}
	}
	out := make([]member, 0, len(s.Stacks))
	for _, m := range s.Stacks {
		c := s
		c.Stacks = nil
		c.Stack = m.Stack
		c.StackName = s.StackName + "-" + m.Name
		c.Config = maps.Clone(s.Config)
		if len(m.Config) > 0 && c.Config == nil {
			c.Config = map[string]string{}
		}
		maps.Copy(c.Config, m.Config)
		out = append(out, member{name: m.Name, stage: c})
	}
	return out
}

// memberPath is a Stack's file in the stage's folder: stack.yaml for a stage with one stack, else
// stack-<name>.yaml.
func memberPath(m ManifestsRepository, stage string, mb member) string {
	if mb.name == "" {
		return StackPath(m, stage, false)
	}
	return StageDir(m, stage) + "/stack-" + mb.name + ".yaml"
}

// StageStackFiles are a stage's Stack objects (its preview Stack aside) by their file in the manifests repository:
// stack.yaml, or stack-<name>.yaml per stacks entry.
func StageStackFiles(a StackDeliveryArgs, s DeliveryStage) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, mb := range s.members() {
		out[memberPath(a.Manifests, s.Name, mb)] = StackObject(a, mb.stage, false)
	}
	return out
}

// stackNamesOf are the names of a stage's Stack objects.
func stackNamesOf(s DeliveryStage) []string {
	var out []string
	for _, m := range s.members() {
		out = append(out, m.stage.StackName)
	}
	return out
}

// validateStacks adds the problems of an update stage's stacks: at least two, each a DNS-1123 label unique in the
// stage and a Pulumi stack, the stage's stack not given besides, no preview Stack of its own. The Stack objects'
// names are checked with the stage's.
func validateStacks(ps *problems.List, f string, s DeliveryStage) {
	if len(s.Stacks) == 0 {
		return
	}
	if len(s.Stacks) < 2 {
		ps.Add(f+".stacks", "has one stack; give it as stack")
	}
	if s.Stack != "" {
		ps.Add(f+".stack", "is set besides stacks; give the stage's stacks in stacks only")
	}
	if s.Preview {
		ps.Add(f+".preview", "is true, but a stage with stacks has no preview Stack; preview each stack in a stage of its own")
	}
	names := map[string]int{}
	for i, m := range s.Stacks {
		mf := problems.Index(f+".stacks", i)
		if errs := validation.IsDNS1123Label(m.Name); len(errs) > 0 {
			ps.Add(mf+".name", "%q is not a DNS-1123 label (it names the Stack object <stackName>-<name>)", m.Name)
		} else if j, dup := names[m.Name]; dup {
			ps.Add(mf+".name", "%q is also the name of stacks[%d]", m.Name, j)
		}
		names[m.Name] = i
		if !stackPattern.MatchString(m.Stack) {
			ps.Add(mf+".stack", "%q is not a Pulumi stack (<org>/<project>/<stack>, or <stack> for a self-managed backend)", m.Stack)
		}
	}
}

// StageAnalysis is the AnalysisTemplate of a verified stage with stacks: "<provider's template>-<stage>", one
// metric per Stack (named after its stacks entry), so that the AnalysisRun, and the Freight, is verified when
// every Stack of the stage is.
func StageAnalysis(a StackDeliveryArgs, s DeliveryStage) map[string]any {
	t := PulumiCloudAnalysis(a)
	if s.Verification.Provider == VerifyStackStatus {
		t = StackStatusAnalysis(a)
	}
	spec := t["spec"].(map[string]any)
	perStack := []string{"stack", "stack-name", "namespace"} // inlined in each Stack's metric
	var args, metrics []any
	for _, arg := range spec["args"].([]any) {
		if !slices.Contains(perStack, arg.(map[string]any)["name"].(string)) {
			args = append(args, arg)
		}
	}
	for _, m := range s.members() {
		metric := inline(spec["metrics"].([]any)[0], map[string]string{
			"stack": m.stage.Stack, "stack-name": m.stage.StackName, "namespace": m.stage.Namespace})
		metric["name"] = metric["name"].(string) + "-" + m.name
		metrics = append(metrics, metric)
	}
	return analysisTemplate(a, t["metadata"].(map[string]any)["name"].(string)+"-"+s.Name, args, metrics...)
}

// inline is metric with each {{args.<name>}} of values replaced by its value (a copy).
func inline(metric any, values map[string]string) map[string]any {
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, e := range x {
				out[k] = walk(e)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = walk(e)
			}
			return out
		case string:
			for k, val := range values {
				x = strings.ReplaceAll(x, "{{args."+k+"}}", val)
			}
			return x
		default:
			return v
		}
	}
	return walk(metric).(map[string]any)
}
