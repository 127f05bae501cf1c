// Package iampolicy renders IAM policy documents (IAM JSON policy reference) with deterministic text, for
// the roles every fleet component creates.
package iampolicy
