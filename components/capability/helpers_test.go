package capability

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/aws"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator/capabilities"
)

const (
	testRegion   = "us-west-2"
	testCluster  = "hub"
	testInstance = "arn:aws:sso:::instance/ssoins-0123456789abcdef"
)

// offlineEKS is the offline cloud's EKS Capabilities API, reached by the AWS SDK through AWS_ENDPOINT_URL_EKS and
// AWS_CA_BUNDLE, with the cluster testCluster and the roles of roles (name -> trust policy) in its store.
type offlineEKS struct {
	api   *capabilities.API
	store *emulator.Store
}

func startEKS(t *testing.T, roles map[string]string) offlineEKS {
	t.Helper()
	dir := t.TempDir()
	store := emulator.OpenStore(filepath.Join(dir, "cloud"))
	put := func(pkg, typ, id, scope string, state map[string]any) {
		raw, err := emulator.PlainState(state)
		if err != nil {
			t.Fatal(err)
		}
		if err := store.Put(emulator.Record{Package: pkg, Type: typ, ID: id, Scope: scope, URN: "test:" + id, State: raw}); err != nil {
			t.Fatal(err)
		}
	}
	put("aws", aws.EKSClusterType, testCluster, testRegion, map[string]any{"name": testCluster})
	for name, trust := range roles {
		put("aws", "aws:iam/role:Role", name, "global", map[string]any{"arn": roleARN(name), "assumeRolePolicy": trust})
	}
	api := capabilities.New(store, http.NotFoundHandler())
	api.Settle = 30 * time.Millisecond
	capabilities.Serve(t, api, testRegion)
	first, most := firstPoll, maxPoll
	firstPoll, maxPoll = 10*time.Millisecond, 10*time.Millisecond
	t.Cleanup(func() { firstPoll, maxPoll = first, most })
	return offlineEKS{api: api, store: store}
}

func roleARN(name string) string { return "arn:aws:iam::" + aws.Account + ":role/" + name }

// recorded is the capability as the offline EKS keeps it (its Capability object).
func (e offlineEKS) recorded(t *testing.T, name string) (map[string]any, bool) {
	t.Helper()
	rec, found, err := e.store.Get("eks", capabilities.Type, testCluster+"/"+name)
	if err != nil || !found {
		return nil, false
	}
	plain, err := rec.Plain()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := plain["capability"].(map[string]any)
	return c, true
}

// args are valid inputs for the cluster, acting as role.
func args(role string) ArgoCDCapabilityArgs {
	return ArgoCDCapabilityArgs{ClusterName: testCluster, RoleArn: roleARN(role),
		ArgoCD: CapabilityArgoCD{IdentityCenter: CapabilityIdentityCenter{InstanceArn: testInstance}}}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}
