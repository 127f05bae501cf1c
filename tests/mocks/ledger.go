package mocks

import (
	"encoding/json"

	"github.com/gitops-fleet/pulumi-fleet/components/ledger"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
)

// ledger answers a Fleet's ClusterLedger as the plugin does for a new stack: ledger.Record with no history.
func clusterLedger(r Resource) (resource.PropertyMap, error) {
	raw, err := json.Marshal(r.Inputs.Mappable())
	if err != nil {
		return nil, err
	}
	var args ledger.ClusterLedgerArgs
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, err
	}
	state, err := ledger.Record(args, nil)
	if err != nil {
		return nil, err
	}
	out := r.Inputs.Copy()
	out["vpcCidrs"] = resource.NewPropertyValue(state.VpcCidrs)
	out["handover"] = resource.NewPropertyValue(state.Handover)
	return out, nil
}
