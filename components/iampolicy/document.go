package iampolicy

import "encoding/json"

// Version is the current IAM policy language version.
const Version = "2012-10-17"

// Document is an IAM policy document. Marshalled with encoding/json its text is deterministic: fields in
// declaration order, map keys sorted.
type Document struct {
	Version   string      `json:"Version"`
	Statement []Statement `json:"Statement"`
}

// Statement is one statement of a Document.
type Statement struct {
	Sid       string                    `json:"Sid,omitempty"`
	Effect    string                    `json:"Effect"`
	Principal map[string]any            `json:"Principal,omitempty"`
	Action    []string                  `json:"Action"`
	Resource  []string                  `json:"Resource,omitempty"`
	Condition map[string]map[string]any `json:"Condition,omitempty"`
}

// New returns a Document of the current Version with statements.
func New(statements ...Statement) Document {
	return Document{Version: Version, Statement: statements}
}

// Allow is a statement that allows actions on resources.
func Allow(sid string, actions, resources []string) Statement {
	return Statement{Sid: sid, Effect: "Allow", Action: actions, Resource: resources}
}

// Trust is a trust-policy statement: principal (for example {"Service": "pods.eks.amazonaws.com"}) may
// perform actions (sts:AssumeRole, ...) on the role that carries it.
func Trust(principal map[string]string, actions ...string) Statement {
	p := map[string]any{}
	for k, v := range principal {
		p[k] = v
	}
	return Statement{Effect: "Allow", Principal: p, Action: actions}
}

// When returns s with the condition operator(key: value) added, for example
// When("StringEquals", "aws:SourceAccount", "123456789012").
func (s Statement) When(operator, key string, value any) Statement {
	cond := map[string]map[string]any{}
	for op, kv := range s.Condition {
		cond[op] = map[string]any{}
		for k, v := range kv {
			cond[op][k] = v
		}
	}
	if cond[operator] == nil {
		cond[operator] = map[string]any{}
	}
	cond[operator][key] = value
	s.Condition = cond
	return s
}

// JSON renders the document.
func (d Document) JSON() string {
	b, err := json.Marshal(d)
	if err != nil {
		// Only strings, slices and maps of them: marshalling cannot fail.
		panic(err)
	}
	return string(b)
}

// PodIdentityTrust is the trust statement the Amazon EKS User Guide gives for EKS Pod Identity roles
// (pod-id-role.html): the pods.eks.amazonaws.com principal with sts:AssumeRole and sts:TagSession, conditioned on
// the session tags Pod Identity sets (pod-id-abac.html): eks-cluster-arn (the cluster), kubernetes-namespace and
// kubernetes-service-account (the pods' service accounts).
func PodIdentityTrust(clusterArn, namespace string, serviceAccounts []string) Statement {
	return Trust(map[string]string{"Service": "pods.eks.amazonaws.com"}, "sts:AssumeRole", "sts:TagSession").
		When("StringEquals", "aws:RequestTag/eks-cluster-arn", []string{clusterArn}).
		When("StringEquals", "aws:RequestTag/kubernetes-namespace", []string{namespace}).
		When("StringEquals", "aws:RequestTag/kubernetes-service-account", serviceAccounts)
}

// CapabilityTrust is the trust statement the Amazon EKS User Guide gives every EKS Capability's role
// (capability-role.html, "All capability roles must include the following trust policy"): the
// capabilities.eks.amazonaws.com principal with sts:AssumeRole and sts:TagSession, and no condition. No
// aws:SourceAccount or aws:SourceArn: the User Guide's "Cross-service confused deputy prevention in Amazon EKS"
// (2025-08-19) says EKS accepts those conditions in the trust policy of an EKS cluster role (eks.amazonaws.com), and
// names no capability; the capability role's page gives the policy without them. A condition the service does not
// set would refuse every AssumeRole of the capability, so the role keeps the documented policy; the role being in
// the cluster's own account (which the capability requires) is what binds it.
func CapabilityTrust() Statement {
	return Trust(map[string]string{"Service": "capabilities.eks.amazonaws.com"}, "sts:AssumeRole", "sts:TagSession")
}
