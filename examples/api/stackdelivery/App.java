package myproject;

import com.gitopsfleet.fleet.StackDelivery;
import com.gitopsfleet.fleet.StackDeliveryArgs;
import com.gitopsfleet.fleet.inputs.ApproversArgs;
import com.gitopsfleet.fleet.inputs.DeliveryStageArgs;
import com.gitopsfleet.fleet.inputs.ManifestsRepositoryArgs;
import com.gitopsfleet.fleet.inputs.ProgramRepositoryArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    // The fleet's own stacks delivered on the hub: a PKO Stack per stage, each pinned to a
    // commit of the program, promoted dev -> prod by Kargo; prod needs the platform leads.
    public static void stack(Context ctx) {
        var config = ctx.config();
        var delivery = new StackDelivery("delivery", StackDeliveryArgs.builder()
            .kubeconfig(config.requireSecret("hubKubeconfig"))
            .pulumiAccessToken(config.requireSecret("pulumiAccessToken"))
            .program(ProgramRepositoryArgs.builder().repoUrl("https://github.com/acme/platform-fleet.git").build())
            .manifests(ManifestsRepositoryArgs.builder().owner("acme").repository("platform-fleet").build())
            .stages(
                DeliveryStageArgs.builder()
                    .name("dev")
                    .stack("acme/platform-fleet/dev")
                    .commit("81d3a29597266e2c6dee3d95e1a055caf008a79d")
                    .build(),
                DeliveryStageArgs.builder()
                    .name("prod")
                    .stack("acme/platform-fleet/prod")
                    .commit("81d3a29597266e2c6dee3d95e1a055caf008a79d")
                    .approvers(ApproversArgs.builder().groups("platform-leads").build())
                    .build())
            .build());

        ctx.export("stages", delivery.stages());
        ctx.export("applications", delivery.applicationNames());
    }
}
