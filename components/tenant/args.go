package tenant

// TenantSpec is one tenant: a team, what it gets on the clusters it selects, and who owns it.
type TenantSpec struct {
	// Name is the tenant's name, a DNS-1123 label unique in the fleet, for example "payments". It labels the
	// tenant's namespaces (tenant=<name>) and names its Argo CD project ("tenant-<name>").
	Name string `pulumi:"name"`
	// Clusters selects the clusters the tenant is onboarded onto. Default: every spoke.
	Clusters *TenantSelector `pulumi:"clusters,optional"`
	// Owners are the IAM principals that own the tenant: each gets an EKS access entry on every selected cluster
	// with an access policy scoped to the tenant's namespaces, and its groups a role in the tenant's Argo CD
	// project. Default: none.
	Owners []TenantOwner `pulumi:"owners,optional"`
	// Namespaces are the tenant's namespaces, at least one, each created on every selected cluster.
	Namespaces []TenantNamespace `pulumi:"namespaces"`
	// Workloads is where the tenant's Applications come from: a folder per cluster under its path. With it the
	// hub gets the tenant's ApplicationSet; without it only the project (the tenant's own Applications, or
	// ApplicationSets of another repository, use it). Default: none (the hub gets only the project).
	Workloads *TenantWorkloads `pulumi:"workloads,optional"`
	// SourceRepos are the repositories (URLs, Argo CD globs) the tenant's Applications may read. Default: the
	// workloads repository's URL.
	SourceRepos []string `pulumi:"sourceRepos,optional"`
	// SyncWindows are the Argo CD sync windows of the tenant's project. Default: none (syncs at any time).
	SyncWindows []TenantSyncWindow `pulumi:"syncWindows,optional"`
	// SecretsPrefix is the prefix of the tenant's secrets in AWS Secrets Manager: the SecretStore of each
	// namespace reads only "<secretsPrefix><name>/*". Default: "tenants/".
	SecretsPrefix string `pulumi:"secretsPrefix,optional"`
	// PreventDeletion refuses to remove the tenant while its namespaces hold PersistentVolumeClaims. Default:
	// true.
	PreventDeletion *bool `pulumi:"preventDeletion,optional"`
	// ExtraKinds are namespaced kinds the tenant's Applications may create besides WorkloadKinds, for example
	// {group: networking.k8s.io, kind: Ingress} (an Ingress may join an IngressGroup's load balancer of another
	// namespace: alb.ingress.kubernetes.io/group.name) or a CRD's kind of an add-on. Refused: PlatformKinds, globs,
	// an empty kind. Default: none.
	ExtraKinds []TenantKind `pulumi:"extraKinds,optional"`
	// AllowAccountWideAddons onboards the tenant onto clusters that run an add-on with an account-wide role (the ACK
	// controllers, the Gateway API controller without addonSettings.policyArns; a Fleet knows them, a Tenant of its
	// own does not): those controllers act on the objects of every namespace with a role that reaches every resource
	// of their services in the account, and the tenant's owners hold edit or admin in theirs. Without it a Fleet
	// refuses such a selection. Default: false.
	AllowAccountWideAddons bool `pulumi:"allowAccountWideAddons,optional"`
}

// NamespaceNames are the names of the tenant's namespaces, in the order given.
func (t TenantSpec) NamespaceNames() []string {
	out := make([]string, len(t.Namespaces))
	for i, n := range t.Namespaces {
		out[i] = n.Name
	}
	return out
}

// TenantKind is a namespaced Kubernetes kind: its API group ("" for core) and kind, as Argo CD's project names it.
type TenantKind struct {
	// Group is the API group, "" for core ("apps", "networking.k8s.io"). Default: "" (core).
	Group string `pulumi:"group,optional"`
	// Kind is the kind ("Ingress").
	Kind string `pulumi:"kind"`
}

// TenantSelector picks clusters of the fleet: those in any of Environments or named in Clusters. The hub is picked
// only when named.
type TenantSelector struct {
	// Environments are GitOps Bridge environments ("dev", "prod"). Default: none.
	Environments []string `pulumi:"environments,optional"`
	// Clusters are cluster names. Default: none.
	Clusters []string `pulumi:"clusters,optional"`
}

// TenantOwner is an IAM principal that owns the tenant.
type TenantOwner struct {
	// Arn is an IAM role or user ARN ("arn:aws:iam::111122223333:role/payments-admins"); for IAM Identity Center,
	// the permission set's role.
	Arn string `pulumi:"arn"`
	// Access is the EKS access policy, scoped to the tenant's namespaces: "admin" (AmazonEKSAdminPolicy), "edit"
	// (AmazonEKSEditPolicy) or "view" (AmazonEKSViewPolicy). Default: "admin".
	Access string `pulumi:"access,optional"`
	// Groups are SSO groups given the same access in the tenant's Argo CD project ("admin" and "edit": sync,
	// create, delete its Applications; "view": read them). Default: none.
	Groups []string `pulumi:"groups,optional"`
}

