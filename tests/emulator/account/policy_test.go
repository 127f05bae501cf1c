package account

import (
	"encoding/json"
	"testing"
)

func TestDecide(t *testing.T) {
	var scoped Policy
	if err := json.Unmarshal([]byte(`{"Version": "2012-10-17", "Statement": [
		{"Effect": "Allow", "NotAction": "iam:*", "Resource": "*"},
		{"Effect": "Allow", "Action": ["iam:*Role*"], "Resource": "arn:aws:iam::111122223333:role/gitops-fleet/*"},
		{"Effect": "Deny", "Action": "eks:CreateCluster", "Resource": "*"},
		{"Effect": "Allow", "Action": "iam:CreateServiceLinkedRole", "Resource": "*", "Condition": {"StringLike": {"iam:AWSServiceName": "eks.amazonaws.com"}}}
	]}`), &scoped); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		policies         []Policy
		action, resource string
		want             string
	}{
		{[]Policy{administratorAccess}, "eks:CreateCluster", "*", Allowed},
		{nil, "eks:CreateCluster", "*", ImplicitDeny},
		{[]Policy{scoped}, "ec2:CreateVpc", "*", Allowed},
		{[]Policy{scoped}, "EC2:createvpc", "*", Allowed}, // actions match case-insensitively
		{[]Policy{scoped}, "eks:CreateCluster", "*", ExplicitDeny},
		{[]Policy{administratorAccess, scoped}, "eks:CreateCluster", "*", ExplicitDeny}, // a Deny wins over any Allow
		{[]Policy{scoped}, "iam:CreateRole", "*", ImplicitDeny},                         // "*" is not on the fleet's path
		{[]Policy{scoped}, "iam:CreateRole", "arn:aws:iam::111122223333:role/gitops-fleet/hub/hub-argocd", Allowed},
		{[]Policy{scoped}, "iam:CreateRole", "arn:aws:iam::111122223333:role/hub-node", ImplicitDeny},
		{[]Policy{scoped}, "iam:CreateRole", "arn:aws:iam::111122223333:role/GITOPS-FLEET/x", ImplicitDeny}, // resources: case-sensitive
		{[]Policy{scoped}, "iam:CreateOpenIDConnectProvider", "*", ImplicitDeny},
		{[]Policy{scoped}, "iam:CreateServiceLinkedRole", "*", ImplicitDeny}, // no context keys: the condition finds none
	} {
		if got := decide(tc.policies, tc.action, tc.resource); got != tc.want {
			t.Errorf("%s on %s: %s, want %s", tc.action, tc.resource, got, tc.want)
		}
	}
}
