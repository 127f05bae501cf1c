package mocks

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/gitops-fleet/pulumi-fleet/components/ledger"
	awsemulator "github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Account is the AWS account every mocked ARN carries.
const Account = "123456789012"

// Project and Stack are the names a Cloud runs programs under.
const (
	Project = "fleet"
	Stack   = "test"
)

// Resource is one registration the program made.
type Resource struct {
	Type     string
	Name     string
	ID       string
	Custom   bool
	Parent   string // parent URN
	Provider string // provider reference ("<urn>::<id>") of a custom resource
	// Providers are the provider references a component was given, by package.
	Providers map[string]string
	// Dependencies are the URNs of the resources it was registered after (dependsOn).
	Dependencies []string
	// Region is the region of the aws provider the resource went through ("" for none).
	Region string
	Inputs resource.PropertyMap
	State  resource.PropertyMap
	// StandIn marks resources the Cloud registered itself to back pulumi-eks's references.
	StandIn bool
	// RetainOnDelete is the resource option: deleting the resource leaves it in the cloud.
	RetainOnDelete bool
}

// Cloud is a pulumi.MockResourceMonitor; create it with New and run programs with Run.
type Cloud struct {
	mu        sync.Mutex
	ctx       *pulumi.Context
	resources []Resource
	regions   map[string]string // aws provider ID -> region
	standIns  map[string]resource.PropertyMap
	stacks    map[string]map[string]any // stack name -> outputs, for stack references
}

// New returns an empty Cloud.
func New() *Cloud {
	return &Cloud{regions: map[string]string{}, standIns: map[string]resource.PropertyMap{}, stacks: map[string]map[string]any{}}
}

// SetStack gives another stack's outputs, which a stack reference to name reads.
func (c *Cloud) SetStack(name string, outputs map[string]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stacks[name] = outputs
}

// Run runs program against the Cloud and returns the program's error, if any.
func (c *Cloud) Run(program pulumi.RunFunc) error {
	return pulumi.RunErr(func(ctx *pulumi.Context) error {
		c.Bind(ctx)
		return program(ctx)
	}, pulumi.WithMocks(Project, Stack, c))
}

// Bind gives the Cloud the context of a program it did not start (a provider's Construct under
// integration.NewServer), which it needs to register pulumi-eks's stand-ins.
func (c *Cloud) Bind(ctx *pulumi.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ctx = ctx
}

// Resources returns the program's registrations in order, without stand-ins.
func (c *Cloud) Resources() []Resource {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Resource
	for _, r := range c.resources {
		if !r.StandIn {
			out = append(out, r)
		}
	}
	return out
}

// OfType returns the registrations of one type.
func (c *Cloud) OfType(typ string) []Resource {
	var out []Resource
	for _, r := range c.Resources() {
		if r.Type == typ {
			out = append(out, r)
		}
	}
	return out
}

// Named returns the registration of a type and name, and false when there is none.
func (c *Cloud) Named(typ, name string) (Resource, bool) {
	for _, r := range c.OfType(typ) {
		if r.Name == name {
			return r, true
		}
	}
	return Resource{}, false
}

// URN returns the URN the mock monitor gives a resource (parentType is "" for top-level resources).
func URN(parentType, typ, name string) string {
	prefix := ""
	if parentType != "" {
		prefix = parentType + "$"
	}
	return fmt.Sprintf("urn:pulumi:%s::%s::%s%s::%s", Stack, Project, prefix, typ, name)
}

// providerID is the ID part of a provider reference "<urn>::<id>".
func providerID(ref string) string {
	if i := strings.LastIndex(ref, "::"); i >= 0 {
		return ref[i+2:]
	}
	return ""
}

