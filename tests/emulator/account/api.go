package account

import (
	"net/http"
	"strings"
	"sync"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// API answers IAM's simulator, Service Quotas and EC2's describes from a store.
type API struct {
	store *emulator.Store
	next  http.Handler

	mu       sync.Mutex
	policies []Policy           // the deployer's; nil: AdministratorAccess
	applied  map[string]float64 // "<region>/<quota code>" -> the account's applied value
}

// New is the API over store; requests to other hosts go to next.
func New(store *emulator.Store, next http.Handler) *API {
	return &API{store: store, next: next, applied: map[string]float64{}}
}

// SetDeployerPolicy gives the deployer (aws.DeployerARN) these identity policies instead of AdministratorAccess; none
// gives AdministratorAccess back.
func (a *API) SetDeployerPolicy(policies ...Policy) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.policies = policies
}

// SetQuota applies value to the quota code in region, as an approved increase does; GetServiceQuota answers it from
// then on.
func (a *API) SetQuota(region, code string, value float64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.applied[region+"/"+code] = value
}

// ServeHTTP routes IAM's, Service Quotas' and EC2's hosts; other hosts go to next.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := emulator.Host(r)
	service, rest, _ := strings.Cut(strings.TrimSuffix(host, ".amazonaws.com"), ".")
	if !strings.HasSuffix(host, ".amazonaws.com") || service != "iam" && service != "servicequotas" && service != "ec2" {
		a.next.ServeHTTP(w, r)
		return
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=") {
		http.Error(w, "request is not signed", http.StatusForbidden)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	switch service {
	case "iam":
		a.iam(w, r)
	case "servicequotas":
		a.quotas(w, r, rest)
	case "ec2":
		a.ec2(w, r, rest)
	}
}
