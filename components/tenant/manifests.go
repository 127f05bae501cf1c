package tenant

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// ManagedBy is the value of the managed-by label on the tenant's namespaces.
const ManagedBy = "pulumi-fleet"

// Object names in each tenant namespace.
const (
	QuotaName              = "tenant-quota"
	LimitRangeName         = "tenant-limits"
	DenyAllPolicy          = "default-deny"
	SameNamespacePolicy    = "allow-same-namespace"
	DNSPolicy              = "allow-dns"
	AWSPolicy              = "allow-aws-apis"
	IngressCidrsPolicy     = "allow-ingress-cidrs"
	SecretStoreName        = "aws-secrets-manager"
	SecretsServiceAccount  = "tenant-secrets"
	roleArnAnnotation      = "eks.amazonaws.com/role-arn"
	podSecurityLabelPrefix = "pod-security.kubernetes.io/"
	// SyncOptionsAnnotation and NoPrune keep Argo CD from pruning a tenant's Namespace when a commit removes it
	// from the tenant's file (Argo CD's sync options, "Prune=false"): a Namespace deleted takes its volumes' claims
	// and everything else in it. The stack deletes it when the namespace leaves the tenant's config.
	SyncOptionsAnnotation = "argocd.argoproj.io/sync-options"
	NoPrune               = "Prune=false"
)

// podSecurityModes are the Pod Security Admission modes a tenant namespace sets (labels podSecurityLabelPrefix +
// mode), each to its podSecurity level.
var podSecurityModes = []string{"enforce", "audit", "warn"}

// PodIdentityAgentCIDR is the address of the EKS Pod Identity agent on every node (Amazon EKS User Guide,
// pod-id-how-it-works: 169.254.170.23, port 80), which tenant pods reach for their roles' credentials.
const PodIdentityAgentCIDR = "169.254.170.23/32"

// Identities are the IAM role ARNs of a namespace's service accounts that take IRSA (annotated with
// eks.amazonaws.com/role-arn), by service account name; a service account bound through EKS Pod Identity is absent.
type Identities map[string]string

