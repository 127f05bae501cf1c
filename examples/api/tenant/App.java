package myproject;

import com.gitopsfleet.fleet.FleetCluster;
import com.gitopsfleet.fleet.FleetClusterArgs;
import com.gitopsfleet.fleet.Tenant;
import com.gitopsfleet.fleet.TenantArgs;
import com.gitopsfleet.fleet.inputs.ClusterInfoArgs;
import com.gitopsfleet.fleet.inputs.TenantClusterArgs;
import com.gitopsfleet.fleet.inputs.TenantNamespaceArgs;
import com.gitopsfleet.fleet.inputs.TenantOwnerArgs;
import com.gitopsfleet.fleet.inputs.TenantSpecArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        var spoke = new FleetCluster("spoke", FleetClusterArgs.builder().region("us-west-2").build());

        // The payments team on the spoke: its namespace at Pod Security "restricted", its owners'
        // EKS access to that namespace only, and its Argo CD project on the hub.
        var payments = new Tenant("payments", TenantArgs.builder()
            .hubKubeconfig(ctx.config().requireSecret("hubKubeconfig"))
            .clusters(TenantClusterArgs.builder()
                .name(spoke.clusterName())
                .region(spoke.region())
                .cluster(clusterInfo(spoke))
                .build())
            .tenant(TenantSpecArgs.builder()
                .name("payments")
                .namespaces(TenantNamespaceArgs.builder().name("payments").build())
                .owners(TenantOwnerArgs.builder()
                    .arn("arn:aws:iam::111122223333:role/payments-admins")
                    .access("edit")
                    .build())
                .build())
            .build());

        ctx.export("project", payments.project());
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
