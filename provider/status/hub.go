package status

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gitops-fleet/pulumi-fleet/components/drain"
)

// A stack's outputs are written by whoever may run its `up` (or edit its state): fleet status runs nothing they
// say. A hub kubeconfig from an output could run a command (client-go honours users[].exec) with the operator's
// AWS credentials and Pulumi token, or send local token and key files to a server of its choosing; so status reads
// none. It takes from the hub stack's outputs only the hub's cluster name and region, asks EKS for that cluster's
// endpoint and CA, and authenticates with an EKS token it makes itself from the ambient credentials (as `aws eks
// get-token` does, through the AWS SDK): the token goes only to the endpoint EKS gives for the cluster it names.

// HubAPI reaches a hub's Kubernetes API: client-go's configuration for the EKS cluster hub (its name and region,
// from the hub stack's clusters output).
type HubAPI func(ctx context.Context, hub Cluster) (*rest.Config, error)

// EKSHub reaches a hub through EKS (client gives the EKS API of a region): DescribeCluster's endpoint and
// certificate authority, and a bearer token made with the AWS SDK from the ambient credentials (aws-iam-
// authenticator's token package, renewed before it expires). Nothing of the stack's outputs but the cluster's name
// and region is used.
func EKSHub(client func(region string) (EKSAPI, error)) HubAPI {
	return func(ctx context.Context, hub Cluster) (*rest.Config, error) {
		api, err := client(hub.Region)
		if err != nil {
			return nil, err
		}
		out, err := api.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: aws.String(hub.Name)})
		if err != nil {
			return nil, fmt.Errorf("hub %s (%s): %w", hub.Name, hub.Region, err)
		}
		c := out.Cluster
		if c == nil || aws.ToString(c.Endpoint) == "" || c.CertificateAuthority == nil || aws.ToString(c.CertificateAuthority.Data) == "" {
			return nil, fmt.Errorf("hub %s (%s): EKS gives no endpoint and certificate authority", hub.Name, hub.Region)
		}
		return drain.KubeConfig(hub.Name, hub.Region, aws.ToString(c.Endpoint), aws.ToString(c.CertificateAuthority.Data), "")
	}
}

// KubeconfigHub reaches the hub through a kubeconfig the operator gave (fleet status and rollout -kubeconfig): theirs, so its
// exec plugins and files are used as kubectl would.
func KubeconfigHub(kubeconfig string) HubAPI {
	return func(context.Context, Cluster) (*rest.Config, error) {
		cfg, err := clientcmd.RESTConfigFromKubeConfig([]byte(kubeconfig))
		if err != nil {
			return nil, fmt.Errorf("hub kubeconfig: %w", err)
		}
		cfg.Timeout = 30 * time.Second
		return cfg, nil
	}
}

// hubOf is the hub a stack's clusters are read against: the hub cluster of hubStack when given; else the stack's
// own hub; else, for a stack without one (a shard), the one hub among the stacks read. hubs are the stacks read
// that have a hub cluster, by stack name.
func hubOf(stack, hubStack string, hubs map[string]Cluster) (Cluster, error) {
	if hubStack != "" {
		if h, ok := hubs[hubStack]; ok {
			return h, nil
		}
		return Cluster{}, fmt.Errorf("the hub stack %s was not read or has no cluster of role hub", hubStack)
	}
	if h, ok := hubs[stack]; ok {
		return h, nil
	}
	if len(hubs) == 1 {
		for _, h := range hubs {
			return h, nil
		}
	}
	return Cluster{}, errors.New("no hub: the stack has none of its own and the stacks read have " +
		fmt.Sprint(len(hubs)) + "; name the hub's stack with -hub-stack")
}
