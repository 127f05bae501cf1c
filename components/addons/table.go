package addons

import (
	"fmt"
	"strings"
)

// What FleetCluster creates for each kind of resource, as the add-on table (docs/addons.md) says it.
var resourceDocs = map[Resource]string{
	LogGroup:            "CloudWatch log group (retention `awsForFluentbit.retentionInDays`, default 90)",
	InterruptionQueue:   "SQS queue (SSE, TLS only) fed by EventBridge rules",
	BackupBucket:        "S3 bucket (SSE-S3, versioned, public access blocked), or `velero.bucketName`",
	ManagedAddon:        "EKS managed add-on `aws-ebs-csi-driver` with the role",
	NodeInstanceProfile: "instance profile of the node role",
}

// Table is the add-on table of docs/addons.md, one row per add-on of the catalogue: the version the template installs
// (addonVersions' default), the versions FleetCluster has a policy for and how the role is bound by default,
// what FleetCluster creates, the labels and metadata keys it writes, and the ApplicationSet of the
// control-plane template that reads them.
func Table() string {
	var b strings.Builder
	b.WriteString("| Add-on | Version (default) | Policy versions | Identity (default) | FleetCluster creates | Labels | Metadata keys | Read by (bootstrap/control-plane/addons/) |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, a := range All() {
		creates := []string{"nothing (label only)"}
		version, ranges, mode := "-", "-", "-"
		if a.Identity != nil {
			role := policyDocs(a.Identity)
			if a.Identity.AccountWide {
				role += "; account-wide: `addonSettings.policyArns` replaces it"
			}
			if a.Name == "aws_gateway_api_controller" {
				role += ", `addonSettings.gatewayApiController` narrows its access logs"
			}
			creates = []string{"IAM role (" + role + ")"}
			version, ranges, mode = or(a.Version, "EKS's"), "`"+a.Identity.Ranges()+"`", "IRSA"
			switch since := a.Identity.PodIdentity.Since; {
			case a.Identity.PodIdentity.Supports(a.Version):
				mode = "Pod Identity (from " + since + ")"
			case since != "":
				mode = "IRSA (Pod Identity from " + since + ")"
			}
		}
		for _, r := range a.Resources {
			creates = append(creates, resourceDocs[r])
		}
		labels := []string{"`" + EnableLabel(a.Name) + "`"}
		for _, i := range a.Implies {
			labels = append(labels, "`"+EnableLabel(i)+"`")
		}
		for _, r := range a.Requires {
			labels = append(labels, fmt.Sprintf("`%s` (%s)", r.Key, r.Operator))
		}
		keys := a.Keys()
		for i, k := range keys {
			keys[i] = "`" + k + "`"
		}
		if len(keys) == 0 {
			keys = []string{"-"}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | `%s` |\n", a.Name, version, ranges, mode,
			strings.Join(creates, "; "), strings.Join(labels, ", "), strings.Join(keys, ", "), a.ApplicationSet)
	}
	return b.String()
}

// policyDocs says, per version range, what the role gets and after which upstream document.
func policyDocs(id *Identity) string {
	var docs []string
	for _, p := range id.Policies {
		var parts []string
		if len(p.ManagedPolicies) > 0 {
			parts = append(parts, "managed "+strings.Join(p.ManagedPolicies, ", "))
		}
		if p.Inline != nil {
			parts = append(parts, "inline policy")
		}
		doc := strings.Join(parts, " + ") + " after " + p.Source
		if len(id.Policies) > 1 {
			doc = "`" + p.Versions + "`: " + doc
		}
		docs = append(docs, doc)
	}
	return strings.Join(docs, "; ")
}

func or(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}
