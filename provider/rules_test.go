package provider

import (
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	pschema "github.com/pulumi/pulumi/pkg/v3/codegen/schema"

	"github.com/gitops-fleet/pulumi-fleet/components/capability"
	"github.com/gitops-fleet/pulumi-fleet/components/clusterinfo"
	"github.com/gitops-fleet/pulumi-fleet/components/delivery"
	"github.com/gitops-fleet/pulumi-fleet/components/fleet"
	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/gitops-fleet/pulumi-fleet/components/tenant"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// leaf is one scalar input of an args type: its schema path ("clusters[0].name"), the Go struct type that declares
// it, its schema property name, and how to reach it in a fresh args value.
type leaf struct {
	path, owner, property string
	steps                 []step
	kind                  reflect.Kind
}

// step is one move from a value to a part of it: a struct field (by index) or a slice's first element.
type step struct {
	field int
	elem  bool
}

// leaves are the string and integer inputs reachable from t, with their paths under prefix: struct fields with a
// pulumi tag, through pointers and into each list's first element (lists of scalars at [0]), but not into a type
// already on the way (seen). Maps are left out.
func leaves(t reflect.Type, prefix string, steps []step, seen map[reflect.Type]bool) []leaf {
	var out []leaf
	for i := range t.NumField() {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("pulumi"), ",")[0]
		if tag == "" || !f.IsExported() {
			continue
		}
		path := tag
		if prefix != "" {
			path = prefix + "." + tag
		}
		s := append(append([]step{}, steps...), step{field: i})
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch ft.Kind() {
		case reflect.String, reflect.Int:
			out = append(out, leaf{path: path, owner: t.Name(), property: tag, steps: s, kind: ft.Kind()})
		case reflect.Struct:
			if !seen[ft] {
				seen[ft] = true
				out = append(out, leaves(ft, path, s, seen)...)
				seen[ft] = false
			}
		case reflect.Slice:
			et := ft.Elem()
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			s = append(s, step{elem: true})
			switch et.Kind() {
			case reflect.String, reflect.Int:
				out = append(out, leaf{path: path + "[0]", owner: t.Name(), property: tag, steps: s, kind: et.Kind()})
			case reflect.Struct:
				if !seen[et] {
					seen[et] = true
					out = append(out, leaves(et, path+"[0]", s, seen)...)
					seen[et] = false
				}
			}
		}
	}
	return out
}

// set gives the leaf reached by steps from v (addressable) a value no rule admits: a string with an upper-case
// letter, a space and punctuation, or -7. Nil pointers and empty lists on the way are made.
func set(v reflect.Value, steps []step, kind reflect.Kind) {
	for _, st := range steps {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		if st.elem {
			if v.Len() == 0 {
				v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
			}
			v = v.Index(0)
			continue
		}
		v = v.Field(st.field)
	}
	if v.Kind() == reflect.Pointer {
		v.Set(reflect.New(v.Type().Elem()))
		v = v.Elem()
	}
	if kind == reflect.String {
		v.SetString("Not Valid!")
	} else {
		v.SetInt(-7)
	}
}

// baseFleet is a fleet Check admits: a hub and a spoke, the add-ons repository.
func baseFleet() fleet.FleetArgs {
	return fleet.FleetArgs{
		Clusters: []fleet.ClusterSpec{
			{Name: "hub", Region: "us-east-1", Role: fleet.Hub},
			{Name: "spoke-a", Region: "us-east-2", Role: fleet.Spoke, VpcCidr: "10.20.0.0/16"},
		},
		Repositories: fleet.Repositories{Addons: &gitopsbridge.Repo{URL: "https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template",
			Path: "bootstrap/control-plane/addons"}},
	}
}

