package aws

import (
	"fmt"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// created is the creation time every emulated resource reports.
const created = "2026-01-01T00:00:00Z"

// kinds are the resource types whose IDs, ARNs and computed outputs differ from the default.
var kinds = map[string]emulator.Kind{
	"aws:iam/role:Role": {
		AutoName: emulator.AutoNameKey("name"),
		ID:       func(c emulator.Call) string { return emulator.Str(c.Inputs, "name") },
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{
				"arn":      iamARN("role", emulator.Str(c.Inputs, "path"), emulator.Str(c.Inputs, "name")),
				"uniqueId": "AROA" + strings.ToUpper(emulator.RandomHex(8)), "createDate": created,
			}
		},
		Replaces: []string{"name", "path"},
	},
	"aws:iam/policy:Policy": {
		AutoName: emulator.AutoNameKey("name"),
		ID: func(c emulator.Call) string {
			return iamARN("policy", emulator.Str(c.Inputs, "path"), emulator.Str(c.Inputs, "name"))
		},
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{"arn": iamARN("policy", emulator.Str(c.Inputs, "path"), emulator.Str(c.Inputs, "name")),
				"policyId": "ANPA" + strings.ToUpper(emulator.RandomHex(8))}
		},
		Replaces: []string{"name", "path"},
	},
	"aws:iam/instanceProfile:InstanceProfile": {
		AutoName: emulator.AutoNameKey("name"),
		ID:       func(c emulator.Call) string { return emulator.Str(c.Inputs, "name") },
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{"arn": iamARN("instance-profile", emulator.Str(c.Inputs, "path"), id),
				"uniqueId": "AIPA" + strings.ToUpper(emulator.RandomHex(8))}
		},
	},
	"aws:iam/openIdConnectProvider:OpenIdConnectProvider": {
		ID: func(c emulator.Call) string { return oidcARN(emulator.Str(c.Inputs, "url")) },
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{"arn": oidcARN(emulator.Str(c.Inputs, "url"))}
		},
		Replaces: []string{"url"},
	},
	"aws:iam/rolePolicyAttachment:RolePolicyAttachment": {
		ID: func(c emulator.Call) string { return emulator.Str(c.Inputs, "role") + "-" + emulator.RandomHex(8) },
	},
	"aws:ec2/securityGroup:SecurityGroup": {
		AutoName: emulator.AutoNameKey("name"),
		Computed: ec2Computed, Replaces: []string{"name", "vpcId"},
	},
	"aws:kms/key:Key": {
		ID: func(emulator.Call) string { return emulator.UUID() },
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{"arn": ARN("kms", c.Scope, "key/"+id), "keyId": id}
		},
	},
	"aws:ec2/launchTemplate:LaunchTemplate": {
		AutoName: emulator.AutoNameKey("name"),
		Computed: func(c emulator.Call, id string) map[string]any {
			out := ec2Computed(c, id)
			out["latestVersion"], out["defaultVersion"] = 1, 1
			return out
		},
	},
	"aws:ec2/eip:Eip": {
		Computed: func(c emulator.Call, id string) map[string]any {
			out := ec2Computed(c, id)
			out["allocationId"], out["publicIp"], out["domain"] = id, "198.51.100.10", "vpc"
			return out
		},
	},
	"aws:ec2/natGateway:NatGateway": {
		Computed: func(c emulator.Call, id string) map[string]any {
			out := ec2Computed(c, id)
			out["publicIp"], out["privateIp"] = "198.51.100.20", "10.0.0.10"
			return out
		},
	},
	"aws:sqs/queue:Queue": {
		AutoName: emulator.AutoNameKey("name"),
		ID: func(c emulator.Call) string {
			return fmt.Sprintf("https://sqs.%s.amazonaws.com/%s/%s", c.Scope, Account, emulator.Str(c.Inputs, "name"))
		},
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{"arn": ARN("sqs", c.Scope, emulator.Str(c.Inputs, "name")), "url": id}
		},
		Replaces: []string{"name"},
	},
	"aws:s3/bucketV2:BucketV2": {
		// A bucket named by bucketPrefix gets a random suffix, as the real provider's does.
		AutoName: func(olds, news property.Map, name, suffix string) property.Map {
			if v, ok := news.GetOk("bucket"); ok && !v.IsNull() {
				return news
			}
			if v, ok := olds.GetOk("bucket"); ok && !v.IsNull() {
				return news.Set("bucket", v)
			}
			prefix := emulator.Str(news, "bucketPrefix")
			if prefix == "" {
				prefix = name + "-"
			}
			return news.Set("bucket", property.New(prefix+suffix))
		},
		ID: func(c emulator.Call) string { return emulator.Str(c.Inputs, "bucket") },
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{"arn": "arn:aws:s3:::" + id, "bucketDomainName": id + ".s3.amazonaws.com",
				"region": c.Scope}
		},
		Replaces: []string{"bucket", "bucketPrefix"},
	},
	"aws:cloudwatch/logGroup:LogGroup": {
		AutoName: emulator.AutoNameKey("name"),
		ID:       func(c emulator.Call) string { return emulator.Str(c.Inputs, "name") },
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{"arn": ARN("logs", c.Scope, "log-group:"+id)}
		},
		Replaces: []string{"name"},
	},
	"aws:cloudwatch/eventRule:EventRule": {
		AutoName: emulator.AutoNameKey("name"),
		ID:       func(c emulator.Call) string { return emulator.Str(c.Inputs, "name") },
		Computed: func(c emulator.Call, id string) map[string]any {
			return map[string]any{"arn": ARN("events", c.Scope, "rule/"+id)}
		},
		Replaces: []string{"name"},
	},
	EKSClusterType:                                          eksCluster,
	"aws:eks/nodeGroup:NodeGroup":                           eksNodeGroup,
	"aws:eks/addon:Addon":                                   eksAddon,
	"aws:eks/accessEntry:AccessEntry":                       eksAccessEntry,
	AccessPolicyAssociationType:                             eksAccessPolicyAssociation,
	"aws:eks/podIdentityAssociation:PodIdentityAssociation": eksPodIdentity,
}

