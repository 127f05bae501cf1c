package myproject;

import com.gitopsfleet.fleet.ClusterLedger;
import com.gitopsfleet.fleet.ClusterLedgerArgs;
import com.gitopsfleet.fleet.inputs.LedgerEntryArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    // VPC CIDRs for two clusters: spoke-use2 keeps the one it gives, hub gets a /16 from the pool
    // that stays its own when clusters are added or removed.
    public static void stack(Context ctx) {
        var ledger = new ClusterLedger("ledger", ClusterLedgerArgs.builder()
            .cidrPool("10.0.0.0/8")
            .cidrPrefixLength(16)
            .clusters(
                LedgerEntryArgs.builder().name("hub").region("us-east-1").build(),
                LedgerEntryArgs.builder().name("spoke-use2").region("us-east-2").vpcCidr("10.42.0.0/16").build())
            .build());

        ctx.export("vpcCidrs", ledger.vpcCidrs());
    }
}
