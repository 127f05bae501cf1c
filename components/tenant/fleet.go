package tenant

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/components/fleetcluster"
	"github.com/gitops-fleet/pulumi-fleet/components/problems"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// Cluster is what a tenant's selector reads of a cluster of the fleet, and the add-ons it runs with an account-wide
// role (of fleetcluster.AccountWideAddons, those enabled and accepted as they are, sorted).
type Cluster struct {
	Name, Environment string
	Hub               bool
	AccountWide       []string
}

// Selects tells whether a tenant is onboarded onto c: c is named in the selector, or c is a spoke of one of its
// environments; with no selector, every spoke.
func (t TenantSpec) Selects(c Cluster) bool {
	s := t.Clusters
	if s == nil {
		return !c.Hub
	}
	return slices.Contains(s.Clusters, c.Name) || (!c.Hub && slices.Contains(s.Environments, c.Environment))
}

// CheckFleet adds the problems of the fleet's tenants (each with its defaults) at tenants[i]: each tenant's own
// (Check), then the rules across the fleet: tenant names unique, a namespace in at most one tenant, selectors that
// name clusters and environments of the fleet and select at least one cluster.
func CheckFleet(ps *problems.List, tenants []TenantSpec, clusters []Cluster) {
	names, namespaces := map[string]int{}, map[string]string{}
	for i, t := range tenants {
		field := problems.Index("tenants", i)
		Check(ps, field, t)
		if j, dup := names[t.Name]; dup {
			ps.Add(field+".name", "%q is also the name of tenants[%d]", t.Name, j)
		} else {
			names[t.Name] = i
		}
		for k, n := range t.Namespaces {
			if other, taken := namespaces[n.Name]; taken && other != t.Name {
				ps.Add(problems.Index(field+".namespaces", k)+".name", "%q is a namespace of tenant %q", n.Name, other)
			}
			namespaces[n.Name] = t.Name
		}
		checkSelector(ps, field, t, clusters)
	}
}

// checkSelector adds, at field.clusters, the selector's clusters and environments that clusters do not have, and a
// selector that picks none of them.
func checkSelector(ps *problems.List, field string, t TenantSpec, clusters []Cluster) {
	if t.Clusters != nil {
		for k, name := range t.Clusters.Clusters {
			if !slices.ContainsFunc(clusters, func(c Cluster) bool { return c.Name == name }) {
				ps.Add(problems.Index(field+".clusters.clusters", k), "%q is not a cluster of the fleet", name)
			}
		}
		for k, env := range t.Clusters.Environments {
			if !slices.ContainsFunc(clusters, func(c Cluster) bool { return c.Environment == env }) {
				ps.Add(problems.Index(field+".clusters.environments", k), "%q is not an environment of the fleet", env)
			}
		}
	}
	for _, c := range clusters {
		if t.Selects(c) && len(c.AccountWide) > 0 && !t.AllowAccountWideAddons {
			ps.Add(field+".clusters", "selects %s, which runs add-ons with an account-wide role (%s): they act on "+
				"the objects of every namespace, the tenant's included; set allowAccountWideAddons: true to accept, "+
				"or give those add-ons addonSettings.policyArns", c.Name, strings.Join(c.AccountWide, ", "))
		}
	}
	if !slices.ContainsFunc(clusters, t.Selects) {
		ps.Add(field+".clusters", "selects no cluster of the fleet; name clusters or environments that have spokes")
	}
}

// AccessEntries are the EKS access entries the tenants selecting a cluster give their owners on it: one entry per
// principal (EKS allows one per principal and cluster), each access policy scoped to the namespaces of every
// tenant that gives the principal that access. Names are "tenant-" and a hash of the principal, stable whatever
// the order of tenants. partition is the cluster's AWS partition ("aws").
func AccessEntries(tenants []TenantSpec, c Cluster, partition string) []fleetcluster.AccessEntry {
	type grant struct{ namespaces map[string][]string }
	byPrincipal := map[string]*grant{}
	var order []string
	for _, t := range tenants {
		if !t.Selects(c) {
			continue
		}
		for _, o := range t.Owners {
			g, ok := byPrincipal[o.Arn]
			if !ok {
				g = &grant{namespaces: map[string][]string{}}
				byPrincipal[o.Arn] = g
				order = append(order, o.Arn)
			}
			for _, n := range t.Namespaces {
				g.namespaces[o.Access] = append(g.namespaces[o.Access], n.Name)
			}
		}
	}
	slices.Sort(order)
	var out []fleetcluster.AccessEntry
	for _, principal := range order {
		g := byPrincipal[principal]
		var policies []fleetcluster.AccessPolicy
		for _, access := range []string{"admin", "edit", "view"} {
			if ns := g.namespaces[access]; len(ns) > 0 {
				slices.Sort(ns)
				policies = append(policies, fleetcluster.AccessPolicy{
					PolicyArn:  fmt.Sprintf("arn:%s:eks::aws:cluster-access-policy/%s", partition, accessPolicies[access]),
					Namespaces: slices.Compact(ns),
				})
			}
		}
		out = append(out, fleetcluster.AccessEntry{Name: hashedName(principal),
			PrincipalArn: pulumi.String(principal), AccessPolicies: policies})
	}
	return out
}
