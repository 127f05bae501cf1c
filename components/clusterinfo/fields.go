package clusterinfo

import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"

// Fields are the facts of a ClusterInfoInput as separate outputs. A ClusterInfoOutput is secret as a whole
// when it carries a secret kubeconfig, so taken from one every fact but the kubeconfig is unsecret; facts
// given as ClusterInfoArgs keep their own secretness. The kubeconfig is always secret. Optional facts that
// are not given are "" or empty maps.
type Fields struct {
	ClusterName              pulumi.StringOutput
	Environment              pulumi.StringOutput
	Server                   pulumi.StringOutput
	CertificateAuthorityData pulumi.StringOutput
	Region                   pulumi.StringOutput
	AccountId                pulumi.StringOutput
	KubernetesVersion        pulumi.StringOutput
	Kubeconfig               pulumi.StringOutput
	SpokeRoleArn             pulumi.StringOutput
	GitOpsMetadata           pulumi.StringMapOutput
	Addons                   pulumi.BoolMapOutput
}

// FieldsOf splits in into its facts. Required facts missing from a ClusterInfoArgs are "" (Missing names them).
func FieldsOf(in ClusterInfoInput) Fields {
	if a, ok := in.(ClusterInfoArgs); ok {
		return a.fields()
	}
	if a, ok := in.(*ClusterInfoArgs); ok && a != nil {
		return a.fields()
	}
	o := in.ToClusterInfoOutput()
	str := func(f func(ClusterInfo) string) pulumi.StringOutput {
		return pulumi.Unsecret(o.ApplyT(f)).(pulumi.StringOutput)
	}
	return Fields{
		ClusterName:              str(func(c ClusterInfo) string { return c.ClusterName }),
		Environment:              str(func(c ClusterInfo) string { return c.Environment }),
		Server:                   str(func(c ClusterInfo) string { return c.Server }),
		CertificateAuthorityData: str(func(c ClusterInfo) string { return c.CertificateAuthorityData }),
		Region:                   str(func(c ClusterInfo) string { return c.Region }),
		AccountId:                str(func(c ClusterInfo) string { return c.AccountId }),
		KubernetesVersion:        str(func(c ClusterInfo) string { return c.KubernetesVersion }),
		Kubeconfig:               pulumi.ToSecret(o.ApplyT(func(c ClusterInfo) string { return c.Kubeconfig })).(pulumi.StringOutput),
		SpokeRoleArn:             str(func(c ClusterInfo) string { return c.SpokeRoleArn }),
		GitOpsMetadata: pulumi.Unsecret(o.ApplyT(func(c ClusterInfo) map[string]string {
			return c.GitOpsMetadata
		})).(pulumi.StringMapOutput),
		Addons: pulumi.Unsecret(o.ApplyT(func(c ClusterInfo) map[string]bool { return c.Addons })).(pulumi.BoolMapOutput),
	}
}

func (a ClusterInfoArgs) fields() Fields {
	str := func(in pulumi.StringInput) pulumi.StringOutput {
		if in == nil {
			return pulumi.String("").ToStringOutput()
		}
		return in.ToStringOutput()
	}
	f := Fields{
		ClusterName:              str(a.ClusterName),
		Environment:              str(a.Environment),
		Server:                   str(a.Server),
		CertificateAuthorityData: str(a.CertificateAuthorityData),
		Region:                   str(a.Region),
		AccountId:                str(a.AccountId),
		KubernetesVersion:        str(a.KubernetesVersion),
		Kubeconfig:               pulumi.ToSecret(str(a.Kubeconfig)).(pulumi.StringOutput),
		SpokeRoleArn:             str(a.SpokeRoleArn),
		GitOpsMetadata:           pulumi.StringMap{}.ToStringMapOutput(),
		Addons:                   pulumi.BoolMap{}.ToBoolMapOutput(),
	}
	if a.GitOpsMetadata != nil {
		f.GitOpsMetadata = a.GitOpsMetadata.ToStringMapOutput()
	}
	if a.Addons != nil {
		f.Addons = a.Addons.ToBoolMapOutput()
	}
	return f
}

// Missing names the required facts a ClusterInfoArgs leaves nil ("clusterName", ...); outputs are never missing.
func Missing(in ClusterInfoInput) []string {
	var a ClusterInfoArgs // no input at all misses every fact
	switch v := in.(type) {
	case nil:
	case ClusterInfoArgs:
		a = v
	case *ClusterInfoArgs:
		if v != nil {
			a = *v
		}
	default:
		return nil
	}
	var out []string
	for _, f := range []struct {
		name string
		in   pulumi.StringInput
	}{
		{"clusterName", a.ClusterName}, {"environment", a.Environment}, {"server", a.Server},
		{"certificateAuthorityData", a.CertificateAuthorityData}, {"region", a.Region}, {"accountId", a.AccountId},
		{"kubernetesVersion", a.KubernetesVersion}, {"kubeconfig", a.Kubeconfig},
	} {
		if f.in == nil {
			out = append(out, f.name)
		}
	}
	return out
}
