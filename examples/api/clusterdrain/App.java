package myproject;

import com.gitopsfleet.fleet.ClusterDrain;
import com.gitopsfleet.fleet.ClusterDrainArgs;
import com.gitopsfleet.fleet.FleetCluster;
import com.gitopsfleet.fleet.FleetClusterArgs;
import com.gitopsfleet.fleet.FleetFunctions;
import com.gitopsfleet.fleet.inputs.GetStillTaggedArgs;
import com.gitopsfleet.fleet.outputs.GetStillTaggedResult;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.resources.CustomResourceOptions;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        var spoke = new FleetCluster("spoke", FleetClusterArgs.builder()
            .region("us-west-2")
            .addons(Map.of("aws_load_balancer_controller", true))
            .build());

        // Deleted before the cluster (it depends on it): removes the load balancers, volumes and
        // Karpenter nodes the add-ons made, and waits until AWS has nothing tagged to the cluster.
        new ClusterDrain("spoke", ClusterDrainArgs.builder()
            .clusterName(spoke.clusterName())
            .region(spoke.region())
            .endpoint(spoke.endpoint())
            .certificateAuthorityData(spoke.certificateAuthorityData())
            .timeout("30m")
            .build(), CustomResourceOptions.builder().dependsOn(spoke).build());

        // What the add-on controllers made for the cluster that is still there.
        var leftovers = FleetFunctions.getStillTagged(GetStillTaggedArgs.builder()
            .clusterName(spoke.clusterName())
            .region(spoke.region())
            .build());
        ctx.export("stillTagged", leftovers.applyValue(GetStillTaggedResult::arns));
    }
}
