package aws

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// PodIdentityAgent is the offline EKS Pod Identity Agent of one cluster, for processes that run as a pod's service
// account outside a node (Argo CD's controllers on the offline hubs). The AWS SDKs find it as they find the real
// one, through AWS_CONTAINER_CREDENTIALS_FULL_URI (here http://127.0.0.1:<port>/v1/credentials, loopback being what
// the SDKs accept over http besides the agent's 169.254.170.23) and AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE (the
// pod's projected service-account token, audience pods.eks.amazonaws.com). Like the agent and EKS Auth's
// AssumeRoleForPodIdentity behind it (EKS User Guide, pod-id-how-it-works.html), it answers a GET with the
// credentials of the role the cluster's Pod Identity association gives the token's service account, assumed with
// the session tags Pod Identity sets, which the role's trust policy must allow (trustsPodIdentity).
type PodIdentityAgent struct {
	// STS issues the credentials.
	STS *STS
	// Region and Cluster are the EKS cluster the agent runs on.
	Region, Cluster string
	// Review is the namespace and name of the service account a token belongs to (the cluster's TokenReview, for
	// the audience pods.eks.amazonaws.com), or an error for a token the cluster does not accept.
	Review func(ctx context.Context, token string) (namespace, serviceAccount string, err error)
}

// PodIdentityAudience is the audience of the tokens the agent accepts (EKS User Guide, pod-id-how-it-works.html).
const PodIdentityAudience = "pods.eks.amazonaws.com"

func (a PodIdentityAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fail := func(code int, format string, args ...any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(map[string]string{"Message": fmt.Sprintf(format, args...)})
	}
	if r.Method != http.MethodGet || r.URL.Path != "/v1/credentials" {
		fail(http.StatusNotFound, "the agent serves GET /v1/credentials")
		return
	}
	ns, sa, err := a.Review(r.Context(), r.Header.Get("Authorization"))
	if err != nil {
		fail(http.StatusUnauthorized, "AccessDeniedException: the service account token is not valid: %v", err)
		return
	}
	creds, err := a.credentials(ns, sa)
	if err != nil {
		fail(http.StatusBadRequest, "%v", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"AccessKeyId": creds.AccessKeyID, "SecretAccessKey": creds.SecretAccessKey,
		"Token": creds.SessionToken, "AccountId": Account, "Expiration": time.Now().Add(SessionLifetime).UTC().Format(time.RFC3339)})
}

// credentials are those of the role associated with service account ns/sa on the agent's cluster.
func (a PodIdentityAgent) credentials(ns, sa string) (Credentials, error) {
	recs, err := a.STS.store.List()
	if err != nil {
		return Credentials{}, err
	}
	var clusterArn, roleArn string
	for _, r := range recs {
		if r.Scope != a.Region || (r.Type != EKSClusterType && r.Type != "aws:eks/podIdentityAssociation:PodIdentityAssociation") {
			continue
		}
		state, err := r.Plain()
		if err != nil {
			return Credentials{}, err
		}
		switch {
		case r.Type == EKSClusterType && state["name"] == a.Cluster:
			clusterArn, _ = state["arn"].(string)
		case r.Type != EKSClusterType && state["clusterName"] == a.Cluster && state["namespace"] == ns && state["serviceAccount"] == sa:
			roleArn, _ = state["roleArn"].(string)
		}
	}
	if roleArn == "" {
		return Credentials{}, fmt.Errorf("ResourceNotFoundException: no Pod Identity association on cluster %s for %s/%s", a.Cluster, ns, sa)
	}
	role, err := a.STS.role(roleArn)
	if err != nil {
		return Credentials{}, err
	}
	tags := map[string]string{"eks-cluster-arn": clusterArn, "eks-cluster-name": a.Cluster,
		"kubernetes-namespace": ns, "kubernetes-service-account": sa}
	if !trustsPodIdentity(role, tags) {
		return Credentials{}, fmt.Errorf("AccessDeniedException: the role %s does not trust %s to assume it with the "+
			"session tags %v (EKS User Guide, pod-id-role.html)", roleArn, PodIdentityAudience, tags)
	}
	session := "eks-" + a.Cluster + "-" + sa
	if len(session) > 64 {
		session = session[:64]
	}
	creds, _, err := a.STS.assume(role, session)
	return creds, err
}

// trustsPodIdentity tells whether role's trust policy lets EKS Pod Identity assume it with tags as session tags:
// an Allow statement for the pods.eks.amazonaws.com service with sts:AssumeRole and sts:TagSession whose
// conditions hold. Only StringEquals on aws:RequestTag/<key> is read (what iampolicy.PodIdentityTrust writes);
// any other condition fails closed.
func trustsPodIdentity(role map[string]any, tags map[string]string) bool {
	for _, st := range trustStatements(role) {
		actions := strs(st.Action)
		principal, _ := st.Principal.(map[string]any)
		if st.Effect != "Allow" || !slices.Contains(strs(principal["Service"]), PodIdentityAudience) ||
			!slices.Contains(actions, "sts:AssumeRole") || !slices.Contains(actions, "sts:TagSession") {
			continue
		}
		holds := true
		for op, kv := range st.Condition {
			for key, want := range kv {
				tag, ok := strings.CutPrefix(key, "aws:RequestTag/")
				if op != "StringEquals" || !ok || !slices.Contains(strs(want), tags[tag]) {
					holds = false
				}
			}
		}
		if holds {
			return true
		}
	}
	return false
}
