package provider

// languages are the per-language package settings of the SDKs: names and the Pulumi SDK each depends on.
func languages() map[string]any {
	return map[string]any{
		"go": map[string]any{
			"importBasePath":                 GoImportPath,
			"generateResourceContainerTypes": true,
			"respectSchemaVersion":           true,
		},
		"nodejs": map[string]any{
			"packageName":          "@gitops-fleet/fleet",
			"dependencies":         map[string]string{"@pulumi/pulumi": "^3.142.0"},
			"respectSchemaVersion": true,
		},
		"python": map[string]any{
			"packageName":          "pulumi_fleet",
			"requires":             map[string]string{"pulumi": ">=3.142.0,<4.0.0"},
			"pyproject":            map[string]any{"enabled": true},
			"respectSchemaVersion": true,
		},
		"csharp": map[string]any{
			"rootNamespace":        "GitOpsFleet",
			"packageReferences":    map[string]string{"Pulumi": "3.*"},
			"respectSchemaVersion": true,
		},
		// Java: no Gradle build (there is none on the build machines); fleet-javagen writes a Maven pom.xml.
		"java": map[string]any{
			"basePackage": "com.gitopsfleet",
			"buildFiles":  "none",
			"dependencies": map[string]string{
				"com.pulumi:pulumi": "1.20.0",
			},
		},
	}
}
