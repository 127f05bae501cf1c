package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

// TestGetToken: `aws eks get-token` prints an ExecCredential whose token EKS's checks accept (the form
// tests/emulator/aws checks); --version answers pulumi-eks; anything else is refused.
func TestGetToken(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAOFFLINECLOUD0000")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "offline-cloud-stand-in-not-a-credential")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	var out bytes.Buffer
	if err := run([]string{"eks", "get-token", "--cluster-name", "hub", "--output", "json"}, &out); err != nil {
		t.Fatal(err)
	}
	var cred struct {
		Kind, APIVersion string
		Status           struct{ Token string }
	}
	if err := json.Unmarshal(out.Bytes(), &cred); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if cred.Kind != "ExecCredential" || !strings.HasPrefix(cred.APIVersion, "client.authentication.k8s.io/") {
		t.Errorf("not an ExecCredential: %s", out.String())
	}
	if err := aws.CheckToken("Bearer " + cred.Status.Token); err != nil {
		t.Errorf("token refused: %v", err)
	}

	out.Reset()
	if err := run([]string{"--version"}, &out); err != nil || !strings.HasPrefix(out.String(), "aws-cli/2.") {
		t.Errorf("--version: %q %v", out.String(), err)
	}
	for _, args := range [][]string{{"s3", "ls"}, {"eks", "get-token"}, {"eks", "get-token", "--cluster-name", "hub", "--role-arn", "arn:aws:iam::111122223333:role/x"}} {
		if err := run(args, &out); err == nil {
			t.Errorf("aws %v was not refused", args)
		}
	}
}
