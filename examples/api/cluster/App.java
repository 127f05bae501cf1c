package myproject;

import com.gitopsfleet.fleet.FleetCluster;
import com.gitopsfleet.fleet.FleetClusterArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    // An EKS cluster in its own VPC, with the AWS Load Balancer Controller's IAM role.
    public static void stack(Context ctx) {
        var cluster = new FleetCluster("dev", FleetClusterArgs.builder()
            .region("us-east-1")
            .addons(Map.of("aws_load_balancer_controller", true))
            .build());

        ctx.export("kubeconfig", cluster.kubeconfig());
    }
}
