package offline

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/auto"

	"github.com/gitops-fleet/pulumi-fleet/tests/controlplane"
)

// PrintSummary writes one line per cluster of the fleet example's `clusters` output: name, region, role,
// endpoint and the cluster secret's labels, and for a decommissioned cluster what is still tagged to it in AWS; and
// a managed hub's Argo CD server.
func PrintSummary(w io.Writer, outputs auto.OutputMap) {
	clusters, _ := outputs["clusters"].Value.(map[string]any)
	fmt.Fprintf(w, "\nFleet: %d clusters\n", len(clusters))
	if url, _ := outputs["argocdServerUrl"].Value.(string); url != "" {
		fmt.Fprintf(w, "  Argo CD: managed by EKS (capability), server %s, role %v\n", url,
			outputs["argocdManagementRoleArn"].Value)
	}
	for _, name := range slices.Sorted(maps.Keys(clusters)) {
		c, _ := clusters[name].(map[string]any)
		labels, _ := c["labels"].(map[string]any)
		var ls []string
		for _, k := range slices.Sorted(maps.Keys(labels)) {
			ls = append(ls, fmt.Sprintf("%s=%v", k, labels[k]))
		}
		fmt.Fprintf(w, "  %-12s %-10s %-6s %s\n      cluster secret %v/%v: %s\n", name, c["region"], c["role"], c["endpoint"],
			c["secretNamespace"], c["secretName"], strings.Join(ls, " "))
		if tagged, ok := c["stillTagged"].([]any); ok {
			fmt.Fprintf(w, "      decommissioned; still tagged to it in AWS: %d\n", len(tagged))
			for _, arn := range tagged {
				fmt.Fprintf(w, "        %v\n", arn)
			}
		}
	}
	tenants, _ := outputs["tenants"].Value.(map[string]any)
	if len(tenants) == 0 {
		return
	}
	fmt.Fprintf(w, "\nTenants: %d\n", len(tenants))
	for _, name := range slices.Sorted(maps.Keys(tenants)) {
		s, _ := tenants[name].(map[string]any)
		delivery := "written through each cluster's provider"
		if folder, _ := s["folder"].(string); folder != "" {
			delivery = fmt.Sprintf("committed to %s/, synced by Argo CD", folder)
		}
		fmt.Fprintf(w, "  %-12s namespaces %s on %s\n      Argo CD project %v; objects %s\n", name, joined(s["namespaces"]),
			joined(s["clusters"]), s["project"], delivery)
	}
}

// joined is a list output as "a, b".
func joined(v any) string {
	list, _ := v.([]any)
	out := make([]string, len(list))
	for i, x := range list {
		out[i] = fmt.Sprint(x)
	}
	return strings.Join(out, ", ")
}

// PrintDelivery writes the delivery of the fleet's own stacks when the example has one (deliveryStages): per
// stage in promotion order its Stack template (and a stage's several Stacks), the branch Kargo renders it into and the Application that syncs it.
func PrintDelivery(w io.Writer, outputs auto.OutputMap) {
	stages, _ := outputs["deliveryStages"].Value.([]any)
	if len(stages) == 0 {
		return
	}
	apps, _ := outputs["deliveryApplications"].Value.(map[string]any)
	urls, _ := outputs["deliveryManifestUrls"].Value.(map[string]any)
	branches, _ := outputs["deliveryStageBranches"].Value.(map[string]any)
	kinds, _ := outputs["deliveryStageKinds"].Value.(map[string]any)
	sources, _ := outputs["deliveryStageSources"].Value.(map[string]any)
	stacks, _ := outputs["deliveryStageStacks"].Value.(map[string]any)
	fmt.Fprintf(w, "\nDelivery: %d stages, promoted by Kargo in this order\n", len(stages))
	for _, s := range stages {
		name, _ := s.(string)
		var from []string
		src, _ := sources[name].([]any)
		for _, x := range src {
			from = append(from, fmt.Sprint(x))
		}
		fmt.Fprintf(w, "  %-18s %-7v <- %s\n", name, kinds[name], strings.Join(from, ", "))
		if apps[name] != nil {
			fmt.Fprintf(w, "      template %v\n      rendered by Kargo into branch %v, which Argo CD Application %v syncs\n",
				urls[name], branches[name], apps[name])
		}
		if list, _ := stacks[name].([]any); len(list) > 1 {
			fmt.Fprintf(w, "      %d Stacks side by side, promoted and verified together: %s\n", len(list), joined(list))
		}
	}
}

// PrintControlPlanes tells where the kubeconfigs of the run's control planes are, for kubectl (bin/kube/kubectl
// or any other); they keep running after the run.
func PrintControlPlanes(w io.Writer, env *Env) {
	if env.Clusters == nil {
		return
	}
	names := env.Clusters.Names()
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(w, "\nKubernetes API servers: %d (Kubernetes %s, kwok nodes); as their administrator:\n",
		len(names), controlplane.KubeVersion)
	for _, name := range names {
		state := "running"
		if !env.Clusters.Running(name) { // another stack's, not asked for in this run
			state = "stopped"
		}
		fmt.Fprintf(w, "  %-22s %-8s bin/kube/kubectl --kubeconfig %s get nodes\n", name, state,
			relative(env.Root, env.Clusters.Kubeconfig(name)))
	}
	fmt.Fprintf(w, "  stop them: bin/kube/kwokctl --name <name> stop cluster (with KWOK_WORKDIR=%s); a request to one starts it\n",
		relative(env.Root, env.Clusters.Workdir))
}

func relative(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil {
		return rel
	}
	return path
}
