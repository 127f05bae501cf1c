package myproject;

import com.gitopsfleet.fleet.Fleet;
import com.gitopsfleet.fleet.FleetArgs;
import com.gitopsfleet.fleet.inputs.ClusterSpecArgs;
import com.gitopsfleet.fleet.inputs.RepoArgs;
import com.gitopsfleet.fleet.inputs.RepositoriesArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    // A hub running Argo CD and a spoke it manages, in two regions. The VPC CIDRs are
    // allocated from 10.0.0.0/8 and kept by the fleet's ClusterLedger.
    public static void stack(Context ctx) {
        var fleet = new Fleet("fleet", FleetArgs.builder()
            .repositories(RepositoriesArgs.builder()
                .addons(RepoArgs.builder()
                    .url("https://github.com/gitops-bridge-dev/gitops-bridge-argocd-control-plane-template")
                    .revision("main")
                    .path("bootstrap/control-plane/addons")
                    .build())
                .build())
            .clusters(
                ClusterSpecArgs.builder()
                    .name("hub")
                    .region("us-east-1")
                    .role("hub")
                    .addons(Map.of("metrics_server", true))
                    .build(),
                ClusterSpecArgs.builder()
                    .name("spoke-use2")
                    .region("us-east-2")
                    .role("spoke")
                    .addons(Map.of("aws_load_balancer_controller", true, "karpenter", true))
                    .build())
            .build());

        ctx.export("vpcCidrs", fleet.vpcCidrs());
        ctx.export("argocdManagementRoleArn", fleet.argocdManagementRoleArn());
    }
}
