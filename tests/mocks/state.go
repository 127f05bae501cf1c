package mocks

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	awseks "github.com/pulumi/pulumi-aws/sdk/v6/go/aws/eks"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// state is what a created resource reports: its inputs plus the outputs the components read.
func (c *Cloud) state(r Resource) resource.PropertyMap {
	s := r.Inputs.Copy()
	set := func(k string, v any) { s[resource.PropertyKey(k)] = resource.NewPropertyValue(v) }
	switch r.Type {
	case "aws:iam/role:Role":
		name, path := r.Name, "/"
		if v, ok := s["name"]; ok && v.IsString() {
			name = v.StringValue()
		}
		if v, ok := s["path"]; ok && v.IsString() {
			path = v.StringValue()
		}
		set("name", name)
		set("arn", fmt.Sprintf("arn:aws:iam::%s:role%s%s", Account, path, name))
	case "aws:iam/openIdConnectProvider:OpenIdConnectProvider":
		set("arn", fmt.Sprintf("arn:aws:iam::%s:oidc-provider/%s", Account, strings.TrimPrefix(s["url"].StringValue(), "https://")))
	case "aws:kms/key:Key":
		set("arn", fmt.Sprintf("arn:aws:kms:%s:%s:key/%s", r.Region, Account, r.ID))
		set("keyId", r.ID)
	case "aws:sqs/queue:Queue":
		name := s["name"].StringValue()
		set("arn", fmt.Sprintf("arn:aws:sqs:%s:%s:%s", r.Region, Account, name))
		set("url", fmt.Sprintf("https://sqs.%s.amazonaws.com/%s/%s", r.Region, Account, name))
	case "aws:s3/bucketV2:BucketV2":
		if v, ok := s["bucketPrefix"]; ok && v.IsString() {
			set("bucket", v.StringValue()+"mock")
		}
		set("arn", "arn:aws:s3:::"+s["bucket"].StringValue())
	case "aws:ec2/launchTemplate:LaunchTemplate":
		set("latestVersion", 1)
	case "awsx:ec2:Vpc":
		zones := 3
		if v, ok := s["numberOfAvailabilityZones"]; ok && v.IsNumber() {
			zones = int(v.NumberValue())
		}
		var private, public []any
		for i := range zones {
			private = append(private, fmt.Sprintf("subnet-%s-private-%d", r.Name, i+1))
			public = append(public, fmt.Sprintf("subnet-%s-public-%d", r.Name, i+1))
		}
		set("vpcId", "vpc-"+r.Name)
		set("privateSubnetIds", private)
		set("publicSubnetIds", public)
	case "kubernetes:helm.sh/v3:Release":
		set("status", map[string]any{
			"name": s["name"].StringValue(), "namespace": s["namespace"].StringValue(), "status": "deployed",
			"chart": s["chart"].StringValue(), "version": s["version"].StringValue(), "revision": 1,
		})
	case "github:index/repositoryFile:RepositoryFile":
		if _, ok := s["branch"]; !ok {
			set("branch", "main")
		}
		set("commitSha", fmt.Sprintf("%040x", fnvHash(r.Name)))
	case "fleet:index:ArgoCDCapability":
		cluster, region, name := s["clusterName"].StringValue(), s["region"].StringValue(), "argocd"
		if v, ok := s["capabilityName"]; ok && v.IsString() {
			name = v.StringValue()
		}
		set("arn", fmt.Sprintf("arn:aws:eks:%s:%s:capability/%s/argocd/%s/mock", region, Account, cluster, name))
		set("status", "ACTIVE")
		set("version", "3.1.8-eks-1")
		set("serverUrl", fmt.Sprintf("https://%s.eks-capabilities.%s.amazonaws.com", cluster, region))
		set("healthIssues", []any{})
	case "github:index/repositoryPullRequest:RepositoryPullRequest":
		set("number", int(fnvHash(r.Name)%1000)+1)
	}
	return s
}

func fnvHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// eksCluster registers stand-ins for the EKS cluster and the OIDC provider that pulumi-eks's Cluster
// creates, waits until the mock monitor knows them, and returns the component's outputs referring to them.
func (c *Cloud) eksCluster(r Resource) (resource.PropertyMap, error) {
	name := r.Inputs["name"].StringValue()
	version := "1.33"
	if v, ok := r.Inputs["version"]; ok && v.IsString() {
		version = v.StringValue()
	}
	id := fmt.Sprintf("%016X", fnvHash(r.Region+"/"+name))
	issuerHost := fmt.Sprintf("oidc.eks.%s.amazonaws.com/id/%s", r.Region, id)
	endpoint := fmt.Sprintf("https://%s.gr7.%s.eks.amazonaws.com", id, r.Region)
	caData := base64.StdEncoding.EncodeToString([]byte("mock CA of " + name))

	clusterURN, clusterID, err := c.standIn("aws:eks/cluster:Cluster", r.Name+"-eksCluster", &awseks.Cluster{},
		map[string]any{
			"name":                 name,
			"arn":                  fmt.Sprintf("arn:aws:eks:%s:%s:cluster/%s", r.Region, Account, name),
			"roleArn":              fmt.Sprintf("arn:aws:iam::%s:role/%s-eksRole", Account, r.Name),
			"endpoint":             endpoint,
			"version":              version,
			"certificateAuthority": map[string]any{"data": caData},
			"identities":           []any{map[string]any{"oidcs": []any{map[string]any{"issuer": "https://" + issuerHost}}}},
		})
	if err != nil {
		return nil, err
	}
	kubeconfig := map[string]any{
		"apiVersion": "v1", "kind": "Config",
		"clusters": []any{map[string]any{"name": "kubernetes", "cluster": map[string]any{
			"server": endpoint, "certificate-authority-data": caData}}},
		"users": []any{map[string]any{"name": "aws", "user": map[string]any{"exec": map[string]any{
			"apiVersion": "client.authentication.k8s.io/v1beta1", "command": "aws",
			"args": []any{"eks", "get-token", "--cluster-name", name, "--region", r.Region}}}}},
	}
	kubeconfigJSON, err := json.Marshal(kubeconfig)
	if err != nil {
		return nil, err
	}
	s := r.Inputs.Copy()
	s["kubeconfig"] = resource.NewPropertyValue(kubeconfig)
	s["kubeconfigJson"] = resource.NewProperty(string(kubeconfigJSON))
	s["eksCluster"] = resource.MakeCustomResourceReference(clusterURN, clusterID, "")
	// As pulumi-eks v2.8.1 sends it: core.accessEntries holds resource references where its Go SDK expects
	// objects, so a component that reads core fails here as it would against the real provider.
	s["core"] = resource.NewProperty(resource.PropertyMap{
		"endpoint":      resource.NewProperty(endpoint),
		"accessEntries": resource.NewProperty([]resource.PropertyValue{resource.MakeCustomResourceReference(clusterURN, clusterID, "")}),
	})
	return s, nil
}

// standIn registers a resource with the given outputs through the program's context and waits for its URN,
// after which the mock monitor can resolve references to it.
func (c *Cloud) standIn(typ, name string, res pulumi.CustomResource, outputs map[string]any,
) (resource.URN, resource.ID, error) {
	c.mu.Lock()
	ctx := c.ctx
	c.standIns[name] = resource.NewPropertyMapFromMap(outputs)
	c.mu.Unlock()
	if ctx == nil {
		return "", "", fmt.Errorf("mocks: run programs with Cloud.Run to resolve pulumi-eks references")
	}
	if err := ctx.RegisterResource(typ, name, nil, res); err != nil {
		return "", "", err
	}
	urns := make(chan pulumi.URN, 1)
	res.URN().ApplyT(func(u pulumi.URN) pulumi.URN {
		urns <- u
		return u
	})
	return resource.URN(<-urns), resource.ID(name + "-id"), nil
}
