package tenant

// payments is a valid tenant with its defaults: two namespaces, an owner, a workload identity, a sync window.
func payments() TenantArgs {
	return WithDefaults(TenantArgs{
		Name:     "payments",
		Clusters: &Selector{Environments: []string{"dev"}},
		Owners: []Owner{
			{Arn: "arn:aws:iam::111122223333:role/payments-admins", Groups: []string{"payments-admins"}},
			{Arn: "arn:aws:iam::111122223333:role/auditors", Access: "view", Groups: []string{"auditors"}},
		},
		Namespaces: []Namespace{
			{Name: "payments", Labels: map[string]string{"cost-center": "cc-42"},
				Quota:           &Quota{RequestsCpu: "8", LimitsMemory: "32Gi"},
				ServiceAccounts: []ServiceAccount{{Name: "ledger", ManagedPolicyArns: []string{"arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess"}}}},
			{Name: "payments-batch", PodSecurity: "baseline", Limits: &Limits{Memory: "1Gi"}},
		},
		SourceRepos: []string{"https://github.com/acme/payments-deploy"},
		SyncWindows: []SyncWindow{{Kind: "deny", Schedule: "0 22 * * *", Duration: "8h"}},
	})
}
