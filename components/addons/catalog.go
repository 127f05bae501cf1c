package addons

import (
	"maps"
	"slices"
	"strings"
)

// sa is the single service account of most add-ons, written as <prefix>_service_account.
func sa(name string) []ServiceAccount { return []ServiceAccount{{Key: "service_account", Name: name}} }

// csi are the controller and node service accounts of a CSI driver: both call AWS, and the template
// writes both into the chart values (<prefix>_controller_service_account, <prefix>_node_service_account).
func csi(controller, node string) []ServiceAccount {
	return []ServiceAccount{{Key: "controller_service_account", Name: controller}, {Key: "node_service_account", Name: node}}
}

// aws is the prefix of the template's ApplicationSets for add-ons that call AWS.
const aws = "aws/"

// existsClusterName is the extra requirement of the aws/ cert-manager and Velero sets.
var existsClusterName = []Requirement{{Key: ClusterNameKey, Operator: "Exists"}}

// catalog is the contract, keyed by GitOps Bridge name. Namespaces and service accounts are the defaults of
// aws-ia/terraform-aws-eks-blueprints-addons (main.tf, commit d78fb74, 2026-07-07), whose gitops_metadata
// output the template was written against; ApplicationSet files, charts and reads are the template's.
var catalog = map[string]Addon{
	// AWS add-ons with an IAM role (IRSA, and EKS Pod Identity where their version supports it).
	"aws_cloudwatch_metrics": {
		ApplicationSet: aws + "addons-aws-cloudwatch-metrics-appset.yaml", Chart: "aws-cloudwatch-metrics",
		Reads:   irsaReads("aws_cloudwatch_metrics", ClusterNameKey),
		Version: "1.300032.2b361",
		Identity: &Identity{Namespace: "amazon-cloudwatch", ServiceAccounts: sa("aws-cloudwatch-metrics"),
			Policies: managed("CloudWatch agent on EKS: the CloudWatchAgentServerPolicy managed policy (Amazon CloudWatch User Guide)",
				"CloudWatchAgentServerPolicy"),
			PodIdentity: sdkV1("aws/amazon-cloudwatch-agent", "1.300032.2", "v1.48.6")},
	},
	"aws_ebs_csi_driver": {
		ApplicationSet: aws + "addons-aws-csi-ebs-resources-appset.yaml", Chart: "aws-ebs-csi-classes",
		SelectLabel: EnableLabel("aws_ebs_csi_resources"), Implies: []string{"aws_ebs_csi_resources"},
		Identity: &Identity{Namespace: "kube-system", ServiceAccounts: sa("ebs-csi-controller-sa"),
			Policies: managed("AWS Managed Policy Reference, AmazonEBSCSIDriverPolicyV2 (policy version v1): the driver manages only "+
				"volumes and snapshots tagged ebs.csi.aws.com/cluster=true, which it puts on every volume it creates, and "+
				"CSI-migrated ones by their kubernetes.io/created-for/pvc/name tag; the first AmazonEBSCSIDriverPolicy "+
				"attaches, detaches and snapshots any volume of the account. Not AmazonEBSCSIDriverEKSClusterScopedPolicy: "+
				"it needs the ebs.csi.aws.com/cluster-name tag, which volumes made before it lack",
				"AmazonEBSCSIDriverPolicyV2")},
		Resources: []Resource{ManagedAddon},
	},
	"aws_efs_csi_driver": {
		ApplicationSet: aws + "addons-aws-csi-efs-driver-appset.yaml", Chart: "aws-efs-csi-driver",
		Reads: []string{"aws_efs_csi_driver_iam_role_arn", "aws_efs_csi_driver_namespace", "aws_efs_csi_driver_controller_service_account",
			"aws_efs_csi_driver_node_service_account"},
		Version: "1.7.6",
		Identity: &Identity{Namespace: "kube-system", ServiceAccounts: csi("efs-csi-controller-sa", "efs-csi-node-sa"),
			Policies: managed("Amazon EKS User Guide, Amazon EFS CSI driver: AmazonEFSCSIDriverPolicy, trusted by efs-csi-* service accounts",
				"service-role/AmazonEFSCSIDriverPolicy"),
			PodIdentity: PodIdentitySupport{Since: "2.0.5", Source: "kubernetes-sigs/aws-efs-csi-driver CHANGELOG-2.x.md, v2.0.5: Add Pod Identity Support (#1254)"}},
	},
	"aws_fsx_csi_driver": {
		ApplicationSet: aws + "addons-aws-csi-fsx-driver-appset.yaml", Chart: "aws-fsx-csi-driver",
		Reads: []string{"aws_fsx_csi_driver_iam_role_arn", "aws_fsx_csi_driver_namespace", "aws_fsx_csi_driver_controller_service_account",
			"aws_fsx_csi_driver_node_service_account"},
		Version: "1.2.0",
		Identity: &Identity{Namespace: "kube-system", ServiceAccounts: csi("aws-fsx-csi-controller-sa", "aws-fsx-csi-node-sa"),
			Policies: fsxCSIDriverPolicies, PodIdentity: sdkV1("kubernetes-sigs/aws-fsx-csi-driver", "1.2.0", "v1.50.21")},
	},
	"aws_for_fluentbit": {
		ApplicationSet: aws + "addons-aws-fluentbit-appset.yaml", Chart: "aws-for-fluent-bit",
		Reads:   irsaReads("aws_for_fluentbit", "aws_for_fluentbit_log_group_name", RegionKey),
		Version: "2.31.12.20231011",
		Identity: &Identity{Namespace: "kube-system", ServiceAccounts: sa("aws-for-fluent-bit-sa"),
			Policies:    fluentBitPolicies,
			PodIdentity: PodIdentitySupport{Since: "2.32.5", Source: "aws/aws-for-fluent-bit release 2.32.5 (pull request 888, EKS Pod Identity)"}},
		Resources: []Resource{LogGroup},
	},
	"aws_gateway_api_controller": {
		ApplicationSet: aws + "addons-aws-gateway-api-controller-appset.yaml", Chart: "aws-gateway-controller-chart",
		Reads:   irsaReads("aws_gateway_api_controller", AccountIDKey, RegionKey, VpcIDKey),
		Version: "1.0.4",
		Identity: &Identity{Namespace: "aws-application-networking-system", ServiceAccounts: sa("gateway-api-controller"),
			Policies: gatewayAPIControllerPolicies, AccountWide: true,
			PodIdentity: sdkV1("aws/aws-application-networking-k8s", "1.0.4", "v1.50.3")},
	},
	"aws_load_balancer_controller": {
		ApplicationSet: aws + "addons-aws-load-balancer-controller-appset.yaml", Chart: "aws-load-balancer-controller",
		Reads:   irsaReads("aws_load_balancer_controller", ClusterNameKey, VpcIDKey),
		Version: "2.7.1",
		Identity: &Identity{Namespace: "kube-system", ServiceAccounts: sa("aws-load-balancer-controller-sa"),
			Policies:    loadBalancerControllerPolicies,
			PodIdentity: sdkV1("kubernetes-sigs/aws-load-balancer-controller", "2.7.1", "v1.50.8")},
	},
	"aws_node_termination_handler": {
		ApplicationSet: aws + "addons-aws-node-termination-handler-appset.yaml", Chart: "aws-node-termination-handler",
		Reads:   irsaReads("aws_node_termination_handler", "aws_node_termination_handler_sqs_queue_url", RegionKey),
		Version: "1.19.0",
		Identity: &Identity{Namespace: "aws-node-termination-handler", ServiceAccounts: sa("aws-node-termination-handler-sa"),
			Policies:    nodeTerminationHandlerPolicies,
			PodIdentity: sdkV1("aws/aws-node-termination-handler", "1.21.0", "v1.50.30")},
		Resources: []Resource{InterruptionQueue},
	},
	"aws_privateca_issuer": {
		ApplicationSet: aws + "addons-aws-oss-privateca-issuer-appset.yaml", Chart: "aws-privateca-issuer",
		Reads:   irsaReads("aws_privateca_issuer"),
		Version: "1.2.7",
		Identity: &Identity{Namespace: "cert-manager", ServiceAccounts: sa("aws-privateca-issuer-sa"),
			Policies:    privateCAIssuerPolicies,
			PodIdentity: PodIdentitySupport{Since: "1.2.7", Source: "cert-manager/aws-privateca-issuer go.mod at v1.2.7: aws-sdk-go-v2/config v1.26.2 (>= v1.25.0)"}},
	},
	"cert_manager": {
		ApplicationSet: aws + "addons-aws-oss-cert-manager-appset.yaml", Chart: "cert-manager",
		Reads:    irsaReads("cert_manager"),
		Requires: existsClusterName,
		Version:  "1.14.3",
		Identity: &Identity{Namespace: "cert-manager", ServiceAccounts: sa("cert-manager"),
			Policies: certManagerPolicies, PodIdentity: sdkV1("cert-manager/cert-manager", "1.14.3", "v1.49.13")},
	},
	"cluster_autoscaler": {
		ApplicationSet: aws + "addons-aws-oss-cluster-autoscaler-appset.yaml", Chart: "cluster-autoscaler",
		Reads:   irsaReads("cluster_autoscaler", ClusterNameKey, RegionKey),
		Version: "1.29.0",
		Identity: &Identity{Namespace: "kube-system", ServiceAccounts: sa("cluster-autoscaler-sa"),
			Policies:    clusterAutoscalerPolicies,
			PodIdentity: PodIdentitySupport{Since: "1.29.0", Source: "kubernetes/autoscaler cluster-autoscaler/cloudprovider/aws/aws-sdk-go/aws/version.go at cluster-autoscaler-1.29.0: the vendored aws-sdk-go 1.48.7 (1.28 vendors 1.44.24)"}},
	},
	"external_dns": {
		ApplicationSet: aws + "addons-aws-oss-external-dns-appset.yaml", Chart: "external-dns", GoTemplate: true,
		Reads: irsaReads("external_dns", ClusterNameKey, ExternalDNSDomainFiltersKey), ReadsWithDefault: []string{ExternalDNSPolicyKey},
		Version: "0.14.0",
		Identity: &Identity{Namespace: "external-dns", ServiceAccounts: sa("external-dns-sa"),
			Policies: externalDNSPolicies, PodIdentity: sdkV1("kubernetes-sigs/external-dns", "0.14.1", "v1.51.1")},
		SettingKeys: []string{ExternalDNSDomainFiltersKey, ExternalDNSPolicyKey},
	},
	"external_secrets": {
		ApplicationSet: aws + "addons-aws-oss-external-secrets-appset.yaml", Chart: "external-secrets",
		Reads:   irsaReads("external_secrets"),
		Version: "0.9.13",
		Identity: &Identity{Namespace: "external-secrets", ServiceAccounts: sa("external-secrets-sa"),
			Policies:    externalSecretsPolicies,
			PodIdentity: sdkV1("external-secrets/external-secrets", "0.9.13", "v1.50.18")},
	},
	"karpenter": {
		ApplicationSet: aws + "addons-aws-oss-karpenter-appset.yaml", Chart: "karpenter",
		Reads:   irsaReads("karpenter", ClusterNameKey, "karpenter_sqs_queue_name"),
		Version: "0.34.1",
		Identity: &Identity{Namespace: "karpenter", ServiceAccounts: sa("karpenter"),
			Policies:    karpenterPolicies,
			PodIdentity: sdkV1("aws/karpenter-provider-aws", "0.33.0", "v1.48.11")},
		Resources: []Resource{InterruptionQueue, NodeInstanceProfile},
	},
	"velero": {
		ApplicationSet: aws + "addons-aws-oss-velero-appset.yaml", Chart: "velero",
		Requires: existsClusterName,
		Reads:    irsaReads("velero", "velero_backup_s3_bucket_name", "velero_backup_s3_bucket_prefix", RegionKey),
		Version:  "1.13.0",
		Identity: &Identity{Namespace: "velero", ServiceAccounts: sa("velero-server"),
			Policies:    veleroPolicies,
			PodIdentity: PodIdentitySupport{Since: "1.14.0", Source: "vmware-tanzu/velero-plugin-for-aws go.mod at v1.10.0 (aws-sdk-go-v2/config v1.26.3, >= v1.25.0), the plugin its README pairs with Velero v1.14"}},
		Resources: []Resource{BackupBucket},
	},

	// AWS Controllers for Kubernetes: each manages one service's resources, so its published recommendation
	// (config/iam/recommended-policy-arn or recommended-inline-policy of each controller) is that service's access.
	"ack_apigatewayv2": ack("apigatewayv2", "1.0.9", sdkV1("aws-controllers-k8s/apigatewayv2-controller", "1.0.9", "v1.49.0"),
		"AmazonAPIGatewayAdministrator", "AmazonAPIGatewayInvokeFullAccess"),
	"ack_dynamodb": ack("dynamodb", "1.2.3", PodIdentitySupport{}, "AmazonDynamoDBFullAccess"),
	"ack_emrcontainers": ackInline("emrcontainers", "1.0.7", sdkV1("aws-controllers-k8s/emrcontainers-controller", "1.0.7", "v1.49.0"),
		emrContainersControllerPolicies),
	"ack_eventbridge": ack("eventbridge", "1.0.4", PodIdentitySupport{}, "AmazonEventBridgeFullAccess"),
	"ack_prometheusservice": ackInline("prometheusservice", "1.2.8",
		sdkV1("aws-controllers-k8s/prometheusservice-controller", "1.2.8", "v1.49.0"), prometheusServiceControllerPolicies),
	"ack_rds": ack("rds", "1.2.1", sdkV1("aws-controllers-k8s/rds-controller", "1.2.1", "v1.49.0"), "AmazonRDSFullAccess"),
	"ack_s3":  ack("s3", "1.0.9", sdkV1("aws-controllers-k8s/s3-controller", "1.0.9", "v1.49.0"), "AmazonS3FullAccess"),
	"ack_sfn": ack("sfn", "1.0.8", sdkV1("aws-controllers-k8s/sfn-controller", "1.0.8", "v1.49.0"), "AWSStepFunctionsFullAccess"),

	// Add-ons that call no AWS API of their own: the label is all they need.
	"aws_secrets_store_csi_driver_provider": oss(aws+"addons-aws-secrets-store-csi-driver-provider-appset.yaml", "secrets-store-csi-driver-provider-aws"),
	"argocd":                                oss("oss/addons-argo-cd-appset.yaml", "argo-cd"),
	"argo_events":                           oss("oss/addons-argo-events-appset.yaml", "argo-events"),
	"argo_rollouts":                         oss("oss/addons-argo-rollouts-appset.yaml", "argo-rollouts"),
	"argo_workflows":                        goOSS("oss/addons-argo-workflows-appset.yaml", "argo-workflows", "argo_workflows_namespace"),
	"cluster_proportional_autoscaler":       oss("oss/addons-cluster-proportional-autoscaler-appset.yaml", "cluster-proportional-autoscaler"),
	"gatekeeper":                            oss("oss/addons-gatekeeper-appset.yaml", "gatekeeper"),
	"gpu_operator":                          oss("oss/addons-gpu-operator-appset.yaml", "gpu-operator"),
	"ingress_nginx":                         goOSS("oss/addons-ingress-nginx-appset.yaml", "ingress-nginx", "ingress_nginx_service_type"),
	"keda":                                  oss("oss/addons-keda-appset.yaml", "keda"),
	"kube_prometheus_stack":                 oss("oss/addons-kube-prometheus-stack-appset.yaml", "kube-prometheus-stack"),
	"kyverno":                               oss("oss/addons-kyverno-appset.yaml", "kyverno"),
	"metrics_server":                        oss("oss/addons-metrics-server-appset.yaml", "metrics-server"),
	"prometheus_adapter":                    oss("oss/addons-prometheus-adapter-appset.yaml", "prometheus-adapter"),
	"secrets_store_csi_driver":              oss("oss/addons-secrets-store-csi-driver-appset.yaml", "secrets-store-csi-driver"),
	"vpa":                                   oss("oss/addons-vpa-appset.yaml", "vpa"),
}

