package main

import (
	"os"
	"os/exec"
	"testing"
)

// TestCLIGetSchema asks the real Pulumi CLI for the plugin's schema, as `pulumi package add` does. `make test`
// builds the CLI (`make cli`) and names it in PULUMI_FLEET_CLI; without it the test is skipped.
func TestCLIGetSchema(t *testing.T) {
	cli := os.Getenv("PULUMI_FLEET_CLI")
	if cli == "" {
		t.Skip("PULUMI_FLEET_CLI is not set; `make test` builds the CLI and sets it")
	}
	plugin := buildPlugin(t)
	cmd := exec.Command(cli, "package", "get-schema", plugin)
	cmd.Env = append(os.Environ(), "PULUMI_HOME="+t.TempDir(), "PULUMI_SKIP_UPDATE_CHECK=true")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pulumi package get-schema: %v", err)
	}
	checkCommittedSchema(t, out, "pulumi package get-schema")
}