// NewResource implements pulumi.MockResourceMonitor.
func (c *Cloud) NewResource(args pulumi.MockResourceArgs) (string, resource.PropertyMap, error) {
	rec := Resource{
		Type: args.TypeToken, Name: args.Name, Custom: args.Custom, Provider: args.Provider,
		Inputs: args.Inputs, ID: args.Name + "-id",
	}
	if rpc := args.RegisterRPC; rpc != nil {
		rec.Parent = rpc.GetParent()
		rec.Providers = maps.Clone(rpc.GetProviders())
		rec.Dependencies = rpc.GetDependencies()
		rec.RetainOnDelete = rpc.GetRetainOnDelete()
	}
	c.mu.Lock()
	rec.Region = c.regionOf(rec)
	standIn, isStandIn := c.standIns[args.Name]
	c.mu.Unlock()

	var err error
	switch {
	case isStandIn:
		rec.StandIn, rec.State = true, standIn
	case args.TypeToken == "eks:index:Cluster":
		rec.State, err = c.eksCluster(rec)
	case args.TypeToken == ledger.TypeToken:
		rec.State, err = clusterLedger(rec)
	case args.TypeToken == "pulumi:pulumi:StackReference":
		c.mu.Lock()
		outputs := c.stacks[args.Inputs["name"].StringValue()]
		c.mu.Unlock()
		rec.State = resource.NewPropertyMapFromMap(map[string]any{"name": args.Inputs["name"].StringValue(),
			"outputs": outputs, "secretOutputNames": []any{}})
	default:
		rec.State = c.state(rec)
	}
	if err != nil {
		return "", nil, err
	}

	c.mu.Lock()
	if args.TypeToken == "pulumi:providers:aws" {
		c.regions[rec.ID] = args.Inputs["region"].StringValue()
	}
	c.resources = append(c.resources, rec)
	c.mu.Unlock()
	return rec.ID, rec.State, nil
}

// regionOf is the region of the aws provider a registration names; c.mu is held.
func (c *Cloud) regionOf(r Resource) string {
	if r.Type == "pulumi:providers:aws" {
		return r.Inputs["region"].StringValue()
	}
	ref := r.Provider
	if aws, ok := r.Providers["aws"]; ok {
		ref = aws
	}
	return c.regions[providerID(ref)]
}

// Call implements pulumi.MockResourceMonitor: the invokes of the components.
func (c *Cloud) Call(args pulumi.MockCallArgs) (resource.PropertyMap, error) {
	c.mu.Lock()
	region := c.regions[providerID(args.Provider)]
	c.mu.Unlock()
	switch args.Token {
	case "pulumi:pulumi:getResource":
		// pulumi.WithMocks answers this itself; a provider under integration.NewServer asks the Cloud.
		return c.getResource(args.Args["urn"].StringValue())
	case "aws:index/getCallerIdentity:getCallerIdentity":
		return resource.NewPropertyMapFromMap(map[string]any{
			"accountId": Account, "arn": "arn:aws:iam::" + Account + ":user/ci", "userId": "AIDAMOCK", "id": Account,
		}), nil
	case "aws:iam/getSessionContext:getSessionContext":
		arn := args.Args["arn"].StringValue()
		return resource.NewPropertyMapFromMap(map[string]any{"arn": arn, "issuerArn": arn, "id": arn}), nil
	case "aws:index/getPartition:getPartition":
		return resource.NewPropertyMapFromMap(map[string]any{
			"partition": "aws", "dnsSuffix": "amazonaws.com", "reverseDnsPrefix": "com.amazonaws", "id": "aws",
		}), nil
	case "aws:eks/getAddonVersion:getAddonVersion":
		addon, k8s := args.Args["addonName"].StringValue(), args.Args["kubernetesVersion"].StringValue()
		return resource.NewPropertyMapFromMap(map[string]any{
			"id": addon, "addonName": addon, "kubernetesVersion": k8s, "version": awsemulator.DefaultAddonVersion(addon, k8s),
		}), nil
	case "fleet:index:getStillTagged":
		// The offline cloud's answer for a cluster nothing was tagged to.
		return resource.NewPropertyMapFromMap(map[string]any{"arns": []any{}}), nil
	case "aws:index/getRegion:getRegion":
		if region == "" {
			return nil, fmt.Errorf("getRegion through a provider with no region (%q)", args.Provider)
		}
		return resource.NewPropertyMapFromMap(map[string]any{"name": region, "id": region}), nil
	}
	return nil, fmt.Errorf("mocks: no answer for invoke %s", args.Token)
}

// getResource answers a resource reference lookup by URN with the registration's ID and state.
func (c *Cloud) getResource(urn string) (resource.PropertyMap, error) {
	name := urn[strings.LastIndex(urn, "::")+2:]
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.resources {
		if r.Name == name && strings.HasSuffix(urn, r.Type+"::"+name) {
			return resource.PropertyMap{
				"urn":   resource.NewProperty(urn),
				"id":    resource.NewProperty(r.ID),
				"state": resource.NewProperty(r.State),
			}, nil
		}
	}
	return nil, fmt.Errorf("mocks: unknown resource %s", urn)
}
