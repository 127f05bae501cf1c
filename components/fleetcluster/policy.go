package fleetcluster

import (
	"encoding/json"
	"strings"
)

// PolicyDocument is an IAM policy document (IAM JSON policy reference). Marshalled with encoding/json its
// text is deterministic: fields in declaration order, map keys sorted.
type PolicyDocument struct {
	Version   string      `json:"Version"`
	Statement []Statement `json:"Statement"`
}

// Statement is one statement of a PolicyDocument.
type Statement struct {
	Sid       string                    `json:"Sid,omitempty"`
	Effect    string                    `json:"Effect"`
	Principal map[string]string         `json:"Principal,omitempty"`
	Action    []string                  `json:"Action"`
	Resource  []string                  `json:"Resource,omitempty"`
	Condition map[string]map[string]any `json:"Condition,omitempty"`
}

// JSON renders the document.
func (d PolicyDocument) JSON() string {
	b, err := json.Marshal(d)
	if err != nil {
		// Only strings, slices and maps of them: marshalling cannot fail.
		panic(err)
	}
	return string(b)
}

func policy(statements ...Statement) PolicyDocument {
	return PolicyDocument{Version: "2012-10-17", Statement: statements}
}

func allow(sid string, actions, resources []string) Statement {
	return Statement{Sid: sid, Effect: "Allow", Action: actions, Resource: resources}
}

func (s Statement) when(operator, key string, value any) Statement {
	if s.Condition == nil {
		s.Condition = map[string]map[string]any{}
	}
	if s.Condition[operator] == nil {
		s.Condition[operator] = map[string]any{}
	}
	s.Condition[operator][key] = value
	return s
}

// NodeTrustPolicy lets EC2 instances assume the node role.
func NodeTrustPolicy() PolicyDocument {
	return policy(Statement{
		Effect:    "Allow",
		Principal: map[string]string{"Service": "ec2.amazonaws.com"},
		Action:    []string{"sts:AssumeRole"},
	})
}

// SpokeTrustPolicy lets the Argo CD hub's management role assume a spoke role. sts:TagSession lets the hub
// pass session tags (EKS Pod Identity always tags sessions).
func SpokeTrustPolicy(hubRoleArn string) PolicyDocument {
	return policy(Statement{
		Effect:    "Allow",
		Principal: map[string]string{"AWS": hubRoleArn},
		Action:    []string{"sts:AssumeRole", "sts:TagSession"},
	})
}

// IRSATrustPolicy lets one Kubernetes service account assume a role through the cluster's OIDC provider
// (EKS IAM roles for service accounts): the token's `sub` must name the service account and its `aud` must be
// STS. issuerURL may carry the https:// scheme; the condition keys use the issuer without it.
func IRSATrustPolicy(oidcProviderArn, issuerURL, namespace, serviceAccount string) PolicyDocument {
	issuer := strings.TrimPrefix(issuerURL, "https://")
	return policy(Statement{
		Effect:    "Allow",
		Principal: map[string]string{"Federated": oidcProviderArn},
		Action:    []string{"sts:AssumeRoleWithWebIdentity"},
	}.
		when("StringEquals", issuer+":sub", "system:serviceaccount:"+namespace+":"+serviceAccount).
		when("StringEquals", issuer+":aud", "sts.amazonaws.com"))
}