// Alternatives are ApplicationSets of the template that select on the same enable label as a catalogue
// row but install another flavour, and must not select a FleetCluster: the OSS cert-manager (no IAM role)
// requires aws_cluster_name not to exist.
var Alternatives = map[string]Addon{
	"cert_manager": {Name: "cert_manager", ApplicationSet: "oss/addons-cert-manager-appset.yaml", Chart: "cert-manager",
		Requires: []Requirement{{Key: ClusterNameKey, Operator: "DoesNotExist"}}},
}

// NotOffered are add-ons of the template FleetCluster does not offer, with the reason.
var NotOffered = map[string]string{
	"aws_crossplane_provider":         "Crossplane's AWS provider manages arbitrary AWS resources: its permissions are the user's choice, not a least-privilege default",
	"aws_crossplane_upbound_provider": "as aws_crossplane_provider",
	"fargate_fluentbit":               "FleetCluster creates no Fargate profiles",
	"aws_argocd":                      "Argo CD on the hub is installed by GitOpsBridge, not by an ApplicationSet",
	"aws_argocd_ingress":              "as aws_argocd",
	"aws_argo_workflows_ingress":      "needs an ingress host name and certificate that FleetCluster does not manage",
	"crossplane":                      "no AWS identity of its own; enable it with the Crossplane providers you choose",
	"crossplane_helm_provider":        "as crossplane",
	"crossplane_kubernetes_provider":  "as crossplane",
}

