// Package sdkgen generates the fleet SDKs from schema.json with Pulumi's codegen packages (Go, TypeScript,
// Python) and pulumi-dotnet's (.NET): what `pulumi package gen-sdk` runs inside language hosts that cannot be
// installed here.
package sdkgen
