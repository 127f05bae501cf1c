package myproject;

import com.gitopsfleet.fleet.ArgoCDCapability;
import com.gitopsfleet.fleet.ArgoCDCapabilityArgs;
import com.gitopsfleet.fleet.FleetCluster;
import com.gitopsfleet.fleet.FleetClusterArgs;
import com.gitopsfleet.fleet.inputs.CapabilityArgoCDArgs;
import com.gitopsfleet.fleet.inputs.CapabilityIdentityArgs;
import com.gitopsfleet.fleet.inputs.CapabilityIdentityCenterArgs;
import com.gitopsfleet.fleet.inputs.CapabilityRoleMappingArgs;
import com.pulumi.Context;
import com.pulumi.Pulumi;

public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    public static void stack(Context ctx) {
        var config = ctx.config();
        var hub = new FleetCluster("hub", FleetClusterArgs.builder()
            .region("us-west-2")
            .build());

        // Argo CD run by EKS for the hub. The role trusts capabilities.eks.amazonaws.com with
        // sts:AssumeRole and sts:TagSession; the platform group signs in through IAM Identity Center.
        var argocd = new ArgoCDCapability("hub", ArgoCDCapabilityArgs.builder()
            .clusterName(hub.clusterName())
            .region(hub.region())
            .roleArn(config.require("capabilityRoleArn"))
            .argoCd(CapabilityArgoCDArgs.builder()
                .awsIdc(CapabilityIdentityCenterArgs.builder()
                    .idcInstanceArn(config.require("identityCenterInstanceArn"))
                    .build())
                .rbacRoleMappings(CapabilityRoleMappingArgs.builder()
                    .role("ADMIN")
                    .identities(CapabilityIdentityArgs.builder()
                        .id(config.require("platformGroupId"))
                        .type("SSO_GROUP")
                        .build())
                    .build())
                .build())
            .build());

        ctx.export("serverUrl", argocd.serverUrl());
        ctx.export("argoCdVersion", argocd.version());
    }
}
