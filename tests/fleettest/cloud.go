package fleettest

import (
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/account"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
)

// Cloud is the run's emulated AWS and GitHub: the records of what the providers created, the offline STS, the EKS
// Capabilities API and the account's APIs fleet preflight asks.
type Cloud struct{ env *Env }

// Cloud is the run's emulated cloud.
func (e *Env) Cloud() *Cloud { return &Cloud{e} }

// Store is the emulated cloud's store.
func (c *Cloud) Store() *emulator.Store { return c.env.run.off.Store }

// STS is the offline STS.
func (c *Cloud) STS() *aws.STS { return c.env.run.off.STS }

// Capabilities is the offline EKS Capabilities API.
func (c *Cloud) Capabilities() *capabilities.API { return c.env.run.off.Capabilities }

// Account is the offline IAM simulator, Service Quotas and EC2 describes (fleet preflight's).
func (c *Cloud) Account() *account.API { return c.env.run.off.Account }

// Records are the cloud's resources of package pkg and type typ ("" for any of either).
func (c *Cloud) Records(pkg, typ string) []emulator.Record {
	all, err := c.Store().List()
	if err != nil {
		c.env.t.Fatal(err)
	}
	var out []emulator.Record
	for _, r := range all {
		if (pkg == "" || r.Package == pkg) && (typ == "" || r.Type == typ) {
			out = append(out, r)
		}
	}
	return out
}

// Plain is the record's state with secrets revealed.
func (c *Cloud) Plain(r emulator.Record) map[string]any {
	state, err := r.Plain()
	if err != nil {
		c.env.t.Fatal(err)
	}
	return state
}

// Record is the cloud's record of package pkg, type typ and id; the test fails when there is none.
func (c *Cloud) Record(pkg, typ, id string) emulator.Record {
	r, ok, err := c.Store().Get(pkg, typ, id)
	if err != nil || !ok {
		c.env.t.Fatalf("no %s %s in the cloud: %v", typ, id, err)
	}
	return r
}

// EKS is the EKS API of region as a program on this machine reaches it (the offline EKS: DescribeCluster from the
// emulated cluster, ListInsights from SetInsights), signing as the deployer. Its error is always nil: it has the
// shape of status.WithEKS's client factory.
func (c *Cloud) EKS(region string) (status.EKSAPI, error) {
	return c.env.run.off.EKSAPI(region), nil
}
