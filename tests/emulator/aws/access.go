package aws

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/aws-iam-authenticator/pkg/config"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// The types of a cluster's access entries and their access policy associations.
const (
	AccessEntryType             = "aws:eks/accessEntry:AccessEntry"
	AccessPolicyAssociationType = "aws:eks/accessPolicyAssociation:AccessPolicyAssociation"
)

// AccessLabel marks the RBAC bindings that stand for EKS access policies on a control plane (SyncAccess): they are
// the offline EKS's, not the fleet's.
const AccessLabel = "emulator.pulumi-fleet/eks-access-policy"

// BackendModes are aws-iam-authenticator's backends for an EKS authentication mode, in the order it asks them:
// access entries (DynamicFile, as EKS runs it) take precedence over aws-auth (EKSConfigMap) where both apply.
func BackendModes(authenticationMode string) []string {
	switch authenticationMode {
	case "API":
		return []string{"DynamicFile"}
	case "API_AND_CONFIG_MAP":
		return []string{"DynamicFile", "EKSConfigMap"}
	default: // CONFIG_MAP, EKS's default
		return []string{"EKSConfigMap"}
	}
}

// AccessGroup is the Kubernetes group the authenticator gives a principal with an access entry: the RBAC bindings
// of its access policies name it.
func AccessGroup(principalArn string) string { return "eks:access-entry:" + principalArn }

// grant is one principal's access: its authenticator mapping and its access policies.
type grant struct {
	principal, username string
	groups              []string
	policies            []policyScope
}

type policyScope struct {
	policy     string   // AmazonEKSClusterAdminPolicy ...
	namespaces []string // nil for the whole cluster
}

// SyncAccess makes the control plane of EKS cluster `cluster` in region authenticate and authorize as EKS does
// from the cluster's access entries and access policy associations in s: each STANDARD entry's principal is mapped
// (the DynamicFile backend) to its username (EKS's default: the user's ARN, or
// arn:aws:sts::<account>:assumed-role/<role>/{{SessionName}}) and groups (its Kubernetes groups and AccessGroup),
// and each associated policy is an RBAC binding of AccessGroup to AccessPolicyRoles' ClusterRole, cluster-wide or in
// each namespace of its scope that exists (a namespace created later gets its binding then: ProxyOptions). The
// cluster's creator (the deployer, DeployerARN) is an administrator when the cluster bootstraps its creator's
// permissions (creator). A cluster with no control plane, or no longer in s, is left alone. Writers sync one at a
// time (Clusters.LockAccess), each from the cloud as it is once its turn comes.
func SyncAccess(ctx context.Context, s *emulator.Store, clusters controlplane.Clusters, region, cluster string) error {
	name := controlplane.Name(region, cluster)
	if _, err := os.Stat(clusters.Dir(name)); err != nil {
		return nil
	}
	unlock, err := clusters.LockAccess(name)
	if err != nil {
		return err
	}
	defer unlock()
	grants, found, err := accessOf(s, region, cluster)
	if err != nil || !found {
		return err
	}
	if err := clusters.WriteAccess(name, mappings(grants)); err != nil {
		return err
	}
	if err := clusters.Start(ctx, name); err != nil {
		return err
	}
	kube, err := clusters.Typed(name)
	if err != nil {
		return err
	}
	return bindAccessPolicies(ctx, kube, grants)
}

