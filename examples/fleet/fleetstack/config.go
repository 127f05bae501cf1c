package fleetstack

import (
	"errors"
	"fmt"

	fleet "github.com/gitops-fleet/pulumi-fleet/sdk/go/fleet"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/mapper"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// Namespace is the config namespace of the example: its project name.
const Namespace = "gitops-fleet"

// Config is the fleet a stack describes: each gitops-fleet:<key> of the stack config read straight into the Go
// SDK's types (encoding/json matches the schema's camelCase keys to their fields), as the TypeScript and Python
// examples read it into theirs. There is no copy of the schema's types here.
type Config struct {
	// Clusters is gitops-fleet:clusters, the fleet's clusters; exactly one has role hub when any is a spoke
	// (unless hub names the hub of another stack).
	Clusters []fleet.ClusterSpec `json:"clusters"`
	// Repositories is gitops-fleet:repositories, the Git repositories Argo CD bootstraps from.
	Repositories fleet.Repositories `json:"repositories"`
	// Git is gitops-fleet:git: when set, every cluster secret is committed to this GitHub repository.
	Git *fleet.GitDelivery `json:"git,omitempty"`
	// Defaults is gitops-fleet:defaults, what every cluster inherits unless it sets its own (Fleet's defaults).
	Defaults *fleet.ClusterDefaults `json:"defaults,omitempty"`
	// Delivery is gitops-fleet:delivery: when set, the fleet's own stacks are delivered by GitOps from the hub.
	Delivery *Delivery `json:"delivery,omitempty"`
	// CidrPool is gitops-fleet:cidrPool, where VPC CIDRs of clusters without one are allocated (Fleet's cidrPool).
	CidrPool string `json:"cidrPool,omitempty"`
	// AllowRemoval is gitops-fleet:allowRemoval: let an up remove clusters that were not decommissioned first.
	AllowRemoval bool `json:"allowRemoval,omitempty"`
	// Tenants is gitops-fleet:tenants, the teams onboarded onto the fleet (Fleet's tenants).
	Tenants []fleet.TenantSpec `json:"tenants,omitempty"`
	// Hub is gitops-fleet:hub, the hub of another stack this stack's spokes join (Fleet's hub: a shard).
	Hub *fleet.HubRef `json:"hub,omitempty"`
	// Shards is gitops-fleet:shards, the stacks of spokes that join this stack's hub (Fleet's shards).
	Shards []fleet.Shard `json:"shards,omitempty"`
	// Argocd is gitops-fleet:argocd, the hub's Argo CD settings (Fleet's argocd: mode selfManaged or managed, the
	// chart's settings or the managed capability's).
	Argocd *fleet.Hub `json:"argocd,omitempty"`
	// Rollout is gitops-fleet:rollout, the record `fleet rollout` keeps of the last rollout (docs/waves.md): exported
	// as it is, so the stack's rollout output says its outcome. The program reads nothing else of it.
	Rollout map[string]any `json:"rollout,omitempty"`
}

// The roles of a cluster (ClusterSpec's role).
const (
	// Hub runs Argo CD and manages the fleet.
	Hub = "hub"
	// Spoke is managed by the hub's Argo CD.
	Spoke = "spoke"
)

// Values are the config as stack config: gitops-fleet:<key> -> its value in the schema's keys (the SDK types'
// pulumi tags, encoded by Pulumi's mapper), for the keys that are set: what Load reads back. The bench writes its
// generated fleets' stack files with it.
func (c Config) Values() (map[string]any, error) {
	md := mapper.New(&mapper.Opts{IgnoreMissing: true})
	out := map[string]any{}
	for key, v := range map[string]any{"clusters": c.Clusters, "repositories": c.Repositories, "git": c.Git,
		"defaults": c.Defaults, "delivery": c.Delivery, "tenants": c.Tenants, "hub": c.Hub, "shards": c.Shards,
		"argocd": c.Argocd} {
		encoded, err := md.EncodeValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s:%s: %w", Namespace, key, err)
		}
		if encoded != nil {
			out[Namespace+":"+key] = encoded
		}
	}
	if c.CidrPool != "" {
		out[Namespace+":cidrPool"] = c.CidrPool
	}
	if c.AllowRemoval {
		out[Namespace+":allowRemoval"] = true
	}
	return out, nil
}

// Load reads the stack config; a key that is not valid JSON of its shape is an error naming it.
func Load(ctx *pulumi.Context) (Config, error) {
	cfg := config.New(ctx, Namespace)
	var c Config
	for key, dst := range map[string]any{"clusters": &c.Clusters, "repositories": &c.Repositories, "git": &c.Git,
		"defaults": &c.Defaults, "delivery": &c.Delivery, "tenants": &c.Tenants, "hub": &c.Hub, "shards": &c.Shards,
		"argocd": &c.Argocd, "rollout": &c.Rollout} {
		if err := cfg.TryObject(key, dst); err != nil && !isMissing(err) {
			return Config{}, &Problems{{Key: Namespace + ":" + key, Message: err.Error()}}
		}
	}
	c.CidrPool = cfg.Get("cidrPool")
	c.AllowRemoval = cfg.GetBool("allowRemoval")
	return c, nil
}

func isMissing(err error) bool { return errors.Is(err, config.ErrMissingVar) }
