package contract

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/gitops-fleet/pulumi-fleet/components/addons"
	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
	"github.com/gitops-fleet/pulumi-fleet/tests/offline"
)

// cloudIAM is what the emulated AWS holds after `up`: each role's trust policy by ARN, and each EKS Pod
// Identity association's role by cluster, namespace and service account.
type cloudIAM struct {
	trust        map[string]iampolicy.Document
	associations map[[3]string]string
}

func cloudIAMOf(t *testing.T, env *offline.Env) cloudIAM {
	t.Helper()
	all, err := env.Store.List()
	if err != nil {
		t.Fatal(err)
	}
	out := cloudIAM{trust: map[string]iampolicy.Document{}, associations: map[[3]string]string{}}
	for _, r := range all {
		state, err := r.Plain()
		if err != nil {
			t.Fatal(err)
		}
		str := func(k string) string { s, _ := state[k].(string); return s }
		switch r.Type {
		case "aws:iam/role:Role":
			var doc iampolicy.Document
			if err := json.Unmarshal([]byte(str("assumeRolePolicy")), &doc); err != nil {
				t.Fatalf("role %s: %v", str("arn"), err)
			}
			out.trust[str("arn")] = doc
		case "aws:eks/podIdentityAssociation:PodIdentityAssociation":
			out.associations[[3]string{str("clusterName"), str("namespace"), str("serviceAccount")}] = str("roleArn")
		}
	}
	return out
}

// checkCredentials is the seam between the template and EKS Pod Identity. The template's ApplicationSet
// annotates the chart's service account with eks.amazonaws.com/role-arn = <addon>_iam_role_arn, so the EKS pod
// identity webhook injects a web identity token, and the AWS SDKs take those IRSA credentials before the Pod
// Identity agent's (Amazon EKS User Guide, "Understand how EKS Pod Identity works": the container credential
// provider comes after web identity in the default chain). So the annotated role must trust the cluster's OIDC
// provider for exactly that service account, always; and where FleetCluster bound the service account with
// Pod Identity, the association must name the same role, which must trust pods.eks.amazonaws.com for that
// cluster, namespace and service account, so the add-on gets the same role when the add-ons repository drops
// the annotation. An add-on whose default version supports Pod Identity must be bound.
func checkCredentials(t *testing.T, a addons.Addon, cluster, roleArn, namespace, serviceAccount string, iam cloudIAM) {
	t.Helper()
	trust, ok := iam.trust[roleArn]
	if !ok {
		t.Errorf("%s on %s: the values name role %q, which FleetCluster did not create", a.Name, cluster, roleArn)
		return
	}
	subject := "system:serviceaccount:" + namespace + ":" + serviceAccount
	irsa, pod := false, false
	for _, st := range trust.Statement {
		switch {
		case st.Principal["Federated"] != nil && slices.Equal(st.Action, []string{"sts:AssumeRoleWithWebIdentity"}):
			for key, v := range st.Condition["StringEquals"] {
				if len(key) > 4 && key[len(key)-4:] == ":sub" && contains(v, subject) {
					irsa = true
				}
			}
		case st.Principal["Service"] == "pods.eks.amazonaws.com" && slices.Equal(st.Action, []string{"sts:AssumeRole", "sts:TagSession"}):
			eq := st.Condition["StringEquals"]
			pod = contains(eq["aws:RequestTag/kubernetes-namespace"], namespace) &&
				contains(eq["aws:RequestTag/kubernetes-service-account"], serviceAccount) &&
				eq["aws:RequestTag/eks-cluster-arn"] != nil
		}
	}
	if !irsa {
		t.Errorf("%s on %s: role %s does not trust %s through the cluster's OIDC provider, and the template annotates "+
			"the service account with it: %s", a.Name, cluster, roleArn, subject, trust.JSON())
	}
	bound, isBound := iam.associations[[3]string{cluster, namespace, serviceAccount}]
	switch {
	case isBound && bound != roleArn:
		t.Errorf("%s on %s: Pod Identity binds %s to %s, the values to %s", a.Name, cluster, subject, bound, roleArn)
	case isBound && !pod:
		t.Errorf("%s on %s: %s is bound with Pod Identity, but role %s does not trust it: %s", a.Name, cluster, subject, roleArn, trust.JSON())
	case !isBound && a.Identity.PodIdentity.Supports(a.Version):
		t.Errorf("%s on %s: version %s takes Pod Identity credentials (%s), but %s is not bound", a.Name, cluster,
			a.Version, a.Identity.PodIdentity.Source, subject)
	}
}

// contains tells whether a condition value (a string or a list of them, as decoded from JSON) holds s.
func contains(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return v == s
	case []any:
		return slices.Contains(v, any(s))
	}
	return false
}
