// Package tenant is the Tenant component (fleet:index:Tenant): a team onboarded onto the clusters of the fleet it
// selects, from one typed entry (seed 003's tenants, with what cdk-eks-blueprints' ApplicationTeam,
// terraform-aws-eks-blueprints-teams and Argo CD's AppProject add): namespaces labelled for the tenant with Pod
// Security Admission, a ResourceQuota, a LimitRange and default-deny NetworkPolicies; owners given EKS access
// scoped to those namespaces; workload identities bound through EKS Pod Identity or IRSA; a SecretStore on AWS Secrets
// Manager reading only the tenant's prefix; and an Argo CD project and ApplicationSet on the hub that let the
// tenant deploy into its namespaces and nowhere else. The in-cluster objects are written through each cluster's
// provider or, with Git delivery, committed to the tenant's folder and synced by Argo CD the GitOps Bridge way.
//
// Files: the inputs (args.go) with their defaults (defaults.go) and validation (validate.go; fleet.go for the rules
// across a fleet, selection and merged access entries); what a tenant is made of, as pure functions of the inputs
// (manifests.go, project.go, appset.go, and git.go for Git delivery: the file per cluster, the platform project
// and ApplicationSet); the roles of its service accounts, EKS Pod Identity or IRSA (identity.go, secrets.go); the
// build under a Fleet (component.go, Deploy) and the standalone component (standalone.go, NewTenant); and the
// TenantGuard resource of preventDeletion (guard.go). docs/tenants.md has the table of what a
// tenant gets and who can do what.
package tenant
