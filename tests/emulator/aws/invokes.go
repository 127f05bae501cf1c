package aws

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// invokes are the functions pulumi-aws answers that the fleet's programs call.
var invokes = map[string]emulator.InvokeFunc{
	"aws:index/getCallerIdentity:getCallerIdentity": func(c emulator.Call) (map[string]any, error) {
		return map[string]any{
			"id": Account, "accountId": Account, "userId": deployerUserID, "arn": DeployerARN(),
		}, nil
	},
	// The caller is an IAM user, so the session's issuer is the caller itself (IAM GetSessionContext).
	"aws:iam/getSessionContext:getSessionContext": func(c emulator.Call) (map[string]any, error) {
		arn := emulator.Str(c.Inputs, "arn")
		return map[string]any{"id": arn, "arn": arn, "issuerArn": arn}, nil
	},
	"aws:index/getPartition:getPartition": func(emulator.Call) (map[string]any, error) {
		return map[string]any{"id": "aws", "partition": "aws", "dnsSuffix": "amazonaws.com", "reverseDnsPrefix": "com.amazonaws"}, nil
	},
	"aws:index/getRegion:getRegion": func(c emulator.Call) (map[string]any, error) {
		region := c.Scope
		if name := emulator.Str(c.Inputs, "name"); name != "" {
			region = name
		}
		return map[string]any{
			"id": region, "name": region, "region": region, "description": region,
			"endpoint": fmt.Sprintf("ec2.%s.amazonaws.com", region),
		}, nil
	},
	"aws:index/getAvailabilityZones:getAvailabilityZones": func(c emulator.Call) (map[string]any, error) {
		var names, ids []any
		for i, suffix := range "abcdef" {
			names = append(names, c.Scope+string(suffix))
			ids = append(ids, fmt.Sprintf("%s-az%d", abbreviation(c.Scope), i+1))
		}
		return map[string]any{"id": c.Scope, "names": names, "zoneIds": ids, "groupNames": []any{c.Scope}}, nil
	},
	"aws:iam/getPolicyDocument:getPolicyDocument": policyDocument,
	"aws:eks/getAddonVersion:getAddonVersion": func(c emulator.Call) (map[string]any, error) {
		addon, k8s := emulator.Str(c.Inputs, "addonName"), emulator.Str(c.Inputs, "kubernetesVersion")
		return map[string]any{"id": addon, "addonName": addon, "kubernetesVersion": k8s,
			"version": DefaultAddonVersion(addon, k8s)}, nil
	},
}

// DefaultAddonVersion is the version the emulated EKS lists as an add-on's default for a Kubernetes version
// (DescribeAddonVersions): v<kubernetes version>.0-eksbuild.1 for every add-on, so that a new Kubernetes
// version gives every add-on a new version.
func DefaultAddonVersion(addon, kubernetesVersion string) string {
	return "v" + kubernetesVersion + ".0-eksbuild.1"
}

// abbreviation is the zone-ID prefix of a region: us-east-1 -> use1.
func abbreviation(region string) string {
	var out []byte
	for i, part := range strings.Split(region, "-") {
		if i == 1 {
			out = append(out, part[0])
			continue
		}
		out = append(out, part...)
	}
	return string(out)
}

// policyDocument renders aws.iam.getPolicyDocument's statements as IAM JSON.
func policyDocument(c emulator.Call) (map[string]any, error) {
	args := resource.ToResourcePropertyMap(c.Inputs).Mappable()
	var statements []any
	raw, _ := args["statements"].([]any)
	for _, s := range raw {
		s, _ := s.(map[string]any)
		st := map[string]any{"Effect": "Allow"}
		if e, ok := s["effect"].(string); ok {
			st["Effect"] = e
		}
		if sid, ok := s["sid"].(string); ok {
			st["Sid"] = sid
		}
		for from, to := range map[string]string{"actions": "Action", "resources": "Resource", "notActions": "NotAction"} {
			if v, ok := s[from]; ok {
				st[to] = v
			}
		}
		if ps, ok := s["principals"].([]any); ok {
			principals := map[string]any{}
			for _, pr := range ps {
				pr, _ := pr.(map[string]any)
				principals[fmt.Sprint(pr["type"])] = pr["identifiers"]
			}
			st["Principal"] = principals
		}
		if cs, ok := s["conditions"].([]any); ok {
			conds := map[string]any{}
			for _, cd := range cs {
				cd, _ := cd.(map[string]any)
				test, _ := cd["test"].(string)
				m, _ := conds[test].(map[string]any)
				if m == nil {
					m = map[string]any{}
				}
				m[fmt.Sprint(cd["variable"])] = cd["values"]
				conds[test] = m
			}
			st["Condition"] = conds
		}
		statements = append(statements, st)
	}
	doc, err := json.Marshal(map[string]any{"Version": "2012-10-17", "Statement": statements})
	if err != nil {
		return nil, err
	}
	return map[string]any{"id": "policy", "json": string(doc), "minifiedJson": string(doc)}, nil
}
