package capabilities

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// updateRequest is UpdateCapability's body.
type updateRequest struct {
	RoleArn       string `json:"roleArn"`
	Configuration *struct {
		ArgoCd *struct {
			RbacRoleMappings *struct {
				AddOrUpdateRoleMappings []map[string]any `json:"addOrUpdateRoleMappings"`
				RemoveRoleMappings      []map[string]any `json:"removeRoleMappings"`
			} `json:"rbacRoleMappings"`
			NetworkAccess *struct {
				VpceIds []string `json:"vpceIds"`
			} `json:"networkAccess"`
		} `json:"argoCd"`
	} `json:"configuration"`
	DeletePropagationPolicy string `json:"deletePropagationPolicy"`
}

// update applies an UpdateCapability: the role, the role mappings (a mapping of a role already mapped replaces
// its identities; a removed mapping removes its role) and the network access, as an update InProgress until the
// capability settles ACTIVE again.
func (c call) update(cluster, name string) {
	e, ok := c.found(cluster, name)
	if !ok {
		return
	}
	var req updateRequest
	if err := json.NewDecoder(c.r.Body).Decode(&req); err != nil {
		fail(c.w, http.StatusBadRequest, "InvalidParameterException", err.Error())
		return
	}
	if st := e.Capability["status"]; st != "ACTIVE" && st != "DEGRADED" {
		fail(c.w, http.StatusConflict, "ResourceInUseException", fmt.Sprintf("Capability %s is %s", name, st))
		return
	}
	if req.DeletePropagationPolicy != "" && req.DeletePropagationPolicy != "RETAIN" {
		fail(c.w, http.StatusBadRequest, "InvalidParameterException", "deletePropagationPolicy must be RETAIN")
		return
	}
	var params []map[string]any
	param := func(typ string, v any) {
		s, _ := v.(string)
		if s == "" {
			b, _ := json.Marshal(v)
			s = string(b)
		}
		params = append(params, map[string]any{"type": typ, "value": s})
	}
	if req.RoleArn != "" {
		if msg := c.roleInvalid(req.RoleArn); msg != "" {
			fail(c.w, http.StatusBadRequest, "InvalidParameterException", msg)
			return
		}
		e.Capability["roleArn"] = req.RoleArn
		param("RoleArn", req.RoleArn)
	}
	argo, _ := e.Capability["configuration"].(map[string]any)["argoCd"].(map[string]any)
	if req.Configuration != nil && req.Configuration.ArgoCd != nil {
		u := req.Configuration.ArgoCd
		if m := u.RbacRoleMappings; m != nil {
			var adds []any
			for _, a := range m.AddOrUpdateRoleMappings {
				adds = append(adds, a)
			}
			if msg := mappingsInvalid(adds); msg != "" {
				fail(c.w, http.StatusBadRequest, "InvalidParameterException", msg)
				return
			}
			argo["rbacRoleMappings"] = remap(argo["rbacRoleMappings"], m.AddOrUpdateRoleMappings, m.RemoveRoleMappings)
			if len(m.AddOrUpdateRoleMappings) > 0 {
				param("RoleMappingsToAddOrUpdate", m.AddOrUpdateRoleMappings)
			}
			if len(m.RemoveRoleMappings) > 0 {
				param("RoleMappingsToRemove", m.RemoveRoleMappings)
			}
		}
		if n := u.NetworkAccess; n != nil {
			if len(n.VpceIds) == 0 {
				delete(argo, "networkAccess")
			} else {
				argo["networkAccess"] = map[string]any{"vpceIds": n.VpceIds}
			}
			param("NetworkAccess", n)
		}
	}
	id := emulator.UUID()
	update := map[string]any{"id": id, "status": "InProgress", "type": "CapabilityUpdate", "params": params,
		"createdAt": time.Now().Unix(), "errors": []any{}}
	if e.Updates == nil {
		e.Updates = map[string]map[string]any{}
	}
	e.Updates[id] = update
	c.transition(e, "UPDATING", "ACTIVE")
	if err := c.save(cluster, name, e); err != nil {
		fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
		return
	}
	c.reply(map[string]any{"update": update})
}

// remap is the role mappings after adding or updating adds and removing the roles of removes.
func remap(current any, adds, removes []map[string]any) []any {
	byRole := map[string]any{}
	var order []string
	ms, _ := current.([]any)
	for _, m := range ms {
		role, _ := m.(map[string]any)["role"].(string)
		byRole[role] = m
		order = append(order, role)
	}
	for _, a := range adds {
		role, _ := a["role"].(string)
		if _, ok := byRole[role]; !ok {
			order = append(order, role)
		}
		byRole[role] = a
	}
	for _, r := range removes {
		role, _ := r["role"].(string)
		delete(byRole, role)
	}
	out := []any{}
	for _, role := range order {
		if m, ok := byRole[role]; ok {
			out = append(out, m)
			delete(byRole, role)
		}
	}
	return out
}

func (c call) describeUpdate(cluster, id, name string) {
	if name == "" {
		fail(c.w, http.StatusBadRequest, "InvalidParameterException", "offline cloud: only a capability's updates "+
			"are served; give capabilityName")
		return
	}
	e, ok := c.found(cluster, name)
	if !ok {
		return
	}
	u, found := e.Updates[id]
	if !found {
		fail(c.w, http.StatusNotFound, "ResourceNotFoundException", "No update found for ID: "+id)
		return
	}
	c.reply(map[string]any{"update": u})
}

// tags answers TagResource (POST), UntagResource (DELETE) and ListTagsForResource (GET) of a capability's ARN.
func (c call) tags(arn string) {
	recs, err := c.api.store.List()
	if err != nil {
		fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
		return
	}
	for _, rec := range recs {
		if rec.Type != Type || rec.Scope != c.region {
			continue
		}
		cluster, name, _ := strings.Cut(rec.ID, "/")
		e, found, err := c.load(cluster, name)
		if err != nil || !found || e.Capability["arn"] != arn {
			continue
		}
		tags, _ := e.Capability["tags"].(map[string]any)
		if tags == nil {
			tags = map[string]any{}
		}
		switch c.r.Method {
		case http.MethodPost:
			var req struct{ Tags map[string]string }
			if err := json.NewDecoder(c.r.Body).Decode(&req); err != nil {
				fail(c.w, http.StatusBadRequest, "InvalidParameterException", err.Error())
				return
			}
			for k, v := range req.Tags {
				tags[k] = v
			}
		case http.MethodDelete:
			for _, k := range c.r.URL.Query()["tagKeys"] {
				delete(tags, k)
			}
		case http.MethodGet:
			c.reply(map[string]any{"tags": tags})
			return
		}
		e.Capability["tags"] = tags
		if err := c.save(cluster, name, e); err != nil {
			fail(c.w, http.StatusInternalServerError, "ServerException", err.Error())
			return
		}
		c.reply(map[string]any{})
		return
	}
	fail(c.w, http.StatusNotFound, "NotFoundException", "No resource found for ARN: "+arn)
}