// Manifests are the in-cluster objects of one tenant namespace, in apply order: the Namespace (labels tenant,
// managed-by, the Pod Security Admission levels), its ResourceQuota and LimitRange, the NetworkPolicies (deny all,
// then allow the namespace's own pods, DNS, AWS: the Pod Identity agent and HTTPS out, which STS and the AWS APIs
// and their VPC endpoints take, and, with ingressCidrs, traffic from those networks), the service accounts, and, when secrets is true (the cluster runs
// the external_secrets add-on), the SecretStore on AWS Secrets Manager in region and its service account, whose
// role (ids[SecretsServiceAccount]) reads only the tenant's prefix. Each object is a map as the API serves it.
func Manifests(t TenantSpec, n TenantNamespace, ids Identities, secrets bool, region string) ([]map[string]any, error) {
	labels := map[string]string{}
	for k, v := range n.Labels {
		labels[k] = v
	}
	labels["tenant"] = t.Name
	labels["app.kubernetes.io/managed-by"] = ManagedBy
	labels["managed-by"] = ManagedBy
	for _, mode := range podSecurityModes {
		labels[podSecurityLabelPrefix+mode] = n.PodSecurity
	}
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: name, Namespace: n.Name, Labels: map[string]string{"tenant": t.Name}}
	}
	q, l := n.Quota, n.Limits
	quota, err := resourceList(map[corev1.ResourceName]string{
		corev1.ResourceRequestsCPU: q.RequestsCpu, corev1.ResourceRequestsMemory: q.RequestsMemory,
		corev1.ResourceLimitsCPU: q.LimitsCpu, corev1.ResourceLimitsMemory: q.LimitsMemory, corev1.ResourcePods: q.Pods,
		corev1.ResourceServicesLoadBalancers: q.LoadBalancers, corev1.ResourceRequestsStorage: q.Storage})
	if err != nil {
		return nil, err
	}
	limits, err := resourceList(map[corev1.ResourceName]string{corev1.ResourceCPU: l.Cpu, corev1.ResourceMemory: l.Memory})
	if err != nil {
		return nil, err
	}
	requests, err := resourceList(map[corev1.ResourceName]string{corev1.ResourceCPU: l.RequestCpu, corev1.ResourceMemory: l.RequestMemory})
	if err != nil {
		return nil, err
	}
	all := metav1.LabelSelector{}
	dnsPort, agentPort, httpsPort := intstr.FromInt32(53), intstr.FromInt32(80), intstr.FromInt32(443)
	udp, tcp := corev1.ProtocolUDP, corev1.ProtocolTCP
	objects := []runtime.Object{
		&corev1.Namespace{TypeMeta: typeMeta("v1", "Namespace"), ObjectMeta: metav1.ObjectMeta{Name: n.Name, Labels: labels,
			Annotations: map[string]string{SyncOptionsAnnotation: NoPrune}}},
		&corev1.ResourceQuota{TypeMeta: typeMeta("v1", "ResourceQuota"), ObjectMeta: meta(QuotaName),
			Spec: corev1.ResourceQuotaSpec{Hard: quota}},
		&corev1.LimitRange{TypeMeta: typeMeta("v1", "LimitRange"), ObjectMeta: meta(LimitRangeName),
			Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{Type: corev1.LimitTypeContainer,
				Default: limits, DefaultRequest: requests}}}},
		&networkingv1.NetworkPolicy{TypeMeta: typeMeta("networking.k8s.io/v1", "NetworkPolicy"), ObjectMeta: meta(DenyAllPolicy),
			Spec: networkingv1.NetworkPolicySpec{PodSelector: all,
				PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress}}},
		&networkingv1.NetworkPolicy{TypeMeta: typeMeta("networking.k8s.io/v1", "NetworkPolicy"), ObjectMeta: meta(SameNamespacePolicy),
			Spec: networkingv1.NetworkPolicySpec{PodSelector: all,
				Ingress:     []networkingv1.NetworkPolicyIngressRule{{From: []networkingv1.NetworkPolicyPeer{{PodSelector: &all}}}},
				Egress:      []networkingv1.NetworkPolicyEgressRule{{To: []networkingv1.NetworkPolicyPeer{{PodSelector: &all}}}},
				PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress}}},
		&networkingv1.NetworkPolicy{TypeMeta: typeMeta("networking.k8s.io/v1", "NetworkPolicy"), ObjectMeta: meta(DNSPolicy),
			Spec: networkingv1.NetworkPolicySpec{PodSelector: all,
				Egress: []networkingv1.NetworkPolicyEgressRule{{
					To: []networkingv1.NetworkPolicyPeer{{
						NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "kube-system"}},
						PodSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{"k8s-app": "kube-dns"}},
					}},
					Ports: []networkingv1.NetworkPolicyPort{{Protocol: &udp, Port: &dnsPort}, {Protocol: &tcp, Port: &dnsPort}},
				}},
				PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeEgress}}},
		&networkingv1.NetworkPolicy{TypeMeta: typeMeta("networking.k8s.io/v1", "NetworkPolicy"), ObjectMeta: meta(AWSPolicy),
			Spec: networkingv1.NetworkPolicySpec{PodSelector: all,
				Egress: []networkingv1.NetworkPolicyEgressRule{
					{To: []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: PodIdentityAgentCIDR}}},
						Ports: []networkingv1.NetworkPolicyPort{{Protocol: &tcp, Port: &agentPort}}},
					{To: []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: "0.0.0.0/0"}}},
						Ports: []networkingv1.NetworkPolicyPort{{Protocol: &tcp, Port: &httpsPort}}},
				},
				PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeEgress}}},
	}
	if len(n.IngressCidrs) > 0 {
		var from []networkingv1.NetworkPolicyPeer
		for _, c := range n.IngressCidrs {
			from = append(from, networkingv1.NetworkPolicyPeer{IPBlock: &networkingv1.IPBlock{CIDR: c}})
		}
		objects = append(objects, &networkingv1.NetworkPolicy{TypeMeta: typeMeta("networking.k8s.io/v1", "NetworkPolicy"),
			ObjectMeta: meta(IngressCidrsPolicy),
			Spec: networkingv1.NetworkPolicySpec{PodSelector: all,
				Ingress:     []networkingv1.NetworkPolicyIngressRule{{From: from}},
				PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress}}})
	}
	accounts := n.ServiceAccounts
	if secrets {
		accounts = append(accounts, TenantServiceAccount{Name: SecretsServiceAccount})
	}
	for _, sa := range accounts {
		m := meta(sa.Name)
		if role := ids[sa.Name]; role != "" {
			m.Annotations = map[string]string{roleArnAnnotation: role}
		}
		objects = append(objects, &corev1.ServiceAccount{TypeMeta: typeMeta("v1", "ServiceAccount"), ObjectMeta: m})
	}
	out := make([]map[string]any, 0, len(objects)+1)
	for _, o := range objects {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			return nil, err
		}
		delete(u, "status")
		if md, ok := u["metadata"].(map[string]any); ok {
			delete(md, "creationTimestamp")
		}
		out = append(out, u)
	}
	if secrets {
		out = append(out, secretStore(t, n, region))
	}
	return out, nil
}

// secretStore is the namespace's SecretStore (external-secrets.io/v1beta1, the API of the template's
// external-secrets 0.9.13) on AWS Secrets Manager in region, authenticated as the tenant-secrets service account
// (its IRSA token: the store's role reads only the tenant's prefix).
func secretStore(t TenantSpec, n TenantNamespace, region string) map[string]any {
	return map[string]any{
		"apiVersion": "external-secrets.io/v1beta1", "kind": "SecretStore",
		"metadata": map[string]any{"name": SecretStoreName, "namespace": n.Name, "labels": map[string]any{"tenant": t.Name}},
		"spec": map[string]any{"provider": map[string]any{"aws": map[string]any{
			"service": "SecretsManager", "region": region,
			"auth": map[string]any{"jwt": map[string]any{"serviceAccountRef": map[string]any{"name": SecretsServiceAccount}}},
		}}},
	}
}

func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}

// resourceList parses quantities (checked by Check; an error names the first bad one).
func resourceList(values map[corev1.ResourceName]string) (corev1.ResourceList, error) {
	out := corev1.ResourceList{}
	for k, v := range values {
		q, err := resource.ParseQuantity(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", k, v, err)
		}
		out[k] = q
	}
	return out, nil
}
