package tenant

// payments is a valid tenant with its defaults: two namespaces, an owner, a workload identity, a sync window.
func payments() TenantSpec {
	return WithDefaults(TenantSpec{
		Name:     "payments",
		Clusters: &TenantSelector{Environments: []string{"dev"}},
		Owners: []TenantOwner{
			{Arn: "arn:aws:iam::111122223333:role/payments-admins", Groups: []string{"payments-admins"}},
			{Arn: "arn:aws:iam::111122223333:role/auditors", Access: "view", Groups: []string{"auditors"}},
		},
		Namespaces: []TenantNamespace{
			{Name: "payments", Labels: map[string]string{"cost-center": "cc-42"},
				Quota:           &TenantQuota{RequestsCpu: "8", LimitsMemory: "32Gi"},
				ServiceAccounts: []TenantServiceAccount{{Name: "ledger", ManagedPolicyArns: []string{"arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess"}}}},
			{Name: "payments-batch", PodSecurity: "baseline", Limits: &TenantLimits{Memory: "1Gi"}},
		},
		SourceRepos: []string{"https://github.com/acme/payments-deploy"},
		SyncWindows: []TenantSyncWindow{{Kind: "deny", Schedule: "0 22 * * *", Duration: "8h"}},
	})
}
