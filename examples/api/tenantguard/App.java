package myproject;

import com.gitopsfleet.fleet.FleetCluster;
import com.gitopsfleet.fleet.FleetClusterArgs;
import com.gitopsfleet.fleet.TenantGuard;
import com.gitopsfleet.fleet.TenantGuardArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        var spoke = new FleetCluster("spoke", FleetClusterArgs.builder().region("us-west-2").build());

        // Refuses an up or destroy that would delete the payments namespace while it holds
        // PersistentVolumeClaims; set preventDeletion to false to let it go.
        new TenantGuard("payments-spoke", TenantGuardArgs.builder()
            .tenant("payments")
            .namespaces("payments")
            .preventDeletion(true)
            .clusterName(spoke.clusterName())
            .region(spoke.region())
            .endpoint(spoke.endpoint())
            .certificateAuthorityData(spoke.certificateAuthorityData())
            .build());
    }
}
