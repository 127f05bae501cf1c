package contract

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/admission"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/tests/spokegen"
)

// guardOf is the hub's cluster-secret guard registering the hub and n realistic spokes (sizedSpoke).
func guardOf(t testing.TB, n int) gitopsbridge.ClusterSecretGuard {
	t.Helper()
	hub, _ := fleetSecrets(t)
	g := gitopsbridge.ClusterSecretGuard{Namespace: argocdNamespace,
		Deployer:      gitopsbridge.DeployerUsername(deployerRole + "ci-run-1"),
		SecretWriters: []string{argocdServer}, Registered: []gitopsbridge.ClusterSecret{registration(t, hub)}}
	for i := range n {
		g.Registered = append(g.Registered, sizedSpoke(n, i))
	}
	return g
}

// sizedSpoke is spoke i of a fleet of n realistic spokes and its hub, naming its controller replica as Fleet writes
// it once the hub is past a replica's budget (gitopsbridge.ReplicasFor the n+1 clusters: 2 replicas at 50 spokes,
// 3 at 100, 5 at 200).
func sizedSpoke(n, i int) gitopsbridge.ClusterSecret {
	s := spokegen.Spoke(i)
	if replicas := gitopsbridge.ReplicasFor(nil, n+1, 0); replicas > 1 {
		s.Shard = strconv.Itoa(gitopsbridge.ShardOf(s.Name, replicas))
	}
	return s
}

// secretObject is s as the Secret Git delivery commits and Argo CD's controller writes (tracking annotation added).
func secretObject(t testing.TB, s gitopsbridge.ClusterSecret) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(s.YAML()), &m); err != nil {
		t.Fatal(err)
	}
	field(m, "metadata", "annotations")["argocd.argoproj.io/tracking-id"] = "cluster-registry-prod:/Secret:argocd/" + s.Name
	return m
}

// TestClusterSecretGuardAtSize: the guard over 10, 50, 100 and 200 realistic spokes (sharded past 50) is a policy the API server stores
// (every expression compiled as it compiles a new policy, under cel-go's 100,000 code points, the object under
// etcd's 1.5 MiB) and enforces: any spoke, the last of the last variable included, written by a sync is admitted;
// a flipped label, a spoke moved to an earlier wave, changed data, a spoke moved to another controller replica or an
// unregistered name is refused with the guard's message.
func TestClusterSecretGuardAtSize(t *testing.T) {
	for _, n := range []int{10, 50, 100, 200} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			g := guardOf(t, n)
			p := g.Policy()
			policy := p.Object()
			raw := jsonOf(t, policy)
			if len(raw) > gitopsbridge.MaxPolicyBytes {
				t.Errorf("the policy is %d bytes of JSON, past the fleet's ceiling %d under etcd's 1.5 MiB request limit "+
					"(GitOpsBridge would refuse it)", len(raw), gitopsbridge.MaxPolicyBytes)
			}
			for _, v := range p.Variables {
				if c := utf8.RuneCountInString(v.Expression); c > 100_000 {
					t.Errorf("variable %s is %d code points", v.Name, c)
				}
			}
			a := newAdmitter(t, policy, p.Binding())
			for _, i := range []int{0, n / 2, n - 1} {
				spoke := sizedSpoke(n, i)
				obj := secretObject(t, spoke)
				if ok, msg := a.admit(t, obj, nil, argocdNamespace, controller, secretKind, secretResource); !ok {
					t.Errorf("spoke %d of %d, from Git: %s", i, n, msg)
				}
				flipped := edited(t, obj, func(o map[string]any) { field(o, "metadata", "labels")["enable_velero"] = "false" })
				ok, msg := a.admit(t, flipped, obj, argocdNamespace, controller, secretKind, secretResource)
				expectAdmission(t, ok, msg, "label enable_velero differ")
				// A production spoke moved into the first wave, so that a change reaches it before dev's.
				early := edited(t, obj, func(o map[string]any) { field(o, "metadata", "labels")[gitopsbridge.WaveLabel] = "1" })
				ok, msg = a.admit(t, early, obj, argocdNamespace, controller, secretKind, secretResource)
				expectAdmission(t, ok, msg, "label "+gitopsbridge.WaveLabel+" differ")
				elsewhere := edited(t, obj, func(o map[string]any) { field(o, "stringData")["server"] = "https://collector.example.com" })
				ok, msg = a.admit(t, elsewhere, obj, argocdNamespace, controller, secretKind, secretResource)
				expectAdmission(t, ok, msg, "data differ")
				if spoke.Shard != "" { // another controller replica, which the commit's author would rather it ran on
					moved := edited(t, obj, func(o map[string]any) { field(o, "stringData")["shard"] = spoke.Shard + "0" })
					ok, msg = a.admit(t, moved, obj, argocdNamespace, controller, secretKind, secretResource)
					expectAdmission(t, ok, msg, "data differ")
				}
			}
			rogue := secretObject(t, spokegen.Spoke(n))
			ok, msg := a.admit(t, rogue, nil, argocdNamespace, controller, secretKind, secretResource)
			expectAdmission(t, ok, msg, "cluster secret "+spokegen.Spoke(n).Name+" is not one the stack registered, by name")
			t.Logf("%d spokes: policy %d bytes of JSON in %d variables of registrations", n, len(raw), pinVariables(p.Variables))
		})
	}
}

