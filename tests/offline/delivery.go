package offline

import (
	"context"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"
)

// DeliveryConfigKey is the stack config of the fleet example's GitOps delivery (StackDelivery).
const DeliveryConfigKey = "gitops-fleet:delivery"

// DeliverySecrets are the config secrets a stack with gitops-fleet:delivery needs, as offline stand-ins for what
// an operator sets with `pulumi config set --secret`: the admin password hash is bcrypt of "offline-demo".
var DeliverySecrets = map[string]string{
	"gitops-fleet:kargoAdminPasswordHash": "$2a$10$adK6IJiDqk.fmNNkOiZENO0ppqa2aTwUHB.6DiG9g8CcRw5Y9NiiG",
	"gitops-fleet:kargoTokenSigningKey":   "offline0token0signing0key0000000",
	"gitops-fleet:pulumiAccessToken":      "pul-offline0access0token",
	"gitops-fleet:previewAccessToken":     "pul-offline0preview0token",
	"gitops-fleet:kargoGitToken":          "ghp_offline0kargo0git0token",
	"gitops-fleet:programGitToken":        "ghp_offline0program0git0token",
	"github:token":                        "ghp_offline0pulumi0github0token",
}

// SetDeliverySecrets sets DeliverySecrets on stack, as secrets, when its config has gitops-fleet:delivery. The
// stack file is applied anew before every run (Env.Stack), so they are set after it each time.
func SetDeliverySecrets(ctx context.Context, stack auto.Stack) error {
	cfg, err := stack.GetAllConfig(ctx)
	if err != nil {
		return err
	}
	if _, ok := cfg[DeliveryConfigKey]; !ok {
		return nil
	}
	all := auto.ConfigMap{}
	for k, v := range DeliverySecrets {
		all[k] = auto.ConfigValue{Value: v, Secret: true}
	}
	return stack.SetAllConfig(ctx, all)
}
