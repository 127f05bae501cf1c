// Command aws is the offline stand-in for the AWS CLI, first on PATH in offline runs. pulumi-eks checks
// `aws --version` before it builds a cluster, and every kubeconfig the fleet hands out runs `aws eks get-token`:
// that one is real, an EKS bearer token made by aws-iam-authenticator's token package (a presigned
// sts:GetCallerIdentity URL signing the cluster's name) from the run's stand-in credentials, which the offline
// clusters' API servers check (tests/controlplane). Anything else is refused: there is no AWS here.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/aws-iam-authenticator/pkg/token"
)

// Version is what `aws --version` prints: an AWS CLI v2 that pulumi-eks accepts.
const Version = "aws-cli/2.17.0 Python/3.11.9 Linux/x86_64 exe/x86_64.emulator"

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "offline emulator:", err)
		os.Exit(1)
	}
}

func run(args []string, out io.Writer) error {
	switch {
	case len(args) == 1 && args[0] == "--version":
		_, err := fmt.Fprintln(out, Version)
		return err
	case len(args) >= 2 && args[0] == "eks" && args[1] == "get-token":
		return getToken(args[2:], out)
	}
	return fmt.Errorf("'aws %v' is not available (no AWS here; only --version and eks get-token are)", args)
}

// getToken is `aws eks get-token --cluster-name NAME [--region R] [--output json]`: an ExecCredential (client.authentication.k8s.io/v1beta1) on out.
func getToken(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("aws eks get-token", flag.ContinueOnError)
	cluster := fs.String("cluster-name", "", "the EKS cluster's name")
	region := fs.String("region", os.Getenv("AWS_REGION"), "the region of the STS endpoint that signs")
	role := fs.String("role-arn", "", "a role to assume first")
	output := fs.String("output", "json", "json only")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *cluster == "":
		return errors.New("aws eks get-token: --cluster-name is required")
	case *role != "":
		return fmt.Errorf("aws eks get-token: --role-arn %s needs sts:AssumeRole, which the offline cloud does not answer", *role)
	case *output != "json":
		return fmt.Errorf("aws eks get-token: --output %s: only json", *output)
	}
	gen, err := token.NewGenerator(false, false)
	if err != nil {
		return err
	}
	tok, err := gen.GetWithOptions(context.Background(), &token.GetTokenOptions{ClusterID: *cluster, Region: *region})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, gen.FormatJSON(tok))
	return err
}
