package provider

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/examples/api"
	"github.com/pulumi/pulumi/pkg/v3/codegen"
	pschema "github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// TestEveryMemberHasExamples: every resource and function of the committed schema has an "Example Usage" block
// with a code block in each language, and each SDK generator's filter (codegen.FilterExamples, which the Go,
// Node.js, Python and .NET generators call) leaves that language's program, exactly as its file holds it, and no
// other language's.
func TestEveryMemberHasExamples(t *testing.T) {
	var spec pschema.PackageSpec
	if err := json.Unmarshal(committedSchema(t), &spec); err != nil {
		t.Fatal(err)
	}
	descriptions := map[string]string{}
	for token, r := range spec.Resources {
		descriptions[token] = r.Description
	}
	for token, f := range spec.Functions {
		descriptions[token] = f.Description
	}
	for token, description := range descriptions {
		t.Run(token, func(t *testing.T) {
			if !strings.Contains(description, "{{% examples %}}\n## Example Usage") {
				t.Fatalf("no Example Usage block in the description:\n%s", description)
			}
			overview, _, _ := strings.Cut(description, "{{% examples %}}")
			if len(strings.TrimSpace(overview)) < 100 {
				t.Errorf("overview too short (%d characters): %q", len(strings.TrimSpace(overview)), overview)
			}
			for _, ex := range api.Examples {
				if !slices.Contains(ex.Tokens, token) {
					continue
				}
				for _, lang := range api.Languages {
					src, err := api.Source(ex.Dir, lang)
					if err != nil {
						t.Fatal(err)
					}
					filtered := codegen.FilterExamples(description, lang.Fence)
					if !strings.Contains(filtered, fmt.Sprintf("```%s\n%s```", lang.Fence, src)) {
						t.Errorf("%s: the %s filter does not keep %s/%s", ex.Dir, lang.Fence, ex.Dir, lang.File)
					}
					for _, other := range api.Languages {
						if other != lang && strings.Contains(filtered, "```"+other.Fence+"\n") {
							t.Errorf("%s: the %s filter keeps %s code", ex.Dir, lang.Fence, other.Fence)
						}
					}
				}
			}
		})
	}
	for _, ex := range api.Examples {
		for _, token := range ex.Tokens {
			if _, ok := descriptions[token]; !ok {
				t.Errorf("example %s shows %s, which the schema has no resource or function for", ex.Dir, token)
			}
		}
	}
}
