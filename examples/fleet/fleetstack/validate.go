package fleetstack

import (
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// VPC CIDR sizes a cluster accepts: /16 (the largest VPC AWS allows) to /24 (room for two subnets per zone).
const (
	minPrefixBits = 16
	maxPrefixBits = 24
)

// Validate checks the whole config and reports every problem at once, each under its config key.
func (c Config) Validate() error {
	var ps Problems
	key := func(i int, field string) string { return fmt.Sprintf("%s:clusters[%d].%s", Namespace, i, field) }
	if len(c.Clusters) == 0 {
		ps.add(Namespace+":clusters", "list at least one cluster")
	}
	names := map[string]int{}
	type seen struct {
		i int
		p netip.Prefix
	}
	var cidrs []seen
	hubs := 0
	for i, cl := range c.Clusters {
		if errs := validation.IsDNS1123Label(cl.Name); len(errs) > 0 {
			ps.add(key(i, "name"), "%q is not a DNS-1123 label: %s", cl.Name, strings.Join(errs, "; "))
		} else if j, dup := names[cl.Name]; dup {
			ps.add(key(i, "name"), "%q is also the name of clusters[%d]; names must be unique", cl.Name, j)
		} else {
			names[cl.Name] = i
		}
		if !slices.Contains(KnownRegions, cl.Region) {
			ps.add(key(i, "region"), "%q is not an AWS region with EKS; use one of %s", cl.Region, strings.Join(KnownRegions, ", "))
		}
		switch cl.Role {
		case Hub:
			hubs++
			if hubs > 1 {
				ps.add(key(i, "role"), "a second hub; a fleet has one hub")
			}
		case Spoke:
		default:
			ps.add(key(i, "role"), "%q: want hub or spoke", cl.Role)
		}
		p, err := netip.ParsePrefix(cl.VpcCidr)
		switch {
		case err != nil || !p.Addr().Is4():
			ps.add(key(i, "vpcCidr"), "%q is not an IPv4 CIDR such as 10.10.0.0/16", cl.VpcCidr)
		case p != p.Masked():
			ps.add(key(i, "vpcCidr"), "%q has host bits set; the network is %s", cl.VpcCidr, p.Masked())
		case p.Bits() < minPrefixBits || p.Bits() > maxPrefixBits:
			ps.add(key(i, "vpcCidr"), "%q: the prefix length must be /%d to /%d", cl.VpcCidr, minPrefixBits, maxPrefixBits)
		default:
			for _, q := range cidrs {
				if p.Overlaps(q.p) {
					ps.add(key(i, "vpcCidr"), "%s overlaps clusters[%d].vpcCidr %s (%s)", p, q.i, q.p, c.Clusters[q.i].Name)
				}
			}
			cidrs = append(cidrs, seen{i, p})
		}
	}
	if hubs == 0 {
		for i, cl := range c.Clusters {
			if cl.Role == Spoke {
				ps.add(key(i, "role"), "spoke %q has no hub to register into; give one cluster role hub", cl.Name)
			}
		}
	}
	if c.Repositories.Addons == nil || c.Repositories.Addons.URL == "" {
		ps.add(Namespace+":repositories.addons.url", "set the Git repository of the add-on ApplicationSets")
	}
	for name, r := range map[string]*Repo{"addons": c.Repositories.Addons, "workloads": c.Repositories.Workloads} {
		if u, err := url.Parse(urlOf(r)); err == nil && u.User != nil && (u.Scheme == "https" || u.Scheme == "http") {
			ps.add(Namespace+":repositories."+name+".url", "holds credentials (user:token@), which would reach the "+
				"cluster secrets, Git and the state; give Argo CD a repository credential secret instead")
		}
	}
	if g := c.Git; g != nil {
		if g.Owner == "" {
			ps.add(Namespace+":git.owner", "set the GitHub owner (user or organisation) of the repository")
		}
		if g.Repository == "" {
			ps.add(Namespace+":git.repository", "set the GitHub repository the cluster secrets are committed to")
		}
	}
	return ps.err()
}

func urlOf(r *Repo) string {
	if r == nil {
		return ""
	}
	return r.URL
}
