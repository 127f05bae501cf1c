package aws

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	awsv2 "github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// The deployer's stand-in credentials: every plugin of an offline run signs with them, and the offline STS knows
// them as DeployerARN. They protect nothing.
const (
	DeployerAccessKeyID     = "AKIAOFFLINECLOUD0000"
	DeployerSecretAccessKey = "offline-cloud-stand-in-not-a-credential"
	deployerUserID          = "AIDAEMULATOR00000000"
)

// DeployerARN is the IAM user the deployer's credentials belong to (what aws:getCallerIdentity answers).
func DeployerARN() string { return fmt.Sprintf("arn:aws:iam::%s:user/fleet-emulator", Account) }

// Credentials are an identity's AWS credentials; SessionToken is set for an assumed role's.
type Credentials struct {
	AccessKeyID, SecretAccessKey, SessionToken string
}

// credentials are c as the AWS SDK for Go v2's SigV4 signer takes them, to sign a caller's request again.
func (c Credentials) credentials() awsv2.Credentials {
	return awsv2.Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, SessionToken: c.SessionToken}
}

// payloadHash is the SHA-256 of body in hex, the payload a SigV4 signature signs (a GET's is the empty body's).
func payloadHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// TokenLifetime is how long STS answers a presigned sts:GetCallerIdentity (an EKS token) after it was signed.
const TokenLifetime = 15 * time.Minute

// identity is who a set of credentials is, as sts:GetCallerIdentity answers.
type identity struct {
	Credentials
	arn, userID string
	roleArn     string // the role a session is of; "" for a user
}

// STS is the offline STS: sts:GetCallerIdentity, the call an EKS token presigns, for the deployer and the roles
// assumed through AssumeRole, and sts:AssumeRole over HTTP as its trust policies allow (assumeRoleHTTP). A request's SigV4 signature is checked against the caller's secret, as STS does, so
// a token names the cluster it was made for (the x-k8s-aws-id header it signed) and no other.
type STS struct {
	store *emulator.Store

	mu         sync.Mutex
	identities map[string]identity // access key ID -> identity
}

// NewSTS is the offline STS of the cloud in store, knowing the deployer.
func NewSTS(store *emulator.Store) *STS {
	return &STS{store: store, identities: map[string]identity{DeployerAccessKeyID: {
		Credentials: Credentials{AccessKeyID: DeployerAccessKeyID, SecretAccessKey: DeployerSecretAccessKey},
		arn:         DeployerARN(), userID: deployerUserID,
	}}}
}

// AssumeRole is sts:AssumeRole of role roleArn (an IAM role in the store) with session name session: credentials
// that sts:GetCallerIdentity answers as arn:aws:sts::<account>:assumed-role/<role name>/<session>. Who may assume
// the role (its trust policy) is not checked.
func (s *STS) AssumeRole(roleArn, session string) (Credentials, error) {
	role, err := s.role(roleArn)
	if err != nil {
		return Credentials{}, err
	}
	creds, _, err := s.assume(role, session)
	return creds, err
}

// assume makes a session of role (its state in the store) named session: new credentials, known from now on as
// arn:aws:sts::<account>:assumed-role/<role name>/<session>.
func (s *STS) assume(role map[string]any, session string) (Credentials, identity, error) {
	roleArn, _ := role["arn"].(string)
	creds := Credentials{AccessKeyID: "ASIA" + strings.ToUpper(emulator.RandomHex(8)), SecretAccessKey: emulator.RandomHex(20),
		SessionToken: emulator.RandomHex(32)}
	id := identity{Credentials: creds, roleArn: roleArn,
		arn:    fmt.Sprintf("arn:aws:sts::%s:assumed-role/%s/%s", Account, path.Base(roleArn), session),
		userID: fmt.Sprintf("%v:%s", role["uniqueId"], session)}
	s.mu.Lock()
	s.identities[creds.AccessKeyID] = id
	s.mu.Unlock()
	return creds, id, nil
}

// Handler serves STS's hosts (sts.amazonaws.com, sts.<region>.amazonaws.com) and hands every other request to
// next.
func (s *STS) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := emulator.Host(r)
		if host != "sts.amazonaws.com" && !(strings.HasPrefix(host, "sts.") && strings.HasSuffix(host, ".amazonaws.com")) {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method == http.MethodPost {
			body, form, err := readForm(r)
			if err != nil {
				stsError(w, r, http.StatusBadRequest, fmt.Errorf("MalformedInput: %v", err))
				return
			}
			switch form.Get("Action") {
			case "AssumeRole":
				s.assumeRoleHTTP(w, r, body, form)
			case "GetCallerIdentity":
				id, code, err := s.signer(r, body)
				if err != nil {
					stsError(w, r, code, err)
					return
				}
				answerCaller(w, r, id)
			default:
				stsError(w, r, http.StatusBadRequest, fmt.Errorf("InvalidAction: the offline STS serves AssumeRole and GetCallerIdentity only"))
			}
			return
		}
		id, code, err := s.caller(r)
		if err != nil {
			stsError(w, r, code, err)
			return
		}
		if r.URL.Query().Get("Action") != "GetCallerIdentity" {
			stsError(w, r, http.StatusBadRequest, fmt.Errorf("InvalidAction: the offline STS serves GetCallerIdentity only"))
			return
		}
		answerCaller(w, r, id)
	})
}

