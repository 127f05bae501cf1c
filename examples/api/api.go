package api

import (
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"
)

//go:embed */index.ts */__main__.py */main.go */Program.cs */App.java */Pulumi.yaml
var files embed.FS

// Example is one scenario: the folder of its programs, the title the docs give it and the schema tokens
// (resources and functions) whose descriptions show it.
type Example struct {
	Dir    string
	Title  string
	Tokens []string
}

// Examples are the scenarios, in the order a resource's description lists them.
var Examples = []Example{
	{Dir: "cluster", Title: "One cluster with an add-on", Tokens: []string{"fleet:index:FleetCluster"}},
	{Dir: "fleet", Title: "A hub and a spoke in two regions", Tokens: []string{"fleet:index:Fleet"}},
	{Dir: "hubandspoke", Title: "A hub running Argo CD and a spoke registered into it",
		Tokens: []string{"fleet:index:FleetCluster", "fleet:index:GitOpsBridge"}},
	{Dir: "tenant", Title: "A team onboarded onto a spoke", Tokens: []string{"fleet:index:Tenant"}},
	{Dir: "stackdelivery", Title: "The fleet's stacks promoted from dev to prod",
		Tokens: []string{"fleet:index:StackDelivery"}},
	{Dir: "clusterdrain", Title: "A cluster drained before it is deleted",
		Tokens: []string{"fleet:index:ClusterDrain", "fleet:index:getStillTagged"}},
	{Dir: "tenantguard", Title: "A tenant's namespaces kept while they hold volumes",
		Tokens: []string{"fleet:index:TenantGuard"}},
	{Dir: "clusterledger", Title: "VPC CIDRs allocated and kept", Tokens: []string{"fleet:index:ClusterLedger"}},
	{Dir: "managedargocd", Title: "Argo CD as an EKS Capability on a hub",
		Tokens: []string{"fleet:index:ArgoCDCapability"}},
}

// Language is an SDK language: the code fence the Pulumi docs tooling names it by, and the file of each
// example in it.
type Language struct {
	Fence string
	File  string
}

// Languages are the languages of every example, in the order the Pulumi Registry shows them.
var Languages = []Language{
	{Fence: "typescript", File: "index.ts"},
	{Fence: "python", File: "__main__.py"},
	{Fence: "go", File: "main.go"},
	{Fence: "csharp", File: "Program.cs"},
	{Fence: "java", File: "App.java"},
	{Fence: "yaml", File: "Pulumi.yaml"},
}

// Source is the program of an example in a language.
func Source(dir string, lang Language) (string, error) {
	b, err := files.ReadFile(path.Join(dir, lang.File))
	if err != nil {
		return "", fmt.Errorf("example %s has no %s program: %w", dir, lang.Fence, err)
	}
	return string(b), nil
}

// Section is the "Example Usage" block of the schema description of token: `{{% examples %}}` holding one
// `{{% example %}}` per scenario that shows token, each a title and a code block per language. It is "" when
// no scenario shows token.
func Section(token string) (string, error) {
	var b strings.Builder
	for _, ex := range Examples {
		if !slices.Contains(ex.Tokens, token) {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("{{% examples %}}\n## Example Usage\n\n")
		}
		fmt.Fprintf(&b, "{{%% example %%}}\n### %s\n\n", ex.Title)
		for _, lang := range Languages {
			src, err := Source(ex.Dir, lang)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "```%s\n%s```\n\n", lang.Fence, src)
		}
		b.WriteString("{{% /example %}}\n")
	}
	if b.Len() == 0 {
		return "", nil
	}
	b.WriteString("{{% /examples %}}")
	return b.String(), nil
}