// clusterFacts are a cluster's facts as FleetCluster's outputs give them to GitOpsBridge and Tenant.
func clusterFacts(name, region string) clusterinfo.ClusterInfoArgs {
	return clusterinfo.ClusterInfoArgs{ClusterName: pulumi.String(name), Environment: pulumi.String("dev"),
		Server: pulumi.String("https://" + name + ".gr7." + region + ".eks.amazonaws.com"), CertificateAuthorityData: pulumi.String("Q0E="),
		Region: pulumi.String(region), AccountId: pulumi.String("123456789012"), KubernetesVersion: pulumi.String("1.33"),
		Kubeconfig: pulumi.String(`{"clusters":[{"name":"` + name + `"}]}`)}
}

// roots are each component's arguments as a program gives them, a base that its validation admits, and the
// validation NewX runs before registering anything (ArgoCDCapability's, a custom resource's: the one its create and
// update run before calling EKS): every input a stack or a program sets is reachable from one.
var roots = []struct {
	name  string
	rules func(t *testing.T) []rule
}{
	{"Fleet", func(t *testing.T) []rule {
		return rulesOf(t, baseFleet, func(a fleet.FleetArgs) error { return fleet.Check(a, "dev") })
	}},
	{"FleetCluster", func(t *testing.T) []rule {
		return rulesOf(t, func() fleetcluster.FleetClusterArgs {
			return fleetcluster.FleetClusterArgs{Region: "us-west-2", Environment: "dev"}
		}, func(a fleetcluster.FleetClusterArgs) error {
			return fleetcluster.Validate(fleetcluster.Resolve(a, "dev", "test"), a)
		})
	}},
	{"GitOpsBridge hub", func(t *testing.T) []rule {
		return rulesOf(t, func() gitopsbridge.GitOpsBridgeArgs {
			return gitopsbridge.GitOpsBridgeArgs{Cluster: clusterFacts("hub", "us-east-1"), Hub: &gitopsbridge.Hub{}}
		}, func(a gitopsbridge.GitOpsBridgeArgs) error {
			return gitopsbridge.Validate(gitopsbridge.Resolve(a, "bridge"), true)
		})
	}},
	{"GitOpsBridge spoke", func(t *testing.T) []rule {
		return rulesOf(t, func() gitopsbridge.GitOpsBridgeArgs {
			c := clusterFacts("spoke-a", "us-west-2")
			c.SpokeRoleArn = pulumi.String("arn:aws:iam::123456789012:role/spoke-a")
			return gitopsbridge.GitOpsBridgeArgs{Cluster: c, Spoke: &gitopsbridge.Spoke{HubKubeconfig: pulumi.String("{}")}}
		}, func(a gitopsbridge.GitOpsBridgeArgs) error {
			return gitopsbridge.Validate(gitopsbridge.Resolve(a, "bridge"), true)
		})
	}},
	{"StackDelivery", func(t *testing.T) []rule {
		return rulesOf(t, func() delivery.StackDeliveryArgs {
			return delivery.StackDeliveryArgs{Kubeconfig: pulumi.String("{}"), Project: "fleet",
				Program:           delivery.ProgramRepository{RepoUrl: "https://github.com/acme/platform.git", RepoDir: "examples/fleet"},
				Manifests:         delivery.ManifestsRepository{Owner: "acme", Repository: "platform", Path: "deploy/stacks"},
				PulumiAccessToken: pulumi.String("pul-token"),
				Stages:            []delivery.DeliveryStage{{Name: "dev", Stack: "acme/fleet/dev", Commit: strings.Repeat("1", 40)}},
				Kargo: &delivery.KargoInstall{AdminPasswordHash: pulumi.String("$2a$10$Zrhhie4vLz5ygtVSaif6o.qN36jgs6vjtMBdM6yrU1FOeiAAMMxOm"),
					TokenSigningKey: pulumi.String("signing-key"), CertManager: "install"}}
		}, func(a delivery.StackDeliveryArgs) error {
			return delivery.Validate(delivery.WithDefaults(a, "delivery"), false)
		})
	}},
	{"ArgoCDCapability", func(t *testing.T) []rule {
		return rulesOf(t, func() capability.ArgoCDCapabilityArgs {
			return capability.ArgoCDCapabilityArgs{ClusterName: "hub", RoleArn: "arn:aws:iam::123456789012:role/argocd",
				ArgoCD: capability.CapabilityArgoCD{IdentityCenter: capability.CapabilityIdentityCenter{
					InstanceArn: "arn:aws:sso:::instance/ssoins-1234567890abcdef"}}}
		}, func(a capability.ArgoCDCapabilityArgs) error { return a.Validate(false) })
	}},
	{"Tenant", func(t *testing.T) []rule {
		return rulesOf(t, func() tenant.TenantArgs {
			return tenant.TenantArgs{Tenant: tenant.TenantSpec{Name: "payments",
				Namespaces: []tenant.TenantNamespace{{Name: "payments"}},
				Owners:     []tenant.TenantOwner{{Arn: "arn:aws:iam::123456789012:role/payments"}}},
				Clusters:      []tenant.TenantCluster{{Name: "spoke-a", Region: "us-west-2", Cluster: clusterFacts("spoke-a", "us-west-2")}},
				HubKubeconfig: pulumi.String("{}")}
		}, tenant.Validate)
	}},
}