// answerCaller answers sts:GetCallerIdentity for id, in JSON when the request accepts it (aws-iam-authenticator
// asks so), in STS's XML otherwise.
func answerCaller(w http.ResponseWriter, r *http.Request, id identity) {
	result := getCallerIdentityResult{Account: Account, Arn: id.arn, UserID: id.userID}
	if strings.Contains(r.Header.Get("Accept"), "json") {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"GetCallerIdentityResponse": map[string]any{
			"GetCallerIdentityResult": result, "ResponseMetadata": map[string]string{"RequestId": emulator.UUID()}}})
		return
	}
	w.Header().Set("Content-Type", "text/xml")
	_ = xml.NewEncoder(w).Encode(struct {
		XMLName xml.Name                `xml:"https://sts.amazonaws.com/doc/2011-06-15/ GetCallerIdentityResponse"`
		Result  getCallerIdentityResult `xml:"GetCallerIdentityResult"`
	}{Result: result})
}

type getCallerIdentityResult struct {
	Account string `json:"Account" xml:"Account"`
	Arn     string `json:"Arn" xml:"Arn"`
	UserID  string `json:"UserId" xml:"UserId"`
}

// caller is the identity whose credentials presigned r (a GET with SigV4 in its query, as EKS tokens are): the
// signature is made again from the request with the caller's secret, over the headers it says it signed, and must
// match; the signing time must be within TokenLifetime.
func (s *STS) caller(r *http.Request) (identity, int, error) {
	q := r.URL.Query()
	cred := strings.Split(q.Get("X-Amz-Credential"), "/") // AKID/date/region/sts/aws4_request
	if len(cred) != 5 || cred[3] != "sts" || q.Get("X-Amz-Signature") == "" {
		return identity{}, http.StatusForbidden, fmt.Errorf("MissingAuthenticationToken: the request is not presigned with SigV4 for sts")
	}
	id, err := s.known(cred[0], q.Get("X-Amz-Security-Token"))
	if err != nil {
		return identity{}, http.StatusForbidden, err
	}
	signed, err := time.Parse("20060102T150405Z", q.Get("X-Amz-Date"))
	if err != nil {
		return identity{}, http.StatusForbidden, fmt.Errorf("IncompleteSignature: X-Amz-Date: %v", err)
	}
	if _, err := strconv.Atoi(q.Get("X-Amz-Expires")); err != nil {
		return identity{}, http.StatusForbidden, fmt.Errorf("IncompleteSignature: X-Amz-Expires: %v", err)
	}
	// EKS tokens presign for 60 seconds, yet live 15 minutes (EKS's documentation; STS does not hold
	// GetCallerIdentity to X-Amz-Expires): a request older than that is refused.
	if time.Since(signed) > TokenLifetime {
		return identity{}, http.StatusForbidden, fmt.Errorf("ExpiredToken: the request signed at %s has expired", signed)
	}
	// The request as its caller signed it: the same URL without the signature, and the headers it signed.
	unsigned := url.Values{}
	for k, v := range q {
		if k != "X-Amz-Signature" {
			unsigned[k] = v
		}
	}
	u := *r.URL
	u.Scheme, u.Host, u.RawQuery = "https", r.Host, unsigned.Encode()
	again, err := http.NewRequest(r.Method, u.String(), nil)
	if err != nil {
		return identity{}, http.StatusBadRequest, err
	}
	for _, h := range strings.Split(q.Get("X-Amz-SignedHeaders"), ";") {
		if h != "host" {
			again.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	// The presigned URL keeps X-Amz-Expires, which the signer reads from it; a GET signs the empty payload.
	uri, _, err := v4.NewSigner().PresignHTTP(r.Context(), id.credentials(), again, payloadHash(nil), "sts", cred[2], signed)
	if err != nil {
		return identity{}, http.StatusInternalServerError, err
	}
	mine, err := url.Parse(uri)
	if err != nil {
		return identity{}, http.StatusInternalServerError, err
	}
	if mine.Query().Get("X-Amz-Signature") != q.Get("X-Amz-Signature") {
		return identity{}, http.StatusForbidden, fmt.Errorf("SignatureDoesNotMatch: the request signature we calculated does not match the signature you provided")
	}
	return id, http.StatusOK, nil
}

// known is the identity of access key akid, presented with sessionToken (which a role's session must match).
func (s *STS) known(akid, sessionToken string) (identity, error) {
	s.mu.Lock()
	id, ok := s.identities[akid]
	s.mu.Unlock()
	if !ok {
		return identity{}, fmt.Errorf("InvalidClientTokenId: the security token included in the request is invalid")
	}
	if id.SessionToken != "" && sessionToken != id.SessionToken {
		return identity{}, fmt.Errorf("InvalidClientTokenId: the session token does not match")
	}
	return id, nil
}

func stsError(w http.ResponseWriter, r *http.Request, code int, err error) {
	errCode, msg, _ := strings.Cut(err.Error(), ": ")
	if strings.Contains(r.Header.Get("Accept"), "json") {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(map[string]any{"Error": map[string]string{"Code": errCode, "Message": msg}})
		return
	}
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(code)
	_ = xml.NewEncoder(w).Encode(struct {
		XMLName xml.Name `xml:"ErrorResponse"`
		Code    string   `xml:"Error>Code"`
		Message string   `xml:"Error>Message"`
	}{Code: errCode, Message: msg})
}
