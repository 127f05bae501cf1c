package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/blang/semver"
	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi-go-provider/integration"
)

// Schema is the provider's schema as the committed schema.json holds it: without the version (which changes
// with every build) and indented, with a final newline.
func Schema(ctx context.Context) ([]byte, error) {
	return VersionedSchema(ctx, "")
}

// VersionedSchema is Schema with version (a semantic version without "v", as a release tag names it) as the
// package version, which every SDK generator then writes into its package metadata (respectSchemaVersion);
// "" leaves the version out.
func VersionedSchema(ctx context.Context, version string) ([]byte, error) {
	prov, err := Provider()
	if err != nil {
		return nil, err
	}
	// A provider answers GetSchema inside a server, which gives it the run info the schema middleware reads.
	server, err := integration.NewServer(ctx, Name, semver.MustParse(DevVersion), integration.WithProvider(prov))
	if err != nil {
		return nil, err
	}
	resp, err := server.GetSchema(p.GetSchemaRequest{})
	if err != nil {
		return nil, fmt.Errorf("GetSchema: %w", err)
	}
	if version != "" {
		if _, err := semver.Parse(version); err != nil {
			return nil, fmt.Errorf("version %q: want a semantic version without the leading v, such as 1.2.3: %w",
				version, err)
		}
	}
	return normalize([]byte(resp.Schema), version)
}

// Normalize removes the version from a schema and indents it, so schemas from different builds compare equal.
func Normalize(schema []byte) ([]byte, error) {
	return normalize(schema, "")
}

// normalize is a schema indented, with version as its version ("": none).
func normalize(schema []byte, version string) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	delete(doc, "version")
	if version != "" {
		doc["version"] = version
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
