package aws

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/kms"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/network"
)

// TestKMS wraps and unwraps a data key through the offline KMS with the AWS SDK for Go v2's KMS client, which the
// Pulumi CLI's awskms:// secrets provider calls (through gocloud.dev's keeper): through the network to
// kms.us-east-1.amazonaws.com, signed with the deployer's stand-in credentials. The CLI itself uses it in every e2e
// test (offline.SecretsProvider).
func TestKMS(t *testing.T) {
	dir := t.TempDir()
	k, err := NewKMS(NewSTS(emulator.OpenStore(t.TempDir())), dir)
	if err != nil {
		t.Fatal(err)
	}
	httpClient := throughNetwork(t, k.Handler(network.Answer))
	client := func(creds awsv2.CredentialsProvider) *kms.Client {
		return kms.New(kms.Options{Region: "us-east-1", HTTPClient: httpClient, Credentials: creds, RetryMaxAttempts: 1})
	}
	deployer := credentials.NewStaticCredentialsProvider(DeployerAccessKeyID, DeployerSecretAccessKey, "")
	ctx := context.Background()
	encrypt := func(creds awsv2.CredentialsProvider, key string, plain []byte) ([]byte, error) {
		out, err := client(creds).Encrypt(ctx, &kms.EncryptInput{KeyId: awsv2.String(key), Plaintext: plain})
		if err != nil {
			return nil, err
		}
		return out.CiphertextBlob, nil
	}
	decrypt := func(creds awsv2.CredentialsProvider, key string, blob []byte) ([]byte, error) {
		in := &kms.DecryptInput{CiphertextBlob: blob}
		if key != "" {
			in.KeyId = awsv2.String(key)
		}
		out, err := client(creds).Decrypt(ctx, in)
		if err != nil {
			return nil, err
		}
		return out.Plaintext, nil
	}
	dataKey := []byte("0123456789abcdef0123456789abcdef")
	wrapped, err := encrypt(deployer, "alias/offline-fleet", dataKey)
	if err != nil {
		t.Fatalf("Encrypt: %v", err)
	}
	if bytes.Contains(wrapped, dataKey) {
		t.Fatal("the ciphertext holds the plaintext")
	}
	if got, err := decrypt(deployer, "", wrapped); err != nil || !bytes.Equal(got, dataKey) {
		t.Fatalf("Decrypt: %q, %v; want the data key", got, err)
	}
	// Another KMS in the same run's folder (the network started again) opens it too.
	again, err := NewKMS(NewSTS(emulator.OpenStore(t.TempDir())), dir)
	if err != nil {
		t.Fatal(err)
	}
	if arn, plain, err := again.open(wrapped); err != nil || !bytes.Equal(plain, dataKey) || arn != keyArn("alias/offline-fleet", "us-east-1") {
		t.Errorf("the run's key material again: %s %q %v", arn, plain, err)
	}

	tampered := bytes.Clone(wrapped)
	tampered[len(tampered)-1] ^= 1
	other, err := encrypt(deployer, "alias/another", dataKey)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		call    func() error
		wantErr string
	}{
		"a changed ciphertext": {wantErr: "InvalidCiphertextException",
			call: func() error { _, err := decrypt(deployer, "", tampered); return err }},
		"another key's ciphertext, named as this key": {wantErr: "was made under " + keyArn("alias/another", "us-east-1"),
			call: func() error { _, err := decrypt(deployer, "alias/offline-fleet", other); return err }},
		"a wrong secret": {wantErr: "SignatureDoesNotMatch",
			call: func() error {
				_, err := decrypt(credentials.NewStaticCredentialsProvider(DeployerAccessKeyID, "not-the-secret", ""), "", wrapped)
				return err
			}},
		"unsigned": {wantErr: "403",
			call: func() error {
				req, _ := http.NewRequest(http.MethodPost, "https://kms.us-east-1.amazonaws.com/", strings.NewReader(`{}`))
				req.Header.Set("X-Amz-Target", "TrentService.Decrypt")
				res, err := httpClient.Do(req)
				if err != nil {
					return err
				}
				res.Body.Close()
				return &statusError{res.Status}
			}},
		"another operation": {wantErr: "UnknownOperationException",
			call: func() error { _, err := client(deployer).ListKeys(ctx, &kms.ListKeysInput{}); return err }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("got %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

type statusError struct{ status string }

func (e *statusError) Error() string { return e.status }
