// Package api holds the API examples of the fleet package: one program per scenario in every Pulumi language
// (TypeScript index.ts, Python __main__.py, Go main.go, C# Program.cs, Java App.java, Pulumi YAML
// Pulumi.yaml), each in its own folder. Section renders them as the `{{% examples %}}` block of a resource's or
// function's schema description, the form the Pulumi Registry and every SDK generator read (each SDK keeps the
// code blocks of its own language), so the examples in schema.json, the SDKs' doc comments and the docs are
// these files and nothing else.
//
// The files are checked as programs: `go vet ./...` compiles the Go ones, tests/sdk/check.sh type-checks the
// TypeScript ones with tsc, the Python ones with mypy and compiles the Java ones with javac against the generated
// SDKs, and TestYAMLExamples binds the YAML ones to the schema. No C# compiler runs on the build machines; the C#
// ones are checked for the SDK's type and property names only (TestCSharpExamples).
package api
