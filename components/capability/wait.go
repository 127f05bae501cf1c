package capability

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// Waits: EKS takes minutes to create or delete a capability; the plugin asks every pollInterval, for at most
// waitTimeout.
var (
	pollInterval = 10 * time.Second
	waitTimeout  = 30 * time.Minute
)

// settle waits while the capability's status is during (CREATING, DELETING) and returns it as EKS then
// describes it; found is false once EKS no longer has it.
func (c client) settle(ctx context.Context, cluster, name string, during types.CapabilityStatus,
) (capability *types.Capability, found bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	for {
		capability, found, err = c.describe(ctx, cluster, name)
		if err != nil || !found || capability.Status != during {
			return capability, found, err
		}
		if err := pause(ctx); err != nil {
			return nil, false, fmt.Errorf("capability %q of cluster %q still %s after %s: %w", name, cluster,
				during, waitTimeout, err)
		}
	}
}

// awaitUpdate waits until EKS has applied the update id of the capability: nil when Successful, an error with
// EKS's errors when it Failed or was Cancelled.
func (c client) awaitUpdate(ctx context.Context, cluster, name, id string) error {
	ctx, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	for {
		out, err := c.DescribeUpdate(ctx, &eks.DescribeUpdateInput{Name: aws.String(cluster), UpdateId: aws.String(id),
			CapabilityName: aws.String(name)})
		if err != nil {
			return fmt.Errorf("update %s of capability %q: %w", id, name, err)
		}
		switch u := out.Update; u.Status {
		case types.UpdateStatusSuccessful:
			return nil
		case types.UpdateStatusFailed, types.UpdateStatusCancelled:
			msg := ""
			for _, e := range u.Errors {
				msg += fmt.Sprintf("; %s: %s", e.ErrorCode, aws.ToString(e.ErrorMessage))
			}
			return fmt.Errorf("update %s of capability %q of cluster %q: %s%s", id, name, cluster, u.Status, msg)
		}
		if err := pause(ctx); err != nil {
			return fmt.Errorf("update %s of capability %q still in progress after %s: %w", id, name, waitTimeout, err)
		}
	}
}

func pause(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(pollInterval):
		return nil
	}
}
