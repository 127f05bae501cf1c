package aws

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// SessionLifetime is how long the credentials of an assumed role last (sts:AssumeRole's default DurationSeconds).
const SessionLifetime = time.Hour

// assumeRoleHTTP answers sts:AssumeRole, a POST whose form names the role (RoleArn, RoleSessionName) signed with
// SigV4 in the Authorization header, as the AWS SDKs send it (argocd-k8s-auth's stscreds.AssumeRoleProvider): the
// signature is checked against the caller's secret, and the role's trust policy must allow the caller (trusts).
// The caller's own identity policies are not read.
func (s *STS) assumeRoleHTTP(w http.ResponseWriter, r *http.Request, body []byte, form url.Values) {
	caller, code, err := s.signer(r, body)
	if err != nil {
		stsError(w, r, code, err)
		return
	}
	roleArn, session := form.Get("RoleArn"), form.Get("RoleSessionName")
	role, err := s.role(roleArn)
	if err != nil {
		stsError(w, r, http.StatusForbidden, fmt.Errorf("AccessDenied: User: %s is not authorized to perform: "+
			"sts:AssumeRole on resource: %s (%v)", caller.arn, roleArn, err))
		return
	}
	if !trusts(role, caller) {
		stsError(w, r, http.StatusForbidden, fmt.Errorf("AccessDenied: User: %s is not authorized to perform: "+
			"sts:AssumeRole on resource: %s", caller.arn, roleArn))
		return
	}
	creds, id, err := s.assume(role, session)
	if err != nil {
		stsError(w, r, http.StatusInternalServerError, err)
		return
	}
	type credentialsXML struct {
		AccessKeyID     string `xml:"AccessKeyId"`
		SecretAccessKey string `xml:"SecretAccessKey"`
		SessionToken    string `xml:"SessionToken"`
		Expiration      string `xml:"Expiration"`
	}
	w.Header().Set("Content-Type", "text/xml")
	_ = xml.NewEncoder(w).Encode(struct {
		XMLName     xml.Name       `xml:"https://sts.amazonaws.com/doc/2011-06-15/ AssumeRoleResponse"`
		Credentials credentialsXML `xml:"AssumeRoleResult>Credentials"`
		Arn         string         `xml:"AssumeRoleResult>AssumedRoleUser>Arn"`
		RoleID      string         `xml:"AssumeRoleResult>AssumedRoleUser>AssumedRoleId"`
		RequestID   string         `xml:"ResponseMetadata>RequestId"`
	}{
		Credentials: credentialsXML{AccessKeyID: creds.AccessKeyID, SecretAccessKey: creds.SecretAccessKey,
			SessionToken: creds.SessionToken, Expiration: time.Now().Add(SessionLifetime).UTC().Format(time.RFC3339)},
		Arn: id.arn, RoleID: id.userID, RequestID: emulator.UUID(),
	})
}

// signer is the identity whose credentials signed r (SigV4 in its Authorization header, over body): the request is
// signed again with the caller's secret over the headers it says it signed, at the time it says, and the
// signatures must match.
func (s *STS) signer(r *http.Request, body []byte) (identity, int, error) {
	return s.signerOf("sts", r, body)
}

