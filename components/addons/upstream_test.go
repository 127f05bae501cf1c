package addons

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// upstreamDoc is a saved upstream policy document (testdata/upstream/README.md).
type upstreamDoc struct {
	Repository    string            `json:"repository"`
	Path          string            `json:"path"`
	Ref           string            `json:"ref"`
	Covers        string            `json:"covers"`
	Note          string            `json:"note"`
	Substitutions map[string]string `json:"substitutions"`
	Narrowings    []struct {
		Statement int                       `json:"statement"`
		Condition map[string]map[string]any `json:"condition"`
		Reason    string                    `json:"reason"`
	} `json:"narrowings"`
	Document struct {
		Statement []map[string]any `json:"Statement"`
	} `json:"document"`
	file string
}

// upstreamDocs reads every saved document of an add-on.
func upstreamDocs(t *testing.T, addon string) []upstreamDoc {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "upstream", addon, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var docs []upstreamDoc
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var d upstreamDoc
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if d.Repository == "" || d.Path == "" || d.Ref == "" || d.Covers == "" {
			t.Errorf("%s names no repository, path, ref or range", f)
		}
		d.file = f
		docs = append(docs, d)
	}
	return docs
}

// facts are the values the documented substitutions stand for, in govCtx.
func facts(c PolicyContext) (scalar map[string]string, list map[string][]string) {
	queue := c.QueueArn[strings.LastIndex(c.QueueArn, ":")+1:]
	scalar = map[string]string{"partition": c.Partition, "arnPrefix": "arn:" + c.Partition + ":",
		"dnsSuffix": c.dnsSuffix(), "region": c.Region,
		"account": c.AccountID, "clusterName": c.ClusterName, "nodeRoleArn": c.NodeRoleArn, "queueArn": c.QueueArn,
		"queueName": queue, "logGroup": c.LogGroupName, "bucket": c.BucketName, "secretsPrefix": c.SecretsPrefix}
	list = map[string][]string{"zones": c.hostedZones(), "kmsKeys": c.KMSKeyArns,
		"certificateAuthorities": c.CertificateAuthorityArns,
		"logGroups":              {c.LogGroupName, c.LogGroupName + "/*"},
		"autoScalingGroups":      {c.regional("autoscaling", "autoScalingGroup:*:autoScalingGroupName/*")}}
	return scalar, list
}

// TestPoliciesMatchUpstream compares every inline policy, for each range of versions, with the saved upstream
// document of that range, statement by statement, after the documented substitutions only. Every saved
// document belongs to a policy, and every inline policy has its document.
func TestPoliciesMatchUpstream(t *testing.T) {
	for _, a := range All() {
		if a.Identity == nil {
			continue
		}
		docs := upstreamDocs(t, a.Name)
		used := map[string]bool{}
		for _, p := range a.Identity.Policies {
			if p.Inline == nil {
				continue
			}
			t.Run(a.Name+"@"+p.Versions, func(t *testing.T) {
				var match []upstreamDoc
				for _, d := range docs {
					if d.Covers == p.Versions {
						match = append(match, d)
					}
				}
				if len(match) != 1 {
					t.Fatalf("want one saved upstream document covering %q in testdata/upstream/%s, found %d", p.Versions, a.Name, len(match))
				}
				d := match[0]
				used[d.file] = true
				if !strings.Contains(p.Source, shortRef(d.Ref)) {
					t.Errorf("source %q does not name the document's version %s", p.Source, d.Ref)
				}
				want := normalizeUpstream(t, d, govCtx)
				got := normalize(t, p.Inline(govCtx))
				if len(want) != len(got) {
					t.Errorf("%s has %d statements, the policy %d", d.file, len(want), len(got))
				}
				for i := range min(len(want), len(got)) {
					if _, named := want[i]["Sid"]; !named {
						delete(got[i], "Sid") // a Sid is a label; ours may name what upstream leaves unnamed
					}
					if diff := cmp.Diff(want[i], got[i]); diff != "" {
						t.Errorf("statement %d differs from %s (-upstream +ours):\n%s", i, d.file, diff)
					}
				}
			})
		}
		for _, d := range docs {
			if !used[d.file] {
				t.Errorf("%s covers %q, which no policy of %s has", d.file, d.Covers, a.Name)
			}
		}
	}
}