// accessOf is the grants of the cluster's access entries in s; found is false when the cluster is not in s.
func accessOf(s *emulator.Store, region, cluster string) (grants []grant, found bool, err error) {
	recs, err := s.List()
	if err != nil {
		return nil, false, err
	}
	var clusterState map[string]any
	var entries, assocs []map[string]any
	for _, r := range recs {
		if r.Scope != region || (r.Type != EKSClusterType && r.Type != AccessEntryType && r.Type != AccessPolicyAssociationType) {
			continue
		}
		state, err := r.Plain()
		if err != nil {
			return nil, false, err
		}
		switch {
		case r.Type == EKSClusterType && state["name"] == cluster:
			clusterState = state
		case r.Type == AccessEntryType && state["clusterName"] == cluster:
			entries = append(entries, state)
		case r.Type == AccessPolicyAssociationType && state["clusterName"] == cluster:
			assocs = append(assocs, state)
		}
	}
	if clusterState == nil {
		return nil, false, nil
	}
	byPrincipal := map[string]*grant{}
	if ac, _ := clusterState["accessConfig"].(map[string]any); ac["bootstrapClusterCreatorAdminPermissions"] != false {
		c := creator()
		byPrincipal[c.principal] = &c
	}
	for _, e := range entries {
		principal, _ := e["principalArn"].(string)
		if t, _ := e["type"].(string); t != "" && t != "STANDARD" {
			continue // EC2_LINUX and the like are nodes' entries; no kubelet authenticates here
		}
		username, _ := e["userName"].(string)
		if username == "" {
			username = defaultUsername(principal)
		}
		groups := []string{}
		for _, g := range asList(e["kubernetesGroups"]) {
			if s, ok := g.(string); ok {
				groups = append(groups, s)
			}
		}
		byPrincipal[principal] = &grant{principal: principal, username: username,
			groups: append(groups, AccessGroup(principal))}
	}
	for _, a := range assocs {
		g := byPrincipal[fmt.Sprint(a["principalArn"])]
		if g == nil {
			continue // EKS refuses an association without its entry; the program orders them
		}
		p := policyScope{policy: path.Base(fmt.Sprint(a["policyArn"]))}
		if scope, _ := a["accessScope"].(map[string]any); scope["type"] == "namespace" {
			for _, n := range asList(scope["namespaces"]) {
				p.namespaces = append(p.namespaces, fmt.Sprint(n))
			}
		}
		g.policies = append(g.policies, p)
	}
	for _, g := range byPrincipal {
		grants = append(grants, *g)
	}
	slices.SortFunc(grants, func(a, b grant) int { return cmp.Compare(a.principal, b.principal) })
	return grants, true, nil
}

// bindAccessPolicies makes the control plane's AccessLabel bindings exactly those of grants' policies.
func bindAccessPolicies(ctx context.Context, kube kubernetes.Interface, grants []grant) error {
	if err := ensurePolicyRoles(ctx, kube); err != nil {
		return err
	}
	namespaces, err := kube.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	exists := map[string]bool{}
	for _, n := range namespaces.Items {
		exists[n.Name] = true
	}
	clusterWide := map[string]*rbacv1.ClusterRoleBinding{}
	namespaced := map[string]*rbacv1.RoleBinding{} // namespace/name
	for _, g := range grants {
		for _, p := range g.policies {
			role, ok := AccessPolicyRoles[p.policy]
			if !ok {
				return fmt.Errorf("access policy %s of %s is not one EKS has (%v)", p.policy, g.principal, slices.Sorted(maps.Keys(AccessPolicyRoles)))
			}
			meta := metav1.ObjectMeta{Name: bindingName(g.principal, p.policy), Labels: map[string]string{AccessLabel: p.policy}}
			subjects := []rbacv1.Subject{{Kind: rbacv1.GroupKind, APIGroup: rbacv1.GroupName, Name: AccessGroup(g.principal)}}
			ref := rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: role}
			if p.namespaces == nil {
				clusterWide[meta.Name] = &rbacv1.ClusterRoleBinding{ObjectMeta: meta, Subjects: subjects, RoleRef: ref}
				continue
			}
			for _, n := range p.namespaces {
				if exists[n] {
					m := meta
					m.Namespace = n
					namespaced[n+"/"+m.Name] = &rbacv1.RoleBinding{ObjectMeta: m, Subjects: subjects, RoleRef: ref}
				}
			}
		}
	}
	selector := metav1.ListOptions{LabelSelector: AccessLabel}
	crbs, err := kube.RbacV1().ClusterRoleBindings().List(ctx, selector)
	if err != nil {
		return err
	}
	for _, b := range crbs.Items {
		if _, keep := clusterWide[b.Name]; keep {
			delete(clusterWide, b.Name)
		} else if err := kube.RbacV1().ClusterRoleBindings().Delete(ctx, b.Name, metav1.DeleteOptions{}); ignoreNotFound(err) != nil {
			return err
		}
	}
	rbs, err := kube.RbacV1().RoleBindings("").List(ctx, selector)
	if err != nil {
		return err
	}
	for _, b := range rbs.Items {
		if _, keep := namespaced[b.Namespace+"/"+b.Name]; keep {
			delete(namespaced, b.Namespace+"/"+b.Name)
		} else if err := kube.RbacV1().RoleBindings(b.Namespace).Delete(ctx, b.Name, metav1.DeleteOptions{}); ignoreNotFound(err) != nil {
			return err
		}
	}
	for _, b := range clusterWide {
		if _, err := kube.RbacV1().ClusterRoleBindings().Create(ctx, b, metav1.CreateOptions{}); ignoreExists(err) != nil {
			return err
		}
	}
	for _, b := range namespaced {
		if _, err := kube.RbacV1().RoleBindings(b.Namespace).Create(ctx, b, metav1.CreateOptions{}); ignoreExists(err) != nil {
			return err
		}
	}
	return nil
}

