package tenant

// The defaults of a tenant's inputs (seed 003's quota; the LimitRange defaults of its values file).
const (
	DefaultSecretsPrefix = "tenants/"
	DefaultPodSecurity   = "restricted"
	DefaultAccess        = "admin"
)

// DefaultQuota is a namespace's ResourceQuota when the tenant gives none, field by field.
var DefaultQuota = TenantQuota{RequestsCpu: "4", RequestsMemory: "8Gi", LimitsCpu: "8", LimitsMemory: "16Gi", Pods: "50",
	LoadBalancers: "2", Storage: "100Gi"}

// DefaultLimits are a namespace's container defaults when the tenant gives none, field by field.
var DefaultLimits = TenantLimits{Cpu: "500m", Memory: "512Mi", RequestCpu: "100m", RequestMemory: "128Mi"}

// WithDefaults is a with every unset field at its default.
func WithDefaults(a TenantSpec) TenantSpec {
	if a.SecretsPrefix == "" {
		a.SecretsPrefix = DefaultSecretsPrefix
	}
	if len(a.SourceRepos) == 0 && a.Workloads != nil {
		a.SourceRepos = []string{a.Workloads.URL}
	}
	if a.PreventDeletion == nil {
		on := true
		a.PreventDeletion = &on
	}
	owners := make([]TenantOwner, len(a.Owners))
	for i, o := range a.Owners {
		o.Access = or(o.Access, DefaultAccess)
		owners[i] = o
	}
	a.Owners = owners
	namespaces := make([]TenantNamespace, len(a.Namespaces))
	for i, n := range a.Namespaces {
		n.PodSecurity = or(n.PodSecurity, DefaultPodSecurity)
		q := DefaultQuota
		if n.Quota != nil {
			q = TenantQuota{RequestsCpu: or(n.Quota.RequestsCpu, q.RequestsCpu), RequestsMemory: or(n.Quota.RequestsMemory, q.RequestsMemory),
				LimitsCpu: or(n.Quota.LimitsCpu, q.LimitsCpu), LimitsMemory: or(n.Quota.LimitsMemory, q.LimitsMemory),
				Pods: or(n.Quota.Pods, q.Pods), LoadBalancers: or(n.Quota.LoadBalancers, q.LoadBalancers),
				Storage: or(n.Quota.Storage, q.Storage)}
		}
		n.Quota = &q
		l := DefaultLimits
		if n.Limits != nil {
			l = TenantLimits{Cpu: or(n.Limits.Cpu, l.Cpu), Memory: or(n.Limits.Memory, l.Memory),
				RequestCpu: or(n.Limits.RequestCpu, l.RequestCpu), RequestMemory: or(n.Limits.RequestMemory, l.RequestMemory)}
		}
		n.Limits = &l
		namespaces[i] = n
	}
	a.Namespaces = namespaces
	return a
}

func or(v, dflt string) string {
	if v == "" {
		return dflt
	}
	return v
}
