package contract

import (
	"bytes"
	"strings"
	"testing"
	"text/template"

	argov1alpha1 "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"sigs.k8s.io/yaml"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
)

// argocdNamespace is where Argo CD and the cluster secrets live on the hub.
const argocdNamespace = "argocd"

// appSetTemplate is an ApplicationSet in the shape of the control-plane template's addons-*-appset.yaml: a merge
// generator over a cluster generator that selects on the add-on's labels (and skips clusters labelled
// akuity.io/argo-cd-cluster-name: in-cluster) and two environment overlays, in the add-ons' namespace on the hub
// (the template's sets name none; the bootstrap Application syncs them there); an Application named
// addon-<cluster>-<chart> whose sources read addons_repo_* and whose Helm values and destination read every
// annotation of the row. [[ ]] delimits this template; {{ }} is Argo CD's.
var appSetTemplate = template.Must(template.New("appset").Delims("[[", "]]").Funcs(template.FuncMap{
	"ref": func(goTemplate bool, path string) string {
		if goTemplate {
			return "{{." + path + "}}"
		}
		return "{{" + path + "}}"
	},
}).Parse(`apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: [[.SetName]]
  namespace: argocd-addons
spec:
  goTemplate: [[.GoTemplate]]
  syncPolicy:
    preserveResourcesOnDeletion: true
  generators:
    - merge:
        mergeKeys: [server]
        generators:
          - clusters:
              values:
                addonChart: [[.Chart]]
                addonChartVersion: 1.0.0
                addonChartRepository: https://charts.example.com
              selector:
                matchExpressions:
                  - key: akuity.io/argo-cd-cluster-name
                    operator: NotIn
                    values: [in-cluster]
                  - key: [[.Label]]
                    operator: In
                    values: ['true']
[[- range .Requires]]
                  - key: [[.Key]]
                    operator: [[.Operator]]
[[- end]]
          - clusters:
              selector:
                matchLabels:
                  environment: staging
              values:
                addonChartVersion: 1.0.1
          - clusters:
              selector:
                matchLabels:
                  environment: prod
              values:
                addonChartVersion: 1.0.2
  template:
    metadata:
      name: 'addon-[[ref .GoTemplate "name"]]-[[ref .GoTemplate "values.addonChart"]]'
    spec:
      project: default
      sources:
        - repoURL: '[[ref .GoTemplate "metadata.annotations.addons_repo_url"]]'
          targetRevision: '[[ref .GoTemplate "metadata.annotations.addons_repo_revision"]]'
          ref: values
        - chart: '[[ref .GoTemplate "values.addonChart"]]'
          repoURL: '[[ref .GoTemplate "values.addonChartRepository"]]'
          targetRevision: '[[ref .GoTemplate "values.addonChartVersion"]]'
          helm:
            releaseName: '[[ref .GoTemplate "values.addonChart"]]'
            ignoreMissingValueFiles: true
            valueFiles:
              - $values/[[ref .GoTemplate "metadata.annotations.addons_repo_basepath"]]environments/[[ref .GoTemplate "metadata.labels.environment"]]/addons/[[ref .GoTemplate "values.addonChart"]]/values.yaml
            values: |
[[- range .Reads]]
              [[.]]: '[[ref $.GoTemplate (print "metadata.annotations." .)]]'
[[- end]]
[[- range .ReadsWithDefault]]
              [[.]]: '{{default "fallback" .metadata.annotations.[[.]]}}'
[[- end]]
      destination:
        namespace: '[[.Namespace]]'
        name: '[[ref .GoTemplate "name"]]'
`))

// appSetOf writes the ApplicationSet of one contract row.
func appSetOf(t *testing.T, a addons.Addon) argov1alpha1.ApplicationSet {
	t.Helper()
	namespace := a.Chart
	if a.Identity != nil {
		namespace = "{{metadata.annotations." + a.Identity.Prefix(a.Name) + addons.NamespaceSuffix + "}}"
		if a.GoTemplate {
			namespace = "{{.metadata.annotations." + a.Identity.Prefix(a.Name) + addons.NamespaceSuffix + "}}"
		}
	}
	var buf bytes.Buffer
	err := appSetTemplate.Execute(&buf, map[string]any{
		"SetName": strings.TrimSuffix(a.ApplicationSet[strings.LastIndex(a.ApplicationSet, "/")+1:], ".yaml"),
		"Chart":   a.Chart, "GoTemplate": a.GoTemplate, "Label": a.Label(), "Requires": a.Requires,
		"Reads": a.Reads, "ReadsWithDefault": a.ReadsWithDefault, "Namespace": namespace,
	})
	if err != nil {
		t.Fatal(err)
	}
	var set argov1alpha1.ApplicationSet
	if err := yaml.UnmarshalStrict(buf.Bytes(), &set); err != nil {
		t.Fatalf("ApplicationSet of %s: %v\n%s", a.Name, err, buf.String())
	}
	return set
}