// creator is the grant of the cluster's creator (the deployer) when the cluster bootstraps its creator's
// permissions: an administrator, in group system:masters, from the cluster's first request on (as EKS's creator
// was before access entries; the access entry EKS now makes for it is not emulated).
func creator() grant {
	return grant{principal: DeployerARN(), username: DeployerARN(), groups: []string{"system:masters"}}
}

// CreatorAccess is the access of a new cluster's control plane: its creator's, when the cluster bootstraps its
// creator's permissions, else none.
func CreatorAccess(bootstrap bool) controlplane.Access {
	if !bootstrap {
		return controlplane.Access{}
	}
	c := creator()
	return mappings([]grant{c})
}

// mappings are the authenticator's mappings of grants: roles by their ARN without its path, users by theirs.
func mappings(grants []grant) controlplane.Access {
	var access controlplane.Access
	for _, g := range grants {
		if strings.Contains(g.principal, ":role/") {
			access.RoleMappings = append(access.RoleMappings, config.RoleMapping{
				RoleARN: withoutPath(g.principal), Username: g.username, Groups: g.groups})
		} else {
			access.UserMappings = append(access.UserMappings, config.UserMapping{
				UserARN: g.principal, Username: g.username, Groups: g.groups})
		}
	}
	return access
}

// defaultUsername is EKS's username for an access entry that sets none.
func defaultUsername(principal string) string {
	if i := strings.Index(principal, ":role/"); i >= 0 {
		return fmt.Sprintf("arn:aws:sts::%s:assumed-role/%s/{{SessionName}}", Account, path.Base(principal[i+len(":role/"):]))
	}
	return principal
}

// withoutPath is a role ARN without its path, as the authenticator compares roles (an assumed role's ARN carries
// no path).
func withoutPath(role string) string {
	i := strings.Index(role, ":role/")
	if i < 0 {
		return role
	}
	return role[:i+len(":role/")] + path.Base(role[i+len(":role/"):])
}

// bindingName is the name of the binding of principal's policy: stable, and the same principal and policy always
// bind the same ClusterRole, so a binding is never updated, only made or deleted.
func bindingName(principal, policy string) string {
	sum := sha256.Sum256([]byte(principal + "\n" + policy))
	return "eks-access-" + hex.EncodeToString(sum[:6])
}

func asList(v any) []any { l, _ := v.([]any); return l }

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

func ignoreExists(err error) error {
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	return err
}
