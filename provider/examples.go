package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gitops-fleet/pulumi-fleet/examples/api"
	p "github.com/pulumi/pulumi-go-provider"
)

// withExamples appends to each resource's and function's schema description its "Example Usage" block from
// examples/api (api.Section), so the schema the plugin serves (which `pulumi package add` generates an SDK
// from) and schema.json carry the same examples.
func withExamples(prov p.Provider) p.Provider {
	get := prov.GetSchema
	if get == nil {
		return prov
	}
	prov.GetSchema = func(ctx context.Context, req p.GetSchemaRequest) (p.GetSchemaResponse, error) {
		resp, err := get(ctx, req)
		if err != nil {
			return resp, err
		}
		resp.Schema, err = addExamples(resp.Schema)
		return resp, err
	}
	return prov
}

// addExamples is schema with the examples appended to the descriptions of its resources and functions.
func addExamples(schema string) (string, error) {
	var doc map[string]any
	if err := json.Unmarshal([]byte(schema), &doc); err != nil {
		return "", fmt.Errorf("schema is not JSON: %w", err)
	}
	for _, section := range []string{"resources", "functions"} {
		members, _ := doc[section].(map[string]any)
		for token, member := range members {
			m, ok := member.(map[string]any)
			if !ok {
				continue
			}
			examples, err := api.Section(token)
			if err != nil {
				return "", err
			}
			if examples == "" {
				continue
			}
			description, _ := m["description"].(string)
			m["description"] = description + "\n\n" + examples
		}
	}
	out, err := json.Marshal(doc)
	return string(out), err
}
