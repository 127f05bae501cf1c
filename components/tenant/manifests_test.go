package tenant

import (
	"encoding/json"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// decode reads a manifest into its typed object, strictly (a field the type does not have fails).
func decode[T any](t *testing.T, m map[string]any) T {
	t.Helper()
	var out T
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(m, &out, true); err != nil {
		t.Fatalf("%v %v: %v", m["kind"], m["metadata"], err)
	}
	return out
}

func kinds(ms []map[string]any) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m["kind"].(string)+"/"+m["metadata"].(map[string]any)["name"].(string))
	}
	return out
}

func TestManifests(t *testing.T) {
	a := payments()
	ms, err := Manifests(a, a.Namespaces[0], Identities{"ledger": "arn:aws:iam::111122223333:role/payments-ledger"}, false, "us-east-2")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Namespace/payments", "ResourceQuota/tenant-quota", "LimitRange/tenant-limits",
		"NetworkPolicy/default-deny", "NetworkPolicy/allow-same-namespace", "NetworkPolicy/allow-dns",
		"NetworkPolicy/allow-aws-apis", "ServiceAccount/ledger"}
	if got := kinds(ms); !slices.Equal(got, want) {
		t.Fatalf("objects %v, want %v", got, want)
	}
	ns := decode[corev1.Namespace](t, ms[0])
	for k, v := range map[string]string{"tenant": "payments", "managed-by": ManagedBy, "cost-center": "cc-42",
		"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/warn": "restricted"} {
		if ns.Labels[k] != v {
			t.Errorf("namespace label %s = %q, want %q", k, ns.Labels[k], v)
		}
	}
	quota := decode[corev1.ResourceQuota](t, ms[1])
	for name, v := range map[corev1.ResourceName]string{"requests.cpu": "8", "requests.memory": "8Gi", "limits.memory": "32Gi",
		"pods": "50", "services.loadbalancers": "2", "requests.storage": "100Gi"} {
		if q := quota.Spec.Hard[name]; q.Cmp(resource.MustParse(v)) != 0 {
			t.Errorf("quota %s = %s, want %s", name, q.String(), v)
		}
	}
	if quota.Namespace != "payments" {
		t.Errorf("quota in %q", quota.Namespace)
	}
	lr := decode[corev1.LimitRange](t, ms[2])
	if item := lr.Spec.Limits[0]; item.Type != corev1.LimitTypeContainer || item.Default.Cpu().String() != "500m" ||
		item.DefaultRequest.Memory().String() != "128Mi" {
		t.Errorf("limit range %+v", lr.Spec)
	}
	deny := decode[networkingv1.NetworkPolicy](t, ms[3])
	if len(deny.Spec.PodSelector.MatchLabels) != 0 || len(deny.Spec.Ingress) != 0 || len(deny.Spec.Egress) != 0 ||
		len(deny.Spec.PolicyTypes) != 2 {
		t.Errorf("default-deny %+v: want every pod, both directions, no rule", deny.Spec)
	}
	dns := decode[networkingv1.NetworkPolicy](t, ms[5])
	if to := dns.Spec.Egress[0]; to.To[0].NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"] != "kube-system" ||
		len(to.Ports) != 2 || to.Ports[0].Port.IntValue() != 53 {
		t.Errorf("allow-dns %+v", dns.Spec)
	}
	aws := decode[networkingv1.NetworkPolicy](t, ms[6])
	if e := aws.Spec.Egress; len(e) != 2 || e[0].To[0].IPBlock.CIDR != "169.254.170.23/32" || e[0].Ports[0].Port.IntValue() != 80 ||
		e[1].To[0].IPBlock.CIDR != "0.0.0.0/0" || e[1].Ports[0].Port.IntValue() != 443 || len(aws.Spec.Ingress) != 0 {
		t.Errorf("allow-aws-apis %+v: want the Pod Identity agent on 80 and HTTPS out, no ingress", aws.Spec)
	}
	sa := decode[corev1.ServiceAccount](t, ms[7])
	if sa.Annotations["eks.amazonaws.com/role-arn"] != "arn:aws:iam::111122223333:role/payments-ledger" {
		t.Errorf("the IRSA service account's annotations %v", sa.Annotations)
	}
}

// TestManifestsIngressCidrs: a namespace with ingressCidrs lets those networks (load balancers) reach its pods, in a
// NetworkPolicy of its own.
func TestManifestsIngressCidrs(t *testing.T) {
	a := payments()
	n := a.Namespaces[0]
	n.IngressCidrs = []string{"10.20.0.0/24", "10.20.1.0/24"}
	ms, err := Manifests(a, n, nil, false, "us-east-2")
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, m := range ms {
		if m["kind"] != "NetworkPolicy" || m["metadata"].(map[string]any)["name"] != IngressCidrsPolicy {
			continue
		}
		found = true
		p := decode[networkingv1.NetworkPolicy](t, m)
		if from := p.Spec.Ingress[0].From; len(from) != 2 || from[1].IPBlock.CIDR != "10.20.1.0/24" || len(p.Spec.Egress) != 0 {
			t.Errorf("allow-ingress-cidrs %+v", p.Spec)
		}
	}
	if !found {
		t.Errorf("no %s among %v", IngressCidrsPolicy, kinds(ms))
	}
}

func TestManifestsWithSecrets(t *testing.T) {
	a := payments()
	ms, err := Manifests(a, a.Namespaces[1], Identities{SecretsServiceAccount: "arn:aws:iam::111122223333:role/payments-secrets"},
		true, "us-east-2")
	if err != nil {
		t.Fatal(err)
	}
	got := kinds(ms)
	if !slices.Equal(got[len(got)-2:], []string{"ServiceAccount/tenant-secrets", "SecretStore/aws-secrets-manager"}) {
		t.Fatalf("objects %v: want the secrets service account and the SecretStore last", got)
	}
	raw, _ := json.Marshal(ms[len(ms)-1]["spec"])
	if want := `{"provider":{"aws":{"auth":{"jwt":{"serviceAccountRef":{"name":"tenant-secrets"}}},"region":"us-east-2","service":"SecretsManager"}}}`; string(raw) != want {
		t.Errorf("SecretStore spec %s, want %s", raw, want)
	}
	ns := decode[corev1.Namespace](t, ms[0])
	if ns.Labels["pod-security.kubernetes.io/enforce"] != "baseline" {
		t.Errorf("namespace payments-batch enforces %q, want baseline", ns.Labels["pod-security.kubernetes.io/enforce"])
	}
}
