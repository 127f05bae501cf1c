package offline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"github.com/pulumi/pulumi/sdk/v3/go/auto/optrefresh"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
)

// Recover makes a stack an interrupted run left behind usable again, saying on w what it does: it clears the
// stack's stale locks (ClearStaleLocks), then settles the operations the state still records as pending with a
// refresh. A pending create whose resource the offline cloud holds (a record of the same URN) is imported with
// its ID, so the next up neither creates it twice nor loses it; one the cloud does not hold is dropped, and the
// next up creates it.
func (e *Env) Recover(ctx context.Context, stack auto.Stack, w io.Writer) error {
	removed, err := e.ClearStaleLocks(stack.Name())
	if err != nil {
		return err
	}
	for _, path := range removed {
		fmt.Fprintf(w, "cleared the lock of an interrupted run whose process is gone: %s\n", path)
	}
	pending, err := pendingOperations(ctx, stack)
	if err != nil || len(pending) == 0 {
		return err
	}
	opts := []optrefresh.Option{optrefresh.ProgressStreams(w)}
	imported, dropped := 0, 0
	for _, op := range pending {
		if op.Type != apitype.OperationTypeCreating {
			continue
		}
		if id := e.recordID(string(op.Resource.URN)); id != "" {
			opts = append(opts, optrefresh.ImportPendingCreates([]optrefresh.PendingCreate{{URN: string(op.Resource.URN), ID: id}}))
			imported++
		} else {
			dropped++
		}
	}
	if dropped > 0 {
		opts = append(opts, optrefresh.ClearPendingCreates())
	}
	fmt.Fprintf(w, "settling %d operations an interrupted run left pending (creates: %d found in the cloud and imported, "+
		"%d not and dropped) with a refresh\n", len(pending), imported, dropped)
	_, err = stack.Refresh(ctx, opts...)
	if err != nil && imported > 0 {
		// An import the engine cannot complete (the kill left the resource half made) is dropped instead: the next
		// up creates it again under the same URN, which the offline cloud takes as the same resource.
		fmt.Fprintf(w, "importing the pending creates failed (%v); dropping them instead\n", err)
		_, err = stack.Refresh(ctx, optrefresh.ProgressStreams(w), optrefresh.ClearPendingCreates())
	}
	return err
}

// pendingOperations are the operations the stack's state records as pending.
func pendingOperations(ctx context.Context, stack auto.Stack) ([]apitype.OperationV2, error) {
	exported, err := stack.Export(ctx)
	if err != nil {
		return nil, err
	}
	var deployment apitype.DeploymentV3
	if len(exported.Deployment) > 0 {
		if err := json.Unmarshal(exported.Deployment, &deployment); err != nil {
			return nil, fmt.Errorf("the state of stack %s: %w", stack.Name(), err)
		}
	}
	return deployment.PendingOperations, nil
}

// recordID is the ID of the offline cloud's resource that urn created, "" if it holds none.
func (e *Env) recordID(urn string) string {
	recs, err := e.Store.List()
	if err != nil {
		return ""
	}
	for _, r := range recs {
		if r.URN == urn {
			return r.ID
		}
	}
	return ""
}