// defaultKind: EC2 resources get EC2 IDs and ARNs, everything else "<name>-<hex>" and a generic ARN.
var defaultKind = emulator.Kind{
	ID: func(c emulator.Call) string {
		module, res := parts(c.Type)
		if module == "ec2" {
			return ec2ID(res)
		}
		return c.Name + "-" + emulator.RandomHex(4)
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		module, res := parts(c.Type)
		if module == "ec2" {
			return ec2Computed(c, id)
		}
		return map[string]any{"arn": ARN(module, c.Scope, res+"/"+id)}
	},
}

func ec2Computed(c emulator.Call, id string) map[string]any {
	_, res := parts(c.Type)
	kind := ec2ARNKind[res]
	if kind == "" {
		kind = strings.ToLower(res)
	}
	out := map[string]any{"arn": ARN("ec2", c.Scope, kind+"/"+id), "ownerId": Account}
	switch res {
	case "vpc":
		out["defaultSecurityGroupId"], out["mainRouteTableId"] = ec2ID("securityGroup"), ec2ID("routeTable")
		out["defaultNetworkAclId"], out["dhcpOptionsId"] = "acl-"+emulator.RandomHex(9)[:17], "dopt-"+emulator.RandomHex(9)[:17]
	case "subnet":
		if emulator.Str(c.Inputs, "availabilityZone") == "" {
			out["availabilityZone"] = c.Scope + "a"
		}
	}
	return out
}

func oidcARN(url string) string {
	return fmt.Sprintf("arn:aws:iam::%s:oidc-provider/%s", Account, strings.TrimPrefix(url, "https://"))
}

// withDefaults returns the object input at key with the given fields laid over it.
func withDefaults(m property.Map, key string, fields map[string]any) map[string]any {
	out := map[string]any{}
	if in, ok := emulator.Plain(m, key).(map[string]any); ok {
		for k, v := range in {
			out[k] = v
		}
	}
	for k, v := range fields {
		if _, set := out[k]; !set {
			out[k] = v
		}
	}
	return out
}