// BenchmarkClusterSecretAdmission measures, for 10, 50, 100 and 200 realistic spokes (sharded past 50), one admission of a registered
// spoke's secret written by a sync through Kubernetes' own admission code with the guard compiled (ns/op), and
// reports the policy's size (bytes of JSON as stored) and its largest expression (code points).
func BenchmarkClusterSecretAdmission(b *testing.B) {
	for _, n := range []int{10, 50, 100, 200} {
		b.Run("spokes="+strconv.Itoa(n), func(b *testing.B) {
			p := guardOf(b, n).Policy()
			raw := jsonOf(b, p.Object())
			largest := 0
			for _, v := range p.Variables {
				largest = max(largest, utf8.RuneCountInString(v.Expression))
			}
			a := newAdmitter(b, p.Object(), p.Binding())
			obj := secretObject(b, sizedSpoke(n, n-1))
			b.ResetTimer()
			for b.Loop() {
				if ok, msg := a.admit(b, obj, nil, argocdNamespace, controller, secretKind, secretResource); !ok {
					b.Fatal(msg)
				}
			}
			b.ReportMetric(float64(len(raw)), "policy-bytes")
			b.ReportMetric(float64(largest), "largest-expression-codepoints")
		})
	}
}

// pinVariables counts the guard's variables of registrations (pins0, pins1, ...).
func pinVariables(vars []admission.Variable) int {
	n := 0
	for _, v := range vars {
		if strings.HasPrefix(v.Name, "pins") {
			n++
		}
	}
	return n
}

// jsonOf is v as the JSON the API server receives.
func jsonOf(t testing.TB, v any) []byte {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// BenchmarkClusterSecretGuardCompile measures, for 10, 50, 100 and 200 realistic spokes, one compile of the guard
// through Kubernetes' own admission code (ns/op): what the API server spends on each create or update of the policy
// (its validation, then its admission plugin's reload) and the controller manager's type check of it. The
// registrations' literals keep it linear in the spokes (admission.Literal: no dyn() around strings).
func BenchmarkClusterSecretGuardCompile(b *testing.B) {
	for _, n := range []int{10, 50, 100, 200} {
		b.Run("spokes="+strconv.Itoa(n), func(b *testing.B) {
			p := guardOf(b, n).Policy()
			policy, binding := p.Object(), p.Binding()
			for b.Loop() {
				newAdmitter(b, policy, binding)
			}
		})
	}
}