// normalizeUpstream substitutes the document's placeholders, applies its narrowings and normalizes it.
func normalizeUpstream(t *testing.T, d upstreamDoc, c PolicyContext) []map[string]any {
	t.Helper()
	scalar, list := facts(c)
	// Placeholders longest first, so a placeholder that contains another is replaced whole.
	keys := slices.Collect(maps.Keys(d.Substitutions))
	slices.SortFunc(keys, func(a, b string) int { return len(b) - len(a) })
	unused := map[string]bool{}
	for _, k := range keys {
		unused[k] = true
	}
	replace := func(s string) []string {
		out := []string{s}
		for _, k := range keys {
			fact := d.Substitutions[k]
			one, isScalar := scalar[fact]
			many, isList := list[fact]
			if !isScalar && !isList {
				t.Fatalf("%s: substitution %q stands for %q, which is no documented fact", d.file, k, fact)
			}
			if isScalar {
				many = []string{one}
			}
			var next []string
			for _, e := range out {
				if !strings.Contains(e, k) {
					next = append(next, e)
					continue
				}
				delete(unused, k)
				for _, v := range many {
					next = append(next, strings.ReplaceAll(e, k, v))
				}
			}
			out = next
		}
		return out
	}
	var out []map[string]any
	for _, st := range d.Document.Statement {
		out = append(out, normalizeStatement(st, replace))
	}
	for _, n := range d.Narrowings {
		if n.Reason == "" || n.Statement >= len(out) {
			t.Fatalf("%s: a narrowing needs a reason and an existing statement: %+v", d.file, n)
		}
		cond, _ := out[n.Statement]["Condition"].(map[string]map[string][]string)
		if cond == nil {
			cond = map[string]map[string][]string{}
		}
		for op, kv := range n.Condition {
			if cond[op] == nil {
				cond[op] = map[string][]string{}
			}
			for k, v := range kv {
				cond[op][replace(k)[0]] = strs(v, replace)
			}
		}
		out[n.Statement]["Condition"] = cond
	}
	for k := range unused {
		t.Errorf("%s: substitution %q is never used", d.file, k)
	}
	return out
}

// normalize renders a policy of ours in the normal form of normalizeStatement.
func normalize(t *testing.T, doc iampolicy.Document) []map[string]any {
	t.Helper()
	var d struct{ Statement []map[string]any }
	if err := json.Unmarshal([]byte(doc.JSON()), &d); err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, st := range d.Statement {
		out = append(out, normalizeStatement(st, func(s string) []string { return []string{s} }))
	}
	return out
}

// normalizeStatement is a statement with every value a sorted list (IAM reads "x" as ["x"] and ignores the
// order of actions, resources and condition values), and Sid kept only where given.
func normalizeStatement(st map[string]any, replace func(string) []string) map[string]any {
	out := map[string]any{"Effect": st["Effect"]}
	if sid, _ := st["Sid"].(string); sid != "" {
		out["Sid"] = sid
	}
	for _, k := range []string{"Action", "NotAction", "Resource", "NotResource"} {
		if v, ok := st[k]; ok {
			out[k] = strs(v, replace)
		}
	}
	if cond, ok := st["Condition"].(map[string]any); ok {
		c := map[string]map[string][]string{}
		for op, kv := range cond {
			c[op] = map[string][]string{}
			for k, v := range kv.(map[string]any) {
				c[op][replace(k)[0]] = strs(v, replace)
			}
		}
		out["Condition"] = c
	}
	return out
}

// strs is a string or list of strings as a sorted list, each element substituted.
func strs(v any, replace func(string) []string) []string {
	var out []string
	switch v := v.(type) {
	case string:
		out = replace(v)
	case []any:
		for _, e := range v {
			out = append(out, replace(fmt.Sprint(e))...)
		}
	default:
		out = replace(fmt.Sprint(v))
	}
	slices.Sort(out)
	return out
}

// shortRef is a tag as it is, a commit by its first seven digits.
func shortRef(ref string) string {
	if len(ref) == 40 {
		return ref[:7]
	}
	return ref
}
