package myproject;

import com.gitopsfleet.fleet.FleetCluster;
import com.gitopsfleet.fleet.FleetClusterArgs;
import com.gitopsfleet.fleet.GitOpsBridge;
import com.gitopsfleet.fleet.GitOpsBridgeArgs;
import com.gitopsfleet.fleet.inputs.ClusterInfoArgs;
import com.gitopsfleet.fleet.inputs.GitOpsAccessArgs;
import com.gitopsfleet.fleet.inputs.HubArgs;
import com.gitopsfleet.fleet.inputs.RepoArgs;
import com.gitopsfleet.fleet.inputs.SpokeArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        // The hub cluster, and Argo CD on it.
        var hub = new FleetCluster("hub", FleetClusterArgs.builder()
            .region("us-east-1")
            .addons(Map.of("metrics_server", true))
            .build());
        var argocd = new GitOpsBridge("hub", GitOpsBridgeArgs.builder()
            .cluster(clusterInfo(hub))
            .hub(HubArgs.builder().highAvailability(true).build())
            .addonsRepo(RepoArgs.builder()
                .url("https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template")
                .path("bootstrap/control-plane/addons")
                .build())
            .build());

        // A spoke whose role the hub's Argo CD assumes, registered into the hub by its cluster secret.
        var spoke = new FleetCluster("spoke", FleetClusterArgs.builder()
            .region("us-west-2")
            .addons(Map.of("aws_load_balancer_controller", true))
            .gitopsAccess(GitOpsAccessArgs.builder().hubRoleArn(argocd.managementRoleArn()).build())
            .build());
        var registration = new GitOpsBridge("spoke", GitOpsBridgeArgs.builder()
            .cluster(clusterInfo(spoke))
            .spoke(SpokeArgs.builder().hubKubeconfig(hub.kubeconfig()).build())
            .build());

        ctx.export("spokeSecret", registration.secretName());
        ctx.export("spokeLabels", registration.labels());
    }

    // The cluster's facts as GitOpsBridge and Tenant take them: FleetCluster's clusterInfo output, built from its
    // outputs (Java types the output as the output class ClusterInfo, not the input class ClusterInfoArgs).
    static ClusterInfoArgs clusterInfo(FleetCluster cluster) {
        return ClusterInfoArgs.builder()
            .clusterName(cluster.clusterName())
            .environment(cluster.environment())
            .server(cluster.endpoint())
            .certificateAuthorityData(cluster.certificateAuthorityData())
            .region(cluster.region())
            .accountId(cluster.accountId())
            .kubernetesVersion(cluster.kubernetesVersion())
            .kubeconfig(cluster.kubeconfig())
            .spokeRoleArn(cluster.spokeRoleArn())
            .gitopsMetadata(cluster.gitopsMetadata())
            .addons(cluster.addons())
            .build();
    }
}
