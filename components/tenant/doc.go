// Package tenant is the Tenant component (fleet:index:Tenant): a team onboarded onto the clusters of the fleet it
// selects, from one typed entry (seed 003's tenants, with what cdk-eks-blueprints' ApplicationTeam,
// terraform-aws-eks-blueprints-teams and Argo CD's AppProject add): namespaces labelled for the tenant with Pod
// Security Admission, a ResourceQuota, a LimitRange and default-deny NetworkPolicies; owners given EKS access
// scoped to those namespaces; workload identities bound through EKS Pod Identity; a SecretStore on AWS Secrets
// Manager reading only the tenant's prefix; and an Argo CD project and ApplicationSet on the hub that let the
// tenant deploy into its namespaces and nowhere else.
//
// Built so far (issue 25, in progress): the inputs with their defaults (WithDefaults), their validation (Check,
// CheckFleet), what a tenant is made of as pure functions of the inputs (Manifests, Project, ApplicationSet,
// AccessEntries), NewTenant, which Fleet calls per tenant, with its roles (Pod Identity, and the SecretStore's
// IRSA role) and the TenantGuard resource of preventDeletion. Not yet: Git delivery of the manifests, IRSA for
// workload identities, a standalone component in the schema (README, "Tenants").
package tenant