// rule is an input's rule as validation reports it: the problem's message for a value no rule admits.
type rule struct {
	owner, property, path, message string
}

// rulesOf finds the rules of the inputs reachable from args (of type A) by giving each string and integer input,
// one at a time, a value no rule admits ("Not Valid!", -7) and keeping the problems check reports at that input's
// own path.
func rulesOf[A any](t *testing.T, base func() A, check func(A) error) []rule {
	t.Helper()
	if err := check(base()); err != nil {
		t.Fatalf("the base arguments: %v", err)
	}
	var out []rule
	seen := map[[2]string]bool{}
	for _, l := range leaves(reflect.TypeFor[A](), "", nil, map[reflect.Type]bool{}) {
		a := base()
		set(reflect.ValueOf(&a).Elem(), l.steps, l.kind)
		var pe *problems.Error
		if err := check(a); !errors.As(err, &pe) {
			continue
		}
		for _, p := range pe.Problems {
			if key := [2]string{l.owner, l.property}; p.Field == l.path && !seen[key] {
				seen[key] = true
				out = append(out, rule{owner: l.owner, property: l.property, path: l.path, message: p.Message})
			}
		}
	}
	return out
}

// forms are the shared forms an input's rule may take, by the rule's message: the words its description must use,
// which name the form by its standard and so the rule's source (Kubernetes' object names and quantities, RFC 1123,
// IAM's ARNs, Go's durations, AWS's account IDs).
var forms = []struct {
	message *regexp.Regexp
	// describe are the phrases of which the description must use one.
	describe []string
}{
	{regexp.MustCompile(`DNS-1123 label|RFC 1123 label`), []string{"DNS-1123 label"}},
	{regexp.MustCompile(`DNS-1123 subdomain|RFC 1123 subdomain`), []string{"DNS-1123 subdomain"}},
	{regexp.MustCompile(`Kubernetes quantity`), []string{"Kubernetes quantity"}},
	{regexp.MustCompile(`Kubernetes qualified name`), []string{"Kubernetes qualified name"}},
	{regexp.MustCompile(`label value`), []string{"Kubernetes label value"}},
	{regexp.MustCompile(`IAM [a-z ]*ARN`), []string{"IAM role", "IAM policy", "IAM role or user"}},
	{regexp.MustCompile(`CIDR|IPv4 network`), []string{"CIDR"}},
	{regexp.MustCompile(`Go duration`), []string{"Go duration"}},
	{regexp.MustCompile(`AWS account ID`), []string{"12 digits"}},
	{regexp.MustCompile(`cron schedule`), []string{"cron schedule"}},
}

// allowed are the values an enumerating rule's message lists ("want a or b", "one of a, b", "one of [a b]").
func allowed(message string) []string {
	m := regexp.MustCompile(`(?:want (?:one of )?|is not one of |expected one of )\[?([^:;()\]]+)`).FindStringSubmatch(message)
	if m == nil || regexp.MustCompile(`[0-9] to [0-9]|0 or more|the hub's`).MatchString(m[1]) {
		return nil
	}
	var out []string
	for _, v := range regexp.MustCompile(`[, ]+(?:or )?`).Split(strings.TrimSpace(m[1]), -1) {
		if v = strings.Trim(v, `"`); v != "" && v != "or" {
			out = append(out, v)
		}
	}
	return out
}