// TenantNamespace is one namespace of the tenant.
type TenantNamespace struct {
	// Name is the namespace's name, a DNS-1123 label, unique in the fleet and not an add-on's namespace.
	Name string `pulumi:"name"`
	// Labels are added to the namespace (tenant and managed-by are set by the component). Default: none.
	Labels map[string]string `pulumi:"labels,optional"`
	// PodSecurity is the Pod Security Admission level enforced: "privileged", "baseline" or "restricted".
	// Default: "restricted".
	PodSecurity string `pulumi:"podSecurity,optional"`
	// Quota is the namespace's ResourceQuota. Default: each field's default (TenantQuota).
	Quota *TenantQuota `pulumi:"quota,optional"`
	// Limits are the container defaults of the namespace's LimitRange. Default: each field's default (TenantLimits).
	Limits *TenantLimits `pulumi:"limits,optional"`
	// ServiceAccounts are the namespace's workload identities. Default: none.
	ServiceAccounts []TenantServiceAccount `pulumi:"serviceAccounts,optional"`
	// IngressCidrs are IPv4 or IPv6 networks in CIDR form, host bits zero ("10.20.0.0/24"), whose traffic may reach the
	// namespace's pods, besides the namespace's own pods: the way load balancers reach a tenant's Services (an
	// internet-facing load balancer's subnets for IP targets, the nodes' subnets for instance targets; the AWS Load
	// Balancer Controller's docs, "Network policies"). Each becomes an ipBlock of the NetworkPolicy allow-ingress-cidrs.
	// Default: none (no load balancer reaches the namespace's pods).
	IngressCidrs []string `pulumi:"ingressCidrs,optional"`
}

// TenantQuota is a ResourceQuota's hard limits, each a Kubernetes quantity ("4", "500m", "8Gi").
type TenantQuota struct {
	// RequestsCpu is requests.cpu, a Kubernetes quantity. Default: "4".
	RequestsCpu string `pulumi:"requestsCpu,optional"`
	// RequestsMemory is requests.memory, a Kubernetes quantity. Default: "8Gi".
	RequestsMemory string `pulumi:"requestsMemory,optional"`
	// LimitsCpu is limits.cpu, a Kubernetes quantity. Default: "8".
	LimitsCpu string `pulumi:"limitsCpu,optional"`
	// LimitsMemory is limits.memory, a Kubernetes quantity. Default: "16Gi".
	LimitsMemory string `pulumi:"limitsMemory,optional"`
	// Pods is the number of pods, a Kubernetes quantity. Default: "50".
	Pods string `pulumi:"pods,optional"`
	// LoadBalancers is services.loadbalancers, the Services of type LoadBalancer, a Kubernetes quantity. Default: "2".
	LoadBalancers string `pulumi:"loadBalancers,optional"`
	// Storage is requests.storage, what the namespace's claims may request in all, a Kubernetes quantity. Default:
	// "100Gi".
	Storage string `pulumi:"storage,optional"`
}

// TenantLimits are a LimitRange's container defaults, each a Kubernetes quantity.
type TenantLimits struct {
	// Cpu is the default CPU limit, a Kubernetes quantity. Default: "500m".
	Cpu string `pulumi:"cpu,optional"`
	// Memory is the default memory limit, a Kubernetes quantity. Default: "512Mi".
	Memory string `pulumi:"memory,optional"`
	// RequestCpu is the default CPU request, a Kubernetes quantity. Default: "100m".
	RequestCpu string `pulumi:"requestCpu,optional"`
	// RequestMemory is the default memory request, a Kubernetes quantity. Default: "128Mi".
	RequestMemory string `pulumi:"requestMemory,optional"`
}

// TenantServiceAccount is a workload identity: a Kubernetes service account and, when it has policies, an IAM role
// on every selected cluster, bound through EKS Pod Identity, or on an irsa cluster (FleetCluster identity "irsa")
// through IRSA (the role trusts the cluster's OIDC provider; the service account carries its ARN).
type TenantServiceAccount struct {
	// Name is the service account's name, a DNS-1123 subdomain.
	Name string `pulumi:"name"`
	// ManagedPolicyArns are IAM policy ARNs ("arn:aws:iam::aws:policy/<name>") attached to its role. Default: none.
	ManagedPolicyArns []string `pulumi:"managedPolicyArns,optional"`
	// Policy is an inline IAM policy document (JSON) of its role. Default: none.
	Policy string `pulumi:"policy,optional"`
}

// TenantSyncWindow is an Argo CD sync window of the tenant's project.
type TenantSyncWindow struct {
	// Kind is "allow" or "deny".
	Kind string `pulumi:"kind"`
	// Schedule is a cron schedule ("0 22 * * *").
	Schedule string `pulumi:"schedule"`
	// Duration is how long the window lasts, a Go duration ("1h").
	Duration string `pulumi:"duration"`
	// ManualSync lets manual syncs through a deny window. Default: false.
	ManualSync bool `pulumi:"manualSync,optional"`
}