// signerOf is who signed r (with body) for service (its SigV4 credential scope names it), as signer says.
func (s *STS) signerOf(service string, r *http.Request, body []byte) (identity, int, error) {
	fields := map[string]string{}
	scheme, params, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	for _, p := range strings.Split(params, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		fields[k] = v
	}
	cred := strings.Split(fields["Credential"], "/") // AKID/date/region/<service>/aws4_request
	if scheme != "AWS4-HMAC-SHA256" || len(cred) != 5 || cred[3] != service || fields["Signature"] == "" {
		return identity{}, http.StatusForbidden, fmt.Errorf("MissingAuthenticationToken: the request is not signed with SigV4 for %s", service)
	}
	id, err := s.known(cred[0], r.Header.Get("X-Amz-Security-Token"))
	if err != nil {
		return identity{}, http.StatusForbidden, err
	}
	signed, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return identity{}, http.StatusForbidden, fmt.Errorf("IncompleteSignature: X-Amz-Date: %v", err)
	}
	if d := time.Since(signed); d > 5*time.Minute || d < -5*time.Minute {
		return identity{}, http.StatusForbidden, fmt.Errorf("SignatureDoesNotMatch: Signature expired: %s is not within five minutes of now", signed)
	}
	u := *r.URL
	u.Scheme, u.Host = "https", r.Host
	again, err := http.NewRequest(r.Method, u.String(), bytes.NewReader(body))
	if err != nil {
		return identity{}, http.StatusBadRequest, err
	}
	for _, h := range strings.Split(fields["SignedHeaders"], ";") {
		switch h {
		case "host":
		case "content-length": // Go's server keeps it out of the headers
			again.Header.Set("Content-Length", strconv.Itoa(len(body)))
		default:
			again.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	again.Header.Del("X-Amz-Date") // the signer sets it from signed
	if err := v4.NewSigner().SignHTTP(r.Context(), id.credentials(), again, payloadHash(body), service, cred[2],
		signed); err != nil {
		return identity{}, http.StatusInternalServerError, err
	}
	_, mine, _ := strings.Cut(again.Header.Get("Authorization"), "Signature=")
	if mine != fields["Signature"] {
		return identity{}, http.StatusForbidden, fmt.Errorf("SignatureDoesNotMatch: the request signature we calculated does not match the signature you provided")
	}
	return id, http.StatusOK, nil
}

// role is the state of the IAM role roleArn in the store.
func (s *STS) role(roleArn string) (map[string]any, error) {
	recs, err := s.store.List()
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.Type != "aws:iam/role:Role" {
			continue
		}
		state, err := r.Plain()
		if err != nil {
			return nil, err
		}
		if state["arn"] == roleArn {
			return state, nil
		}
	}
	return nil, fmt.Errorf("NoSuchEntity: the role %s does not exist", roleArn)
}

// trusts tells whether role's trust policy (assumeRolePolicy) lets caller call sts:AssumeRole: an Allow statement
// with that action (or sts:*) whose AWS principal names the caller (its IAM user, or the role its session is of),
// its account (the account ID or arn:aws:iam::<account>:root) or "*". Deny statements and conditions are not read:
// the fleet writes neither into the trust of a role assumed this way (fleetcluster.SpokeTrustPolicy).
func trusts(role map[string]any, caller identity) bool {
	names := []string{"*", Account, "arn:aws:iam::" + Account + ":root", caller.arn}
	if caller.roleArn != "" {
		names = append(names, caller.roleArn)
	}
	for _, st := range trustStatements(role) {
		if st.Effect != "Allow" || !slices.ContainsFunc(strs(st.Action), func(a string) bool { return a == "sts:AssumeRole" || a == "sts:*" }) {
			continue
		}
		if st.Principal == "*" {
			return true
		}
		p, _ := st.Principal.(map[string]any)
		if slices.ContainsFunc(strs(p["AWS"]), func(a string) bool { return slices.Contains(names, a) }) {
			return true
		}
	}
	return false
}

// trustStatement is a statement of a role's trust policy; Principal is "*" or a map of principal kinds to one
// name or a list of them.
type trustStatement struct {
	Effect    string
	Action    any
	Principal any
	Condition map[string]map[string]any
}

// trustStatements are the statements of role's trust policy (its assumeRolePolicy), none if it does not parse.
func trustStatements(role map[string]any) []trustStatement {
	var doc struct{ Statement []trustStatement }
	text, _ := role["assumeRolePolicy"].(string)
	if json.Unmarshal([]byte(text), &doc) != nil {
		return nil
	}
	return doc.Statement
}

// strs is a policy element that is one string or a list of them, as a list.
func strs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// readForm reads a POST's body and its form (sts:AssumeRole and every STS action the SDKs send as a form).
func readForm(r *http.Request) ([]byte, url.Values, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, nil, err
	}
	form, err := url.ParseQuery(string(body))
	return body, form, err
}
