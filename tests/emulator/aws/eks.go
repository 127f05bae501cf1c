package aws

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// EndpointDomain is the DNS suffix of emulated EKS API servers and OIDC issuers:
// https://<id>.gr7.<region>.eks.amazonaws.com, as EKS names them. The offline network (tests/emulator/network)
// answers every host under it.
const EndpointDomain = "eks.amazonaws.com"

// CAData is the base64 PEM the emulated clusters report as certificateAuthority.data; set by the plugin from
// $FLEET_EMULATOR_CA (the offline network's CA), else a placeholder.
var CAData = base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nemulated\n-----END CERTIFICATE-----\n"))

// EKSClusterType is the type token of an EKS cluster.
const EKSClusterType = "aws:eks/cluster:Cluster"

// defaultVersion is the Kubernetes version of an emulated cluster whose create names none.
const defaultVersion = "1.31"

// eksCluster is an EKS cluster. Where the run has control planes (controlplane.FromEnv), creating one starts a
// real control plane for it, with what EKS makes on every cluster (createEKSObjects), and deleting it deletes that.
var eksCluster = emulator.Kind{
	Start: func(c emulator.Call, id string) error {
		clusters, ok := controlplane.FromEnv()
		if !ok {
			return nil
		}
		// EKS names are unique per account and region: another stack's cluster of this name (the dev and prod
		// stacks both have a hub in us-east-1) would otherwise share its control plane.
		if rec, found, err := c.Store.Get("aws", EKSClusterType, id); err != nil {
			return err
		} else if found && rec.Scope == c.Scope && rec.URN != string(c.URN) {
			return fmt.Errorf("ResourceInUseException: Cluster already exists with name: %s (in %s, made by %s)", id, c.Scope, rec.URN)
		}
		mode, bootstrap := "CONFIG_MAP", true // EKS's defaults
		if ac, ok := c.Inputs.GetOk("accessConfig"); ok && ac.IsMap() {
			if m, ok := ac.AsMap().GetOk("authenticationMode"); ok && m.IsString() {
				mode = m.AsString()
			}
			if b, ok := ac.AsMap().GetOk("bootstrapClusterCreatorAdminPermissions"); ok && b.IsBool() {
				bootstrap = b.AsBool()
			}
		}
		name := controlplane.Name(c.Scope, id)
		if err := clusters.Create(context.Background(), name, &controlplane.Authentication{
			ClusterID: id, BackendModes: BackendModes(mode), Access: CreatorAccess(bootstrap)}); err != nil {
			return err
		}
		kube, err := clusters.Typed(name)
		if err != nil {
			return err
		}
		version := emulator.Str(c.Inputs, "version")
		if version == "" {
			version = defaultVersion
		}
		return createEKSObjects(context.Background(), kube, version)
	},
	// Once the cluster is recorded, its creator's access applies (SyncAccess).
	Changed: syncAccessOf("name"),
	Stop: func(scope, id string) error {
		if clusters, ok := controlplane.FromEnv(); ok {
			return clusters.Delete(context.Background(), controlplane.Name(scope, id))
		}
		return nil
	},
	ID:       func(c emulator.Call) string { return emulator.Str(c.Inputs, "name") },
	AutoName: emulator.AutoNameKey("name"),
	Computed: func(c emulator.Call, id string) map[string]any {
		name := emulator.Str(c.Inputs, "name")
		host := strings.ToUpper(emulator.RandomHex(16))
		version := emulator.Str(c.Inputs, "version")
		if version == "" {
			version = defaultVersion
		}
		return map[string]any{
			"arn":                  ARN("eks", c.Scope, "cluster/"+name),
			"endpoint":             fmt.Sprintf("https://%s.gr7.%s.%s", host, c.Scope, EndpointDomain),
			"certificateAuthority": map[string]any{"data": CAData},
			"identities": []any{map[string]any{"oidcs": []any{map[string]any{
				"issuer": fmt.Sprintf("https://oidc.%s.%s/id/%s", c.Scope, EndpointDomain, host),
			}}}},
			"vpcConfig": withDefaults(c.Inputs, "vpcConfig", map[string]any{
				"clusterSecurityGroupId": ec2ID("securityGroup"),
			}),
			"accessConfig": withDefaults(c.Inputs, "accessConfig", map[string]any{
				"authenticationMode": "CONFIG_MAP", "bootstrapClusterCreatorAdminPermissions": true,
			}),
			"kubernetesNetworkConfig": withDefaults(c.Inputs, "kubernetesNetworkConfig", map[string]any{
				"serviceIpv4Cidr": "172.20.0.0/16", "ipFamily": "ipv4",
			}),
			"version": version, "platformVersion": "eks.1", "status": "ACTIVE", "createdAt": created,
			"clusterId": emulator.UUID(),
		}
	},
	Replaces: []string{"name", "roleArn"},
}

