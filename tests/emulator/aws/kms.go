package aws

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// KMS is the offline AWS KMS: kms:Encrypt and kms:Decrypt (the JSON protocol, X-Amz-Target TrentService.*) with
// any key ID, alias or ARN, for callers whose SigV4 signature the offline STS accepts (signerOf). It is the
// secrets provider of the offline stacks (awskms://alias/<name>, KeyURL): the Pulumi CLI wraps each stack's data
// key with Encrypt when the stack is made and unwraps it with one Decrypt per run, where the passphrase provider
// derives its key with PBKDF2 at 1,000,000 iterations in every run (0.2 CPU-seconds each on the 2-core machine).
// Ciphertexts are AES-256-GCM under key material of the run's own (a file in its directory, made on first use), and
// name their key: a ciphertext made under one key does not decrypt under another, as in KMS.
type KMS struct {
	sts      *STS
	material []byte
}

// KeyURL is the Pulumi secrets provider URL of the offline KMS key alias/<alias> in region.
func KeyURL(alias, region string) string { return "awskms://alias/" + alias + "?region=" + region }

// NewKMS is the offline KMS whose callers sts knows, its key material in dir/kms-key-material (made on first use).
func NewKMS(sts *STS, dir string) (*KMS, error) {
	file := filepath.Join(dir, "kms-key-material")
	material, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		material = make([]byte, 32)
		if _, err := rand.Read(material); err != nil {
			return nil, err
		}
		err = os.WriteFile(file, material, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("the offline KMS's key material: %w", err)
	}
	if len(material) != 32 {
		return nil, fmt.Errorf("the offline KMS's key material %s: %d bytes, want 32", file, len(material))
	}
	return &KMS{sts: sts, material: material}, nil
}

// Handler serves KMS's hosts (kms.<region>.amazonaws.com) and hands every other request to next.
func (k *KMS) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := emulator.Host(r)
		if !strings.HasPrefix(host, "kms.") || !strings.HasSuffix(host, ".amazonaws.com") {
			next.ServeHTTP(w, r)
			return
		}
		region := strings.TrimSuffix(strings.TrimPrefix(host, "kms."), ".amazonaws.com")
		body, err := io.ReadAll(r.Body)
		if err != nil {
			kmsError(w, http.StatusBadRequest, "SerializationException", err.Error())
			return
		}
		if _, code, err := k.sts.signerOf("kms", r, body); err != nil {
			kmsError(w, code, "AccessDeniedException", err.Error())
			return
		}
		var in struct {
			KeyId                     string
			Plaintext, CiphertextBlob []byte // base64 in the JSON, as encoding/json reads []byte
		}
		if err := json.Unmarshal(body, &in); err != nil {
			kmsError(w, http.StatusBadRequest, "SerializationException", err.Error())
			return
		}
		switch op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "TrentService."); op {
		case "Encrypt":
			arn := keyArn(in.KeyId, region)
			blob, err := k.seal(arn, in.Plaintext)
			if err != nil {
				kmsError(w, http.StatusBadRequest, "ValidationException", err.Error())
				return
			}
			kmsAnswer(w, map[string]any{"CiphertextBlob": blob, "KeyId": arn, "EncryptionAlgorithm": "SYMMETRIC_DEFAULT"})
		case "Decrypt":
			arn, plain, err := k.open(in.CiphertextBlob)
			if err == nil && in.KeyId != "" && keyArn(in.KeyId, region) != arn {
				err = fmt.Errorf("the ciphertext was made under %s, not %s", arn, in.KeyId)
			}
			if err != nil {
				kmsError(w, http.StatusBadRequest, "InvalidCiphertextException", err.Error())
				return
			}
			kmsAnswer(w, map[string]any{"Plaintext": plain, "KeyId": arn, "EncryptionAlgorithm": "SYMMETRIC_DEFAULT"})
		default:
			kmsError(w, http.StatusBadRequest, "UnknownOperationException",
				fmt.Sprintf("the offline KMS serves Encrypt and Decrypt only, not %q", op))
		}
	})
}

// keyArn is the ARN of the key id names in region: an ARN as it is, an alias (alias/<name>) or key ID as the key
// arn:aws:kms:<region>:<account>:key/<UUID made from the name>.
func keyArn(id, region string) string {
	if strings.HasPrefix(id, "arn:") {
		return id
	}
	h := sha256.Sum256([]byte(id))
	return fmt.Sprintf("arn:aws:kms:%s:%s:key/%x-%x-%x-%x-%x", region, Account, h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// seal is the ciphertext of plain under arn: the key's ARN, a zero
// byte, a nonce and AES-GCM's sealed box with the ARN as additional data.
func (k *KMS) seal(arn string, plain []byte) ([]byte, error) {
	if len(plain) == 0 || len(plain) > 4096 {
		return nil, fmt.Errorf("plaintext: %d bytes, want 1 to 4096", len(plain))
	}
	aead, err := k.aead()
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	out := append(append([]byte(arn), 0), nonce...)
	return aead.Seal(out, nonce, plain, []byte(arn)), nil
}

// open is the key ARN and plaintext of a ciphertext seal made.
func (k *KMS) open(blob []byte) (string, []byte, error) {
	arn, rest, ok := bytes.Cut(blob, []byte{0})
	aead, err := k.aead()
	if err != nil {
		return "", nil, err
	}
	if !ok || len(rest) < aead.NonceSize() {
		return "", nil, errors.New("not a ciphertext of this KMS")
	}
	plain, err := aead.Open(nil, rest[:aead.NonceSize()], rest[aead.NonceSize():], arn)
	if err != nil {
		return "", nil, errors.New("not a ciphertext of this KMS")
	}
	return string(arn), plain, nil
}

func (k *KMS) aead() (cipher.AEAD, error) {
	block, err := aes.NewCipher(k.material)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// kmsAnswer writes a JSON 1.1 protocol answer.
func kmsAnswer(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	_ = json.NewEncoder(w).Encode(v)
}

// kmsError writes a JSON 1.1 protocol error: its type and message.
func kmsError(w http.ResponseWriter, code int, kind, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": kind, "message": msg})
}