// irsaReads are the keys an aws/ ApplicationSet reads for an IRSA add-on, <prefix>_iam_role_arn, _namespace and
// _service_account, and the further keys it reads.
func irsaReads(prefix string, more ...string) []string {
	return append([]string{prefix + IAMRoleArnSuffix, prefix + NamespaceSuffix, prefix + "_service_account"}, more...)
}

func oss(set, chart string) Addon { return Addon{ApplicationSet: set, Chart: chart} }

// goOSS is a Go-template set that reads an optional annotation through a default.
func goOSS(set, chart, optional string) Addon {
	return Addon{ApplicationSet: set, Chart: chart, GoTemplate: true, ReadsWithDefault: []string{optional}}
}

// ack is an ACK controller with its recommended managed policies, in ack-system as ack-<service>
// (terraform-aws-eks-ack-addons a67416f defaults).
// The chart versions of ACK equal the controller's release (helm/Chart.yaml: version = appVersion = the tag).
// dynamodb v1.2.3 (aws-sdk-go v1.45.3) and eventbridge v1.0.4 (v1.44.97) predate Pod Identity credentials.
func ack(service, version string, pod PodIdentitySupport, policies ...string) Addon {
	return ackInline(service, version, pod,
		managed("aws-controllers-k8s/"+service+"-controller config/iam/recommended-policy-arn", policies...))
}