// TestValidatedInputsStateTheirForm: every input of Fleet (the stack config's whole surface: the fleet's, its
// clusters', node groups', Argo CD's, Git's, shards' and tenants' inputs) that validation checks against a shared
// form says so in its schema description, naming the form by its standard (forms), and an input checked against a
// list of values names each value. The rules are found by validation itself (rulesOf), so a new rule is checked
// without a list here.
func TestValidatedInputsStateTheirForm(t *testing.T) {
	_, pkg := boundSchema(t)
	describe := map[[2]string]string{}
	for _, r := range pkg.Resources {
		for _, p := range r.InputProperties {
			describe[[2]string{strings.TrimPrefix(r.Token, "fleet:index:") + "Args", p.Name}] = p.Comment
		}
	}
	for _, typ := range pkg.Types {
		if o, ok := typ.(*pschema.ObjectType); ok {
			for _, p := range o.Properties {
				describe[[2]string{strings.TrimPrefix(o.Token, "fleet:index:"), p.Name}] = p.Comment
			}
		}
	}
	var rules []rule
	for _, root := range roots {
		found := root.rules(t)
		if len(found) < 10 {
			t.Errorf("found %d rules of %s's inputs; validation checks more", len(found), root.name)
		}
		t.Logf("%d rules of %s's inputs", len(found), root.name)
		rules = append(rules, found...)
	}
	checked := 0
	for _, r := range rules {
		d, ok := describe[[2]string{r.owner, r.property}]
		if !ok {
			t.Errorf("%s.%s (%s) has a rule but no schema description", r.owner, r.property, r.path)
			continue
		}
		for _, f := range forms {
			if f.message.MatchString(r.message) {
				checked++
				if !slices.ContainsFunc(f.describe, func(p string) bool { return strings.Contains(d, p) }) {
					t.Errorf("%s.%s (%s) is checked as %q, but its description does not say %s: %q", r.owner, r.property,
						r.path, r.message, strings.Join(f.describe, " or "), d)
				}
				break
			}
		}
		for _, v := range allowed(r.message) {
			if checked++; !strings.Contains(d, v) {
				t.Errorf("%s.%s (%s) takes %v (%q), but its description does not name %q: %q", r.owner, r.property, r.path,
					allowed(r.message), r.message, v, d)
			}
		}
	}
	t.Logf("%d forms and listed values checked against the descriptions", checked)
	if checked < 40 {
		t.Errorf("checked %d forms and values; the rules have more", checked)
	}
}

// TestAllowed: the values of an enumerating rule's message, in the forms validation writes them; none for a range
// or a free message.
func TestAllowed(t *testing.T) {
	for _, tc := range []struct {
		message string
		want    []string
	}{
		{`"x": want "hub" or "spoke"`, []string{"hub", "spoke"}},
		{`"x" is not one of ON_DEMAND, SPOT`, []string{"ON_DEMAND", "SPOT"}},
		{`"x": want admin, edit or view`, []string{"admin", "edit", "view"}},
		{`"x" is not a hub mode; expected one of [selfManaged managed] (the hub stack's argocd.mode)`, []string{"selfManaged", "managed"}},
		{`"x": want one of [consistent-hashing round-robin] (Argo CD's controller.sharding.algorithm)`, []string{"consistent-hashing", "round-robin"}},
		{`-7: want 1 to 100 application controller replicas`, nil},
		{`-7: want 0 or more`, nil},
		{`"x": want the hub's Argo CD management role ARN, or give stack`, nil},
		{`"x" is not a DNS-1123 label: a lowercase RFC 1123 label must consist of ...`, nil},
	} {
		if got := allowed(tc.message); !slices.Equal(got, tc.want) {
			t.Errorf("allowed(%q) = %q, want %q", tc.message, got, tc.want)
		}
	}
}
