package account

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

const iamNamespace = "https://iam.amazonaws.com/doc/2010-05-08/"

// iam answers IAM's query API: SimulatePrincipalPolicy of the deployer and GetRole of the store's roles.
func (a *API) iam(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		queryError(w, http.StatusBadRequest, "MalformedInput", err.Error())
		return
	}
	switch r.PostForm.Get("Action") {
	case "SimulatePrincipalPolicy":
		a.simulate(w, r.PostForm)
	case "GetRole":
		a.getRole(w, r.PostForm.Get("RoleName"))
	default:
		queryError(w, http.StatusBadRequest, "InvalidAction", "offline cloud: IAM serves SimulatePrincipalPolicy and GetRole only")
	}
}

// members are a query list's values: name.member.1, name.member.2, ...
func members(form url.Values, name string) []string {
	var out []string
	for i := 1; form.Has(name + ".member." + strconv.Itoa(i)); i++ {
		out = append(out, form.Get(name+".member."+strconv.Itoa(i)))
	}
	return out
}

type evaluation struct {
	Action    string      `xml:"EvalActionName"`
	Resource  string      `xml:"EvalResourceName"`
	Decision  string      `xml:"EvalDecision"`
	Resources []perObject `xml:"ResourceSpecificResults>member,omitempty"`
}

type perObject struct {
	Resource string `xml:"EvalResourceName"`
	Decision string `xml:"EvalResourceDecision"`
}

// simulate answers SimulatePrincipalPolicy for the deployer: one result per action, its decision on every resource
// ("*") or, with ResourceArns, its most restrictive decision there and one resource-specific result per ARN.
func (a *API) simulate(w http.ResponseWriter, form url.Values) {
	if source := form.Get("PolicySourceArn"); source != aws.DeployerARN() {
		queryError(w, http.StatusNotFound, "NoSuchEntity", fmt.Sprintf("the offline IAM knows the deployer %s only, not %s", aws.DeployerARN(), source))
		return
	}
	policies := a.policies
	if policies == nil {
		policies = []Policy{administratorAccess}
	}
	resources := members(form, "ResourceArns")
	var results []evaluation
	for _, action := range members(form, "ActionNames") {
		e := evaluation{Action: action, Resource: "*", Decision: decide(policies, action, "*")}
		if len(resources) > 0 {
			rank := map[string]int{Allowed: 0, ImplicitDeny: 1, ExplicitDeny: 2}
			e.Decision = Allowed
			for _, res := range resources {
				d := decide(policies, action, res)
				if rank[d] > rank[e.Decision] {
					e.Decision = d
				}
				e.Resources = append(e.Resources, perObject{Resource: res, Decision: d})
			}
		}
		results = append(results, e)
	}
	queryReply(w, struct {
		XMLName xml.Name `xml:"SimulatePrincipalPolicyResponse"`
		Xmlns   string   `xml:"xmlns,attr"`
		Result  struct {
			Results     []evaluation `xml:"EvaluationResults>member"`
			IsTruncated bool         `xml:"IsTruncated"`
		} `xml:"SimulatePrincipalPolicyResult"`
	}{Xmlns: iamNamespace, Result: struct {
		Results     []evaluation `xml:"EvaluationResults>member"`
		IsTruncated bool         `xml:"IsTruncated"`
	}{Results: results}})
}

// getRole answers GetRole of a role in the store (its name, ARN and path).
func (a *API) getRole(w http.ResponseWriter, name string) {
	records, err := a.store.List()
	if err != nil {
		queryError(w, http.StatusInternalServerError, "ServiceFailure", err.Error())
		return
	}
	for _, rec := range records {
		if rec.Type != "aws:iam/role:Role" {
			continue
		}
		state, err := rec.Plain()
		if err != nil || state["name"] != name {
			continue
		}
		path, _ := state["path"].(string)
		if path == "" {
			path = "/"
		}
		queryReply(w, struct {
			XMLName xml.Name `xml:"GetRoleResponse"`
			Xmlns   string   `xml:"xmlns,attr"`
			Role    struct {
				RoleName, Arn, Path, RoleId, CreateDate string
			} `xml:"GetRoleResult>Role"`
		}{Xmlns: iamNamespace, Role: struct{ RoleName, Arn, Path, RoleId, CreateDate string }{
			RoleName: name, Arn: fmt.Sprint(state["arn"]), Path: path, RoleId: "AROA" + emulator.RandomHex(8),
			CreateDate: "2026-01-01T00:00:00Z"}})
		return
	}
	queryError(w, http.StatusNotFound, "NoSuchEntity", "The role with name "+name+" cannot be found.")
}

// queryReply writes v as a query API's XML answer.
func queryReply(w http.ResponseWriter, v any) { writeXML(w, http.StatusOK, v) }

// writeXML writes v as XML with status.
func writeXML(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status)
	_ = xml.NewEncoder(w).Encode(v)
}

// queryError writes an IAM query API error (ErrorResponse/Error with Type, Code and Message).
func queryError(w http.ResponseWriter, status int, code, msg string) {
	writeXML(w, status, struct {
		XMLName xml.Name `xml:"ErrorResponse"`
		Error   struct {
			Type, Code, Message string
		} `xml:"Error"`
		RequestID string `xml:"RequestId"`
	}{Error: struct{ Type, Code, Message string }{"Sender", code, msg}, RequestID: emulator.UUID()})
}
