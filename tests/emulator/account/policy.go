package account

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Policy is an IAM policy document.
type Policy struct {
	Version   string      `json:"Version"`
	Statement []Statement `json:"Statement"`
}

// Statement is one statement of a policy; each list may be given as a string or a list in JSON.
type Statement struct {
	Effect      string          `json:"Effect"`
	Action      valueList       `json:"Action,omitempty"`
	NotAction   valueList       `json:"NotAction,omitempty"`
	Resource    valueList       `json:"Resource,omitempty"`
	NotResource valueList       `json:"NotResource,omitempty"`
	Condition   json.RawMessage `json:"Condition,omitempty"`
}

// valueList is a policy's string-or-list value.
type valueList []string

func (s *valueList) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*s = []string{one}
		return nil
	}
	return json.Unmarshal(b, (*[]string)(s))
}

// Decisions of IAM's simulator.
const (
	Allowed      = "allowed"
	ExplicitDeny = "explicitDeny"
	ImplicitDeny = "implicitDeny"
)

// administratorAccess is AWS's managed policy of that name.
var administratorAccess = Policy{Version: "2012-10-17", Statement: []Statement{{Effect: "Allow", Action: valueList{"*"}, Resource: valueList{"*"}}}}

// decide is the decision of policies on action for resource.
func decide(policies []Policy, action, resource string) string {
	decision := ImplicitDeny
	for _, p := range policies {
		for _, s := range p.Statement {
			if len(s.Condition) > 0 || !s.matches(action, resource) {
				continue
			}
			if s.Effect == "Deny" {
				return ExplicitDeny
			}
			if s.Effect == "Allow" {
				decision = Allowed
			}
		}
	}
	return decision
}

func (s Statement) matches(action, resource string) bool {
	actionOK := matchAny(s.Action, action, true)
	if len(s.NotAction) > 0 {
		actionOK = !matchAny(s.NotAction, action, true)
	}
	resourceOK := matchAny(s.Resource, resource, false)
	if len(s.NotResource) > 0 {
		resourceOK = !matchAny(s.NotResource, resource, false)
	}
	return actionOK && resourceOK
}

// matchAny says whether one of patterns matches v: IAM's * is any run of characters ("/" and ":" too), ? any one;
// fold: case-insensitively.
func matchAny(patterns []string, v string, fold bool) bool {
	for _, p := range patterns {
		re := "^" + strings.NewReplacer(`\*`, ".*", `\?`, ".").Replace(regexp.QuoteMeta(p)) + "$"
		if fold {
			re = "(?i)" + re
		}
		if regexp.MustCompile(re).MatchString(v) {
			return true
		}
	}
	return false
}
