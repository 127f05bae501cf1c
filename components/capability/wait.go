package capability

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/aws/aws-sdk-go-v2/service/eks/types"
)

// Waits: EKS takes minutes to create or delete a capability, seconds to apply some updates; the plugin asks after
// firstPoll, then at twice the previous interval up to maxPoll, for at most waitTimeout.
var (
	firstPoll   = time.Second
	maxPoll     = 10 * time.Second
	waitTimeout = 30 * time.Minute
)

// settle waits while the capability's status is during (CREATING, DELETING) and returns it as EKS then
// describes it; found is false once EKS no longer has it.
func (c client) settle(ctx context.Context, cluster, name string, during types.CapabilityStatus,
) (capability *types.Capability, found bool, err error) {
	ctx, cancel := context.WithTimeout(ctx, waitTimeout)
	defer cancel()
	for interval := firstPoll; ; interval = next(interval) {
		capability, found, err = c.describe(ctx, cluster, name)
		if err != nil || !found || capability.Status != during {
			return capability, found, err
		}
		if err := pause(ctx, interval); err != nil {
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
	for interval := firstPoll; ; interval = next(interval) {
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
		if err := pause(ctx, interval); err != nil {
			return fmt.Errorf("update %s of capability %q still in progress after %s: %w", id, name, waitTimeout, err)
		}
	}
}

// next is the poll interval after interval: twice it, at most maxPoll.
func next(interval time.Duration) time.Duration { return min(2*interval, maxPoll) }

// pause waits interval, or until ctx ends.
func pause(ctx context.Context, interval time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(interval):
		return nil
	}
}
