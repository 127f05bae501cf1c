package fleetstack

import (
	"errors"
	"slices"
	"testing"
)

func devConfig() Config {
	return Config{
		Clusters: []Cluster{
			{Name: "hub", Region: "us-east-1", Role: Hub, VpcCidr: "10.10.0.0/16"},
			{Name: "spoke-use2", Region: "us-east-2", Role: Spoke, VpcCidr: "10.20.0.0/16"},
			{Name: "spoke-usw2", Region: "us-west-2", Role: Spoke, VpcCidr: "10.30.0.0/16"},
		},
		Repositories: Repositories{Addons: &Repo{URL: "https://github.com/example/addons", Path: "addons"}},
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name     string
		change   func(*Config)
		wantKeys []string
	}{
		{"valid", func(*Config) {}, nil},
		{"no clusters", func(c *Config) { c.Clusters = nil }, []string{"gitops-fleet:clusters"}},
		{"name not a DNS label", func(c *Config) { c.Clusters[1].Name = "Spoke_1" }, []string{"gitops-fleet:clusters[1].name"}},
		{"duplicate name", func(c *Config) { c.Clusters[2].Name = "hub" }, []string{"gitops-fleet:clusters[2].name"}},
		{"unknown region", func(c *Config) { c.Clusters[0].Region = "moon-1" }, []string{"gitops-fleet:clusters[0].region"}},
		{"bad role", func(c *Config) { c.Clusters[1].Role = "leaf" }, []string{"gitops-fleet:clusters[1].role"}},
		{"two hubs", func(c *Config) { c.Clusters[1].Role = Hub }, []string{"gitops-fleet:clusters[1].role"}},
		{"no hub", func(c *Config) { c.Clusters[0].Role = Spoke },
			[]string{"gitops-fleet:clusters[0].role", "gitops-fleet:clusters[1].role", "gitops-fleet:clusters[2].role"}},
		{"not a CIDR", func(c *Config) { c.Clusters[0].VpcCidr = "10.10.0.0" }, []string{"gitops-fleet:clusters[0].vpcCidr"}},
		{"IPv6", func(c *Config) { c.Clusters[0].VpcCidr = "fd00::/56" }, []string{"gitops-fleet:clusters[0].vpcCidr"}},
		{"host bits", func(c *Config) { c.Clusters[0].VpcCidr = "10.10.1.0/16" }, []string{"gitops-fleet:clusters[0].vpcCidr"}},
		{"too large", func(c *Config) { c.Clusters[0].VpcCidr = "10.0.0.0/8" }, []string{"gitops-fleet:clusters[0].vpcCidr"}},
		{"too small", func(c *Config) { c.Clusters[0].VpcCidr = "10.10.0.0/25" }, []string{"gitops-fleet:clusters[0].vpcCidr"}},
		{"overlap", func(c *Config) { c.Clusters[2].VpcCidr = "10.10.128.0/17" }, []string{"gitops-fleet:clusters[2].vpcCidr"}},
		{"no addons repo", func(c *Config) { c.Repositories.Addons = nil }, []string{"gitops-fleet:repositories.addons.url"}},
		{"token in repo URL", func(c *Config) { c.Repositories.Addons.URL = "https://ci:ghp_x@github.com/acme/addons" },
			[]string{"gitops-fleet:repositories.addons.url"}},
		{"git without owner and repository", func(c *Config) { c.Git = &Git{} },
			[]string{"gitops-fleet:git.owner", "gitops-fleet:git.repository"}},
		{"all at once", func(c *Config) {
			c.Clusters[0].Region, c.Clusters[1].VpcCidr, c.Clusters[2].Name = "nowhere", "x", "hub"
		}, []string{"gitops-fleet:clusters[0].region", "gitops-fleet:clusters[1].vpcCidr", "gitops-fleet:clusters[2].name"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := devConfig()
			tc.change(&c)
			err := c.Validate()
			var got []string
			var ps *Problems
			if errors.As(err, &ps) {
				for _, p := range *ps {
					got = append(got, p.Key)
				}
			} else if err != nil {
				t.Fatalf("Validate returned %T %v, want *Problems", err, err)
			}
			if !slices.Equal(got, tc.wantKeys) {
				t.Errorf("problems at %v, want %v (%v)", got, tc.wantKeys, err)
			}
		})
	}
}
