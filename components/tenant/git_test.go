package tenant

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"sigs.k8s.io/yaml"
)

// TestFile: a cluster's file holds every namespace's Manifests in order, each a YAML document, with the IRSA
// role ARNs it was given.
func TestFile(t *testing.T) {
	a := payments()
	ids := map[string]Identities{"payments": {"ledger": "arn:aws:iam::111122223333:role/ledger"}}
	content, err := File(a, ids, true, "us-east-2")
	if err != nil {
		t.Fatal(err)
	}
	var want []map[string]any
	for _, n := range a.Namespaces {
		ms, err := Manifests(a, n, ids[n.Name], true, "us-east-2")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, ms...)
	}
	docs := strings.Split(strings.TrimPrefix(content, "---\n"), "\n---\n")
	if len(docs) != len(want) {
		t.Fatalf("%d documents, want %d:\n%s", len(docs), len(want), content)
	}
	for i, doc := range docs {
		var got map[string]any
		if err := yaml.Unmarshal([]byte(doc), &got); err != nil {
			t.Fatal(err)
		}
		w, _ := json.Marshal(want[i])
		var wantDoc map[string]any
		_ = json.Unmarshal(w, &wantDoc)
		if !reflect.DeepEqual(got, wantDoc) {
			t.Errorf("document %d:\n%v\nwant\n%v", i, got, wantDoc)
		}
	}
	if !strings.Contains(content, "eks.amazonaws.com/role-arn: arn:aws:iam::111122223333:role/ledger") {
		t.Errorf("ledger's role is not annotated:\n%s", content)
	}
}

func TestPlatformProjectAndSet(t *testing.T) {
	a := payments()
	target := gitopsbridge.GitHubTarget{Owner: "acme", Repository: "fleet-registry", Branch: "main"}
	project, _ := json.Marshal(PlatformProject(a, []string{"spoke-a"}, target.RepoURL(), "argocd"))
	set, _ := json.Marshal(PlatformApplicationSet(a, []string{"spoke-a", "spoke-b"}, target))
	for _, tc := range []struct {
		what, got, want string
	}{
		{"project name", string(project), `"name":"tenant-payments-platform","namespace":"argocd"`},
		{"project source", string(project), `"sourceRepos":["https://github.com/acme/fleet-registry.git"]`},
		{"project namespaces", string(project), `"clusterResourceWhitelist":[{"group":"","kind":"Namespace","name":"payments"},{"group":"","kind":"Namespace","name":"payments-batch"}]`},
		{"project kinds", string(project), `{"group":"networking.k8s.io","kind":"NetworkPolicy"},{"group":"","kind":"ServiceAccount"},{"group":"external-secrets.io","kind":"SecretStore"}]`},
		{"project destinations", string(project), `"destinations":[{"name":"spoke-a","namespace":"payments"},{"name":"spoke-a","namespace":"payments-batch"}]`},
		{"set clusters", string(set), `"values":["spoke-a","spoke-b"]`},
		{"set source", string(set), `"source":{"directory":{"include":"{{.name}}.yaml"},"path":"tenants/payments","repoURL":"https://github.com/acme/fleet-registry.git","targetRevision":"main"}`},
		{"set project", string(set), `"project":"tenant-payments-platform"`},
		{"set names", string(set), `"name":"payments-platform-{{.name}}"`},
	} {
		if !strings.Contains(tc.got, tc.want) {
			t.Errorf("%s: %s\nwant %s", tc.what, tc.got, tc.want)
		}
	}
	if strings.Contains(string(set), "fleet_decommission") {
		t.Errorf("the platform set leaves decommissioned clusters out; their namespaces would go: %s", set)
	}
	if FilePath("payments", "spoke-a") != "tenants/payments/spoke-a.yaml" {
		t.Errorf("FilePath %s", FilePath("payments", "spoke-a"))
	}
}