func ackInline(service, version string, pod PodIdentitySupport, policies []Policy) Addon {
	return Addon{
		ApplicationSet: aws + "ack/addons-aws-ack-" + service + "-appset.yaml", Chart: service + "-chart",
		Reads: irsaReads("ack_"+service, RegionKey), Version: version,
		Identity: &Identity{Namespace: "ack-system", ServiceAccounts: sa("ack-" + service), Policies: policies,
			PodIdentity: pod, AccountWide: true},
	}
}

// sdkV1 is Pod Identity support read from a Go controller's go.mod at the installed tag: aws-sdk-go at or
// after v1.47.11 has the container credential provider Pod Identity serves (EKS User Guide,
// pod-id-minimum-sdk.html). The earliest version known to support it is the one whose go.mod was read.
func sdkV1(repository, version, sdk string) PodIdentitySupport {
	return PodIdentitySupport{Since: version,
		Source: repository + " go.mod at v" + strings.TrimPrefix(version, "v") + ": aws-sdk-go " + sdk + " (>= v1.47.11)"}
}

// managed is the single policy of an add-on whose published recommendation is AWS managed policies: AWS keeps
// them in step with the add-on, so they cover every version.
func managed(source string, names ...string) []Policy {
	return []Policy{{Versions: AnyVersion, ManagedPolicies: names, Source: source}}
}

// Lookup returns the contract row of an add-on.
func Lookup(name string) (Addon, bool) {
	a, ok := catalog[name]
	a.Name = name
	return a, ok
}

// Names lists every add-on name FleetCluster accepts, sorted.
func Names() []string { return slices.Sorted(maps.Keys(catalog)) }

// Namespaces are the namespaces the add-ons run in, sorted: each identity's namespace (its <prefix>_namespace),
// and for an add-on without one its chart's name, the namespace the GitOps Bridge template's ApplicationSets
// default to. The workloads repository may deploy into none of them.
func Namespaces() []string {
	set := map[string]bool{}
	for _, a := range All() {
		if a.Identity != nil && a.Identity.Namespace != "" {
			set[a.Identity.Namespace] = true
		} else {
			set[a.Chart] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// All returns every row, sorted by name.
func All() []Addon {
	var out []Addon
	for _, n := range Names() {
		a, _ := Lookup(n)
		out = append(out, a)
	}
	return out
}
