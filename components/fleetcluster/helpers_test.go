package fleetcluster

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/gitops-fleet/pulumi-fleet/tests/mocks"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

// build runs one FleetCluster under mocks and returns the cloud and the component.
func build(t *testing.T, name string, args FleetClusterArgs, opts ...pulumi.ResourceOption) (*mocks.Cloud, *FleetCluster) {
	t.Helper()
	cloud := mocks.New()
	var fc *FleetCluster
	err := cloud.Run(func(ctx *pulumi.Context) error {
		var err error
		fc, err = NewFleetCluster(ctx, name, args, opts...)
		return err
	})
	if err != nil {
		t.Fatalf("NewFleetCluster: %v", err)
	}
	return cloud, fc
}

// policyOf decodes an IAM policy document input.
func policyOf(t *testing.T, r mocks.Resource, key string) iampolicy.Document {
	t.Helper()
	var doc iampolicy.Document
	s, _ := r.Input(key).(string)
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatalf("%s.%s is not a policy document: %v (%q)", r.Name, key, err, s)
	}
	return doc
}

// dnsSettings are the external_dns settings every test that enables external_dns needs.
var dnsSettings = &AddonSettings{ExternalDns: &ExternalDNSSettings{
	HostedZoneIds: []string{"Z0123456789ABCDEFGHIJ"}, DomainFilters: []string{"example.com"},
}}

// expectProblem validates args (with their defaults) and expects a problem at field whose message contains want.
func expectProblem(t *testing.T, args FleetClusterArgs, field, want, reason string) {
	t.Helper()
	err := Validate(withDefaults(args, "dev", "test"), args)
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("%s: want a *ValidationError, got %v", reason, err)
	}
	for _, p := range verr.Problems {
		if p.Field == field && strings.Contains(p.Message, want) {
			return
		}
	}
	t.Errorf("%s: no problem at %s containing %q in:\n%v", reason, field, want, err)
}
