package capabilities

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
)

var (
	namePattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,100}$`)
	types       = []string{"ACK", "KRO", "ARGOCD"}
	roles       = []string{"ADMIN", "EDITOR", "VIEWER"}
)

// createRequest is CreateCapability's body.
type createRequest struct {
	CapabilityName          string `json:"capabilityName"`
	Type                    string `json:"type"`
	RoleArn                 string `json:"roleArn"`
	DeletePropagationPolicy string `json:"deletePropagationPolicy"`
	Configuration           *struct {
		ArgoCd map[string]any `json:"argoCd"`
	} `json:"configuration"`
	Tags map[string]string `json:"tags"`
}

func (c call) create(cluster string) {
	var req createRequest
	if err := json.NewDecoder(c.r.Body).Decode(&req); err != nil {
		fail(c.w, http.StatusBadRequest, "InvalidParameterException", err.Error())
		return
	}
	if _, ok := c.cluster(cluster); !ok {
		return
	}
	var argo map[string]any
	if req.Configuration != nil {
		argo = req.Configuration.ArgoCd
	}
	if msg := c.invalid(req, argo); msg != "" {
		fail(c.w, http.StatusBadRequest, "InvalidParameterException", msg)
		return
	}
	recs, err := c.api.store.List()
	if err != nil {
		fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
		return
	}
	for _, rec := range recs {
		if rec.Type != Type || rec.Scope != c.region || !strings.HasPrefix(rec.ID, cluster+"/") {
			continue
		}
		e, found, err := c.load(cluster, strings.TrimPrefix(rec.ID, cluster+"/"))
		switch {
		case err != nil:
			fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
			return
		case !found:
		case e.Capability["capabilityName"] == req.CapabilityName:
			fail(c.w, http.StatusConflict, "ResourceInUseException", "Capability already exists with name: "+
				req.CapabilityName)
			return
		case e.Capability["type"] == req.Type:
			fail(c.w, http.StatusConflict, "ResourceInUseException", fmt.Sprintf("Cluster %s already has a "+
				"capability of type %s: %v", cluster, req.Type, e.Capability["capabilityName"]))
			return
		}
	}
	now := time.Now().Unix()
	capability := map[string]any{
		"capabilityName": req.CapabilityName, "clusterName": cluster, "type": req.Type, "roleArn": req.RoleArn,
		"arn": aws.ARN("eks", c.region, fmt.Sprintf("capability/%s/%s/%s/%s", cluster, strings.ToLower(req.Type),
			req.CapabilityName, emulator.RandomHex(8))),
		"version": Version, "tags": orEmpty(req.Tags), "health": map[string]any{"issues": []any{}},
		"createdAt": now, "deletePropagationPolicy": req.DeletePropagationPolicy,
		"configuration": map[string]any{"argoCd": c.argoCdResponse(argo)},
	}
	e := &entry{Capability: capability}
	c.transition(e, "CREATING", "ACTIVE")
	if issues, ok := c.api.fail[cluster]; ok {
		delete(c.api.fail, cluster)
		e.Next, e.Issues = "CREATE_FAILED", issues
	}
	if err := c.save(cluster, req.CapabilityName, e); err != nil {
		fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
		return
	}
	c.reply(map[string]any{"capability": capability})
}

// invalid is InvalidParameterException's message for a bad request, or "".
func (c call) invalid(req createRequest, argo map[string]any) string {
	switch {
	case !namePattern.MatchString(req.CapabilityName):
		return "capabilityName must be 1-100 alphanumeric characters, hyphens and underscores"
	case !slices.Contains(types, req.Type):
		return fmt.Sprintf("type must be one of %v", types)
	case req.DeletePropagationPolicy != "RETAIN":
		return "deletePropagationPolicy must be RETAIN"
	case req.Type == "ARGOCD" && str(argo, "awsIdc", "idcInstanceArn") == "":
		return "configuration.argoCd.awsIdc.idcInstanceArn is required for an ARGOCD capability"
	}
	if msg := c.roleInvalid(req.RoleArn); msg != "" {
		return msg
	}
	return mappingsInvalid(argo["rbacRoleMappings"])
}

// roleInvalid checks the role as EKS does when it assumes it: it exists, in the cluster's account, and trusts
// the capabilities service principal with both actions.
func (c call) roleInvalid(arn string) string {
	if !strings.HasPrefix(arn, "arn:aws:iam::"+aws.Account+":role/") {
		return fmt.Sprintf("roleArn %s must be a role in the cluster's account %s", arn, aws.Account)
	}
	recs, err := c.api.store.List()
	if err != nil {
		return err.Error()
	}
	for _, rec := range recs {
		if rec.Type != "aws:iam/role:Role" {
			continue
		}
		state, err := rec.Plain()
		if err != nil || state["arn"] != arn {
			continue
		}
		policy, _ := state["assumeRolePolicy"].(string)
		if !trusts(policy) {
			return "The trust policy for the provided role is invalid. The policy must include sts:AssumeRole and " +
				"sts:TagSession actions granting access to the AWS service capabilities.eks.amazonaws.com"
		}
		return ""
	}
	return "Role " + arn + " does not exist"
}

// trusts tells whether a trust policy allows capabilities.eks.amazonaws.com sts:AssumeRole and sts:TagSession.
func trusts(policy string) bool {
	var doc struct {
		Statement []struct {
			Effect    string
			Principal map[string]any
			Action    any
		}
	}
	if json.Unmarshal([]byte(policy), &doc) != nil {
		return false
	}
	for _, s := range doc.Statement {
		actions := strs(s.Action)
		if s.Effect == "Allow" && slices.Contains(strs(s.Principal["Service"]), "capabilities.eks.amazonaws.com") &&
			(slices.Contains(actions, "sts:*") || slices.Contains(actions, "sts:AssumeRole") &&
				slices.Contains(actions, "sts:TagSession")) {
			return true
		}
	}
	return false
}

func mappingsInvalid(v any) string {
	ms, _ := v.([]any)
	seen := map[string]bool{}
	for _, m := range ms {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		ids, _ := mm["identities"].([]any)
		switch {
		case !slices.Contains(roles, role):
			return fmt.Sprintf("rbacRoleMappings role %q must be one of %v", role, roles)
		case seen[role]:
			return "rbacRoleMappings maps role " + role + " twice"
		case len(ids) == 0:
			return "rbacRoleMappings of role " + role + " has no identities"
		}
		seen[role] = true
	}
	return ""
}

// argoCdResponse is ArgoCdConfigResponse for the request's configuration.
func (c call) argoCdResponse(argo map[string]any) map[string]any {
	out := maps.Clone(argo)
	if out == nil {
		out = map[string]any{}
	}
	if str(out, "namespace") == "" {
		out["namespace"] = "argocd"
	}
	if idc, ok := out["awsIdc"].(map[string]any); ok {
		idc = maps.Clone(idc)
		if str(idc, "idcRegion") == "" {
			idc["idcRegion"] = c.region
		}
		idc["idcManagedApplicationArn"] = fmt.Sprintf("arn:aws:sso::%s:application/ssoins-%s/apl-%s", aws.Account,
			emulator.RandomHex(8), emulator.RandomHex(8))
		out["awsIdc"] = idc
	}
	prefix := str(out, "endpointPrefix")
	if prefix == "" {
		prefix = emulator.RandomHex(8)
	}
	out["serverUrl"] = fmt.Sprintf("https://%s.eks-capabilities.%s.amazonaws.com", prefix, c.region)
	return out
}

func (c call) describe(cluster, name string) {
	e, ok := c.found(cluster, name)
	if ok {
		c.reply(map[string]any{"capability": e.Capability})
	}
}

// found is the capability, or false after answering ResourceNotFoundException.
func (c call) found(cluster, name string) (*entry, bool) {
	e, found, err := c.load(cluster, name)
	switch {
	case err != nil:
		fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
	case !found:
		fail(c.w, http.StatusNotFound, "ResourceNotFoundException", fmt.Sprintf("No capability found for name: %s "+
			"on cluster %s.", name, cluster))
	}
	return e, err == nil && found
}

func (c call) list(cluster string) {
	recs, err := c.api.store.List()
	if err != nil {
		fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
		return
	}
	out := []map[string]any{}
	for _, rec := range recs {
		if rec.Type != Type || rec.Scope != c.region || !strings.HasPrefix(rec.ID, cluster+"/") {
			continue
		}
		if e, found, err := c.load(cluster, strings.TrimPrefix(rec.ID, cluster+"/")); err == nil && found {
			s := map[string]any{}
			for _, k := range []string{"capabilityName", "arn", "type", "status", "version", "createdAt", "modifiedAt"} {
				s[k] = e.Capability[k]
			}
			out = append(out, s)
		}
	}
	c.reply(map[string]any{"capabilities": out})
}

func (c call) delete(cluster, name string) {
	e, ok := c.found(cluster, name)
	if !ok {
		return
	}
	if st := e.Capability["status"]; st == "CREATING" || st == "UPDATING" || st == "DELETING" {
		fail(c.w, http.StatusConflict, "ResourceInUseException", fmt.Sprintf("Capability %s is %s", name, st))
		return
	}
	c.transition(e, "DELETING", gone)
	if err := c.save(cluster, name, e); err != nil {
		fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
		return
	}
	c.reply(map[string]any{"capability": e.Capability})
}

func str(m map[string]any, path ...string) string {
	for i, k := range path {
		if i == len(path)-1 {
			s, _ := m[k].(string)
			return s
		}
		m, _ = m[k].(map[string]any)
	}
	return ""
}

func strs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, s := range v {
			if s, ok := s.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
