package contract

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// templateRecord is testdata/template/<commit>.yaml: what the template's ApplicationSets install at a commit.
type templateRecord struct {
	Repository string `json:"repository"`
	Commit     string `json:"commit"`
	Addons     map[string]struct {
		ChartVersion string `json:"chartVersion"`
		AppVersion   string `json:"appVersion"`
		Source       string `json:"source"`
	} `json:"addons"`
}

// pinnedTemplate reads the record of the template commit the product pins (addons.TemplateRepository).
func pinnedTemplate(t *testing.T) templateRecord {
	t.Helper()
	repo, commit, _ := strings.Cut(addons.TemplateRepository, "@")
	b, err := os.ReadFile(filepath.Join("testdata", "template", commit+".yaml"))
	if err != nil {
		t.Fatalf("the product pins %s, whose chart versions are not recorded: record them in testdata/template/%s.yaml (%v)",
			addons.TemplateRepository, commit, err)
	}
	var rec templateRecord
	if err := yaml.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Repository != repo || rec.Commit != commit {
		t.Fatalf("testdata/template/%s.yaml records %s@%s", commit, rec.Repository, rec.Commit)
	}
	return rec
}

// TestTemplateVersionsHavePolicies: for every add-on with an AWS role, the chart version the pinned template's
// ApplicationSet installs ships an application version that is the default of addonVersions, and inside the
// range of the policy that default picks. Moving the pinned commit to charts no policy covers fails here.
func TestTemplateVersionsHavePolicies(t *testing.T) {
	rec := pinnedTemplate(t)
	for _, a := range addons.All() {
		if a.Identity == nil {
			continue
		}
		t.Run(a.Name, func(t *testing.T) {
			installed, ok := rec.Addons[a.Name]
			if !ok {
				t.Fatalf("no chart version recorded for %s (%s) at %s", a.Name, a.ApplicationSet, rec.Commit)
			}
			if installed.AppVersion == "" {
				// The EBS CSI driver: an EKS managed add-on at EKS's version, covered by its managed policy.
				if a.Version != "" || a.Identity.Ranges() != addons.AnyVersion {
					t.Errorf("%s records no application version, but the table's default is %q (%s)", a.Name, a.Version, a.Identity.Ranges())
				}
				return
			}
			app, err := addons.ParseVersion(installed.AppVersion)
			if err != nil {
				t.Fatalf("chart %s ships %q: %v", installed.ChartVersion, installed.AppVersion, err)
			}
			dflt, err := addons.ParseVersion(a.Version)
			if err != nil || !dflt.Equals(app) {
				t.Errorf("chart %s ships %s (%s), but the default of addonVersions is %q", installed.ChartVersion,
					installed.AppVersion, installed.Source, a.Version)
			}
			p, err := a.Identity.PolicyFor(a.Version)
			if err != nil {
				t.Fatalf("the default version picks no policy: %v", err)
			}
			if !p.Covers(app) {
				t.Errorf("chart %s ships %s, outside %s, the range of the policy the default picks (%s)",
					installed.ChartVersion, installed.AppVersion, p.Versions, p.Source)
			}
		})
	}
}

// chartVersionPattern finds the addonChartVersion values of an ApplicationSet.
var chartVersionPattern = regexp.MustCompile(`(?m)^\s*addonChartVersion:\s*'?([^'\s]+)'?\s*$`)

// TestTemplateRecordIsTheTemplate checks the record against the template's own files at the pinned commit:
// every recorded chart version is the one (each) of the ApplicationSet's generators pins. It needs a clone of
// the template: FLEET_TEMPLATE_GIT names its git directory.
func TestTemplateRecordIsTheTemplate(t *testing.T) {
	dir := os.Getenv("FLEET_TEMPLATE_GIT")
	if dir == "" {
		t.Skip("FLEET_TEMPLATE_GIT (a git directory of gitops-bridge-argocd-control-plane-template) is not set")
	}
	rec := pinnedTemplate(t)
	for name, installed := range rec.Addons {
		a, ok := addons.Lookup(name)
		if !ok {
			t.Errorf("%s is recorded but not in the catalogue", name)
			continue
		}
		out, err := exec.Command("git", "--git-dir", dir, "show",
			rec.Commit+":bootstrap/control-plane/addons/"+a.ApplicationSet).Output()
		if err != nil {
			t.Errorf("%s: %s at %s: %v", name, a.ApplicationSet, rec.Commit, err)
			continue
		}
		for _, m := range chartVersionPattern.FindAllStringSubmatch(string(out), -1) {
			if m[1] != installed.ChartVersion {
				t.Errorf("%s: %s pins chart %s, the record says %s", name, a.ApplicationSet, m[1], installed.ChartVersion)
			}
		}
	}
}
