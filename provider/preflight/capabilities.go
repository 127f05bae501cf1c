package preflight

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/aws/smithy-go"
)

// capabilityType is the managed hub's Argo CD (components/capability).
const capabilityType = "fleet:index:ArgoCDCapability"

// checkCapabilities asks EKS, in each region where the plan creates an EKS capability, for the capabilities of the
// capability's cluster (ListCapabilities). EKS answers a list, or ResourceNotFoundException for a cluster the plan
// has yet to create, where it serves the Capabilities API; any other answer (UnknownOperationException, an endpoint
// that does not route the path) says the region does not offer EKS Capabilities, and the managed hub cannot be
// made there. Access denied leaves it unknown.
func checkCapabilities(ctx context.Context, api func(region string) (Regional, error), plan Plan, r *Report) {
	for _, s := range plan {
		if s.Type != capabilityType || s.Op != Create {
			continue
		}
		cluster := s.Input("clusterName")
		region := s.Region
		if region == "" {
			region = regionOfCluster(plan, cluster)
		}
		subject := "EKS Capabilities for " + s.Name()
		if region == "" {
			r.add(Finding{Check: CheckCapabilities, Level: Unknown, Subject: subject,
				Message: "the plan does not say the capability's region"})
			continue
		}
		// A cluster the preview does not name yet is asked for by a name no cluster has: the answer still says
		// whether the region serves the API.
		asked := cluster
		if asked == "" {
			asked = probeCluster
		}
		regional, err := api(region)
		if err == nil {
			_, err = regional.EKS.ListCapabilities(ctx, &eks.ListCapabilitiesInput{ClusterName: aws.String(asked)})
		}
		var notFound *ekstypes.ResourceNotFoundException
		var apiErr smithy.APIError
		switch {
		case err == nil || errors.As(err, &notFound):
			r.pass(CheckCapabilities, fmt.Sprintf("%s: EKS serves the Capabilities API (for %s)", region, s.Name()))
		case errors.As(err, &apiErr) && (apiErr.ErrorCode() == "AccessDeniedException" || apiErr.ErrorCode() == "UnrecognizedClientException"):
			r.add(Finding{Check: CheckCapabilities, Level: Unknown, Region: region, Subject: subject,
				Message: fmt.Sprintf("EKS could not be asked: %v", err)})
		default:
			r.add(Finding{Check: CheckCapabilities, Level: Fail, Region: region, Subject: subject,
				Message: fmt.Sprintf("EKS does not offer Capabilities here (ListCapabilities: %v): put the managed hub in a region that does, or use argocd.mode: self-managed", err)})
		}
	}
}

// probeCluster is the cluster name ListCapabilities is asked of when the preview does not know the capability's
// cluster's name: a name EKS allows (1 to 100 letters, digits, hyphens and underscores) that no fleet cluster takes.
const probeCluster = "fleet-preflight-probe"

// regionOfCluster is the region of the plan's EKS cluster named name; "" when the plan has none.
func regionOfCluster(plan Plan, name string) string {
	for _, s := range plan {
		if s.Type == clusterType && name != "" && s.Input("name") == name {
			return s.Region
		}
	}
	return ""
}
