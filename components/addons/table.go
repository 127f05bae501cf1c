package addons

import (
	"fmt"
	"strings"
)

// What FleetCluster creates for each kind of resource, as the README table says it.
var resourceDocs = map[Resource]string{
	LogGroup:            "CloudWatch log group (retention `awsForFluentbit.retentionInDays`, default 90)",
	InterruptionQueue:   "SQS queue (SSE, TLS only) fed by EventBridge rules",
	BackupBucket:        "S3 bucket (SSE-S3, versioned, public access blocked), or `velero.bucketName`",
	ManagedAddon:        "EKS managed add-on `aws-ebs-csi-driver` with the role",
	NodeInstanceProfile: "instance profile of the node role",
}

// Table is the README's add-on table, one row per add-on of the catalogue: what FleetCluster creates, the
// labels and metadata keys it writes, and the ApplicationSet of the control-plane template that reads them.
func Table() string {
	var b strings.Builder
	b.WriteString("| Add-on | FleetCluster creates | Labels | Metadata keys | Read by (bootstrap/control-plane/addons/) |\n")
	b.WriteString("|---|---|---|---|---|\n")
	for _, a := range All() {
		creates := []string{"nothing (label only)"}
		if a.Identity != nil {
			creates = []string{"IRSA role (" + policyDoc(a.Identity) + ")"}
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
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | `%s` |\n", a.Name, strings.Join(creates, "; "),
			strings.Join(labels, ", "), strings.Join(keys, ", "), a.ApplicationSet)
	}
	return b.String()
}

func policyDoc(id *Identity) string {
	var parts []string
	if len(id.ManagedPolicies) > 0 {
		parts = append(parts, "managed "+strings.Join(id.ManagedPolicies, ", "))
	}
	if id.Policy != nil {
		parts = append(parts, "inline policy")
	}
	return strings.Join(parts, " + ") + " after " + id.Source
}