var eksNodeGroup = emulator.Kind{
	AutoName: emulator.AutoNameKey("nodeGroupName"),
	ID: func(c emulator.Call) string {
		return emulator.Str(c.Inputs, "clusterName") + ":" + emulator.Str(c.Inputs, "nodeGroupName")
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		cluster, group := emulator.Str(c.Inputs, "clusterName"), emulator.Str(c.Inputs, "nodeGroupName")
		return map[string]any{
			"arn":    ARN("eks", c.Scope, fmt.Sprintf("nodegroup/%s/%s/%s", cluster, group, emulator.UUID())),
			"status": "ACTIVE",
			"resources": []any{map[string]any{"autoscalingGroups": []any{
				map[string]any{"name": "eks-" + group + "-" + emulator.RandomHex(8)},
			}}},
		}
	},
	Replaces: []string{"clusterName", "nodeGroupName", "subnetIds", "nodeRoleArn", "instanceTypes", "amiType"},
}

var eksAddon = emulator.Kind{
	ID: func(c emulator.Call) string {
		return emulator.Str(c.Inputs, "clusterName") + ":" + emulator.Str(c.Inputs, "addonName")
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		out := map[string]any{
			"arn": ARN("eks", c.Scope, fmt.Sprintf("addon/%s/%s/%s", emulator.Str(c.Inputs, "clusterName"),
				emulator.Str(c.Inputs, "addonName"), emulator.UUID())),
			"createdAt": created, "modifiedAt": created,
		}
		if v := emulator.Str(c.Inputs, "addonVersion"); v == "" {
			out["addonVersion"] = "v1.0.0-eksbuild.1"
		}
		return out
	},
	Replaces: []string{"clusterName", "addonName"},
}

// syncAccessOf is a Changed hook that brings the control plane of the cluster named by the resource's key (its
// name, or clusterName) in line with the cluster's access entries, where the run has control planes.
func syncAccessOf(key string) func(s *emulator.Store, scope string, state map[string]any) error {
	return func(s *emulator.Store, scope string, state map[string]any) error {
		clusters, ok := controlplane.FromEnv()
		if !ok {
			return nil
		}
		cluster, _ := state[key].(string)
		return SyncAccess(context.Background(), s, clusters, scope, cluster)
	}
}

// eksAccessPolicyAssociation associates an access policy with an access entry; the cluster's control plane
// authorizes it (SyncAccess).
var eksAccessPolicyAssociation = emulator.Kind{
	ID: func(c emulator.Call) string {
		return strings.Join([]string{emulator.Str(c.Inputs, "clusterName"), emulator.Str(c.Inputs, "principalArn"),
			emulator.Str(c.Inputs, "policyArn")}, "#")
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		return map[string]any{"associatedAt": created, "modifiedAt": created}
	},
	Changed:  syncAccessOf("clusterName"),
	Replaces: []string{"clusterName", "principalArn", "policyArn"},
}

// eksAccessEntry is an access entry; a principal has one per cluster (CreateAccessEntry answers
// ResourceInUseException for a second, as for the entry EKS makes a capability's role).
var eksAccessEntry = emulator.Kind{
	ID: func(c emulator.Call) string {
		return emulator.Str(c.Inputs, "clusterName") + ":" + emulator.Str(c.Inputs, "principalArn")
	},
	Start: func(c emulator.Call, id string) error {
		if rec, found, err := c.Store.Get("aws", AccessEntryType, id); err != nil {
			return err
		} else if found && rec.Scope == c.Scope && rec.URN != string(c.URN) {
			return fmt.Errorf("ResourceInUseException: The specified access entry resource is already in use on this "+
				"cluster (%s, made by %s)", id, rec.URN)
		}
		return nil
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		out := map[string]any{
			"accessEntryArn": ARN("eks", c.Scope, fmt.Sprintf("access-entry/%s/%s", emulator.Str(c.Inputs, "clusterName"), emulator.UUID())),
			"createdAt":      created, "modifiedAt": created,
		}
		if emulator.Str(c.Inputs, "userName") == "" {
			out["userName"] = defaultUsername(emulator.Str(c.Inputs, "principalArn"))
		}
		if emulator.Str(c.Inputs, "type") == "" {
			out["type"] = "STANDARD"
		}
		return out
	},
	Changed:  syncAccessOf("clusterName"),
	Replaces: []string{"clusterName", "principalArn"},
}

var eksPodIdentity = emulator.Kind{
	ID: func(c emulator.Call) string {
		return emulator.Str(c.Inputs, "clusterName") + ",a-" + emulator.RandomHex(9)[:17]
	},
	Computed: func(c emulator.Call, id string) map[string]any {
		cluster, assoc, _ := strings.Cut(id, ",")
		return map[string]any{
			"associationId":  assoc,
			"associationArn": ARN("eks", c.Scope, fmt.Sprintf("podidentityassociation/%s/%s", cluster, assoc)),
		}
	},
	Replaces: []string{"clusterName", "namespace", "serviceAccount"},
}
