// Package sdkgen generates the fleet SDKs from schema.json with Pulumi's codegen packages (Go, TypeScript,
// Python): what `pulumi package gen-sdk` runs inside language hosts that cannot be installed here.
package sdkgen
