package gitopsfleet;

import com.gitopsfleet.fleet.FleetCluster;
import com.gitopsfleet.fleet.FleetClusterArgs;
import com.gitopsfleet.fleet.GitOpsBridge;
import com.gitopsfleet.fleet.GitOpsBridgeArgs;
import com.gitopsfleet.fleet.inputs.ClusterInfoArgs;
import com.gitopsfleet.fleet.inputs.GitDeliveryArgs;
import com.gitopsfleet.fleet.inputs.GitOpsAccessArgs;
import com.gitopsfleet.fleet.inputs.HubArgs;
import com.gitopsfleet.fleet.inputs.NodeGroupArgs;
import com.gitopsfleet.fleet.inputs.RepoArgs;
import com.gitopsfleet.fleet.inputs.SpokeArgs;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Output;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet of examples/fleet (same stack config, namespace gitops-fleet) written against the Java SDK that
 * `pulumi package add` generates: the hub first, then every spoke with the hub's Argo CD management role and
 * kubeconfig. Config checks live in the Go example (fleetstack.Validate) and in the components; this program
 * checks only what it needs to build.
 */
public final class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var cfg = ctx.config("gitops-fleet");
        JsonArray clusters = JsonParser.parseString(cfg.require("clusters")).getAsJsonArray();
        JsonObject repos = JsonParser.parseString(cfg.require("repositories")).getAsJsonObject();
        JsonObject git = cfg.get("git").map(s -> JsonParser.parseString(s).getAsJsonObject()).orElse(null);

        JsonObject hubSpec = null;
        for (JsonElement e : clusters) {
            if ("hub".equals(e.getAsJsonObject().get("role").getAsString())) {
                if (hubSpec != null) {
                    throw new IllegalArgumentException("gitops-fleet:clusters: want exactly one cluster with role hub");
                }
                hubSpec = e.getAsJsonObject();
            }
        }
        if (hubSpec == null) {
            throw new IllegalArgumentException("gitops-fleet:clusters: want exactly one cluster with role hub, found none");
        }

        Map<String, Output<Map<String, Object>>> summary = new LinkedHashMap<>();
        var hub = new FleetCluster(str(hubSpec, "name"), clusterArgs(ctx, hubSpec).build());
        var argocd = new GitOpsBridge(str(hubSpec, "name"),
            bridgeArgs(hub, repos, git).hub(HubArgs.builder().build()).build());
        summary.put(str(hubSpec, "name"), clusterSummary(hubSpec, hub, argocd));

        for (JsonElement e : clusters) {
            JsonObject spec = e.getAsJsonObject();
            if (!"spoke".equals(str(spec, "role"))) {
                continue;
            }
            var spoke = new FleetCluster(str(spec, "name"), clusterArgs(ctx, spec)
                .gitopsAccess(GitOpsAccessArgs.builder().hubRoleArn(argocd.managementRoleArn()).build())
                .build());
            var registration = new GitOpsBridge(str(spec, "name"), bridgeArgs(spoke, repos, git)
                .spoke(SpokeArgs.builder().hubKubeconfig(hub.kubeconfig()).build())
                .build());
            summary.put(str(spec, "name"), clusterSummary(spec, spoke, registration));
        }
        ctx.export("clusters", Output.all(new ArrayList<>(summary.values())).applyValue(values -> {
            Map<String, Object> out = new LinkedHashMap<>();
            int i = 0;
            for (String name : summary.keySet()) {
                out.put(name, values.get(i++));
            }
            return out;
        }));
        ctx.export("argocdManagementRoleArn", argocd.managementRoleArn());
        ctx.export("hubKubeconfig", Output.ofSecret(hub.kubeconfig()));
    }

    static FleetClusterArgs.Builder clusterArgs(Context ctx, JsonObject c) {
        var args = FleetClusterArgs.builder()
            .region(str(c, "region"))
            .clusterName(str(c, "name"))
            .environment(c.has("environment") ? str(c, "environment") : ctx.stackName())
            .vpcCidr(str(c, "vpcCidr"));
        if (c.has("version")) {
            args.version(str(c, "version"));
        }
        if (c.has("publicAccessCidrs")) {
            args.publicAccessCidrs(strings(c.getAsJsonArray("publicAccessCidrs")));
        }
        if (c.has("addons")) {
            Map<String, Boolean> addons = new LinkedHashMap<>();
            c.getAsJsonObject("addons").entrySet().forEach(a -> addons.put(a.getKey(), a.getValue().getAsBoolean()));
            args.addons(addons);
        }
        if (c.has("addonSettings")) {
            args.addonSettings(AddonSettings.of(c.getAsJsonObject("addonSettings")));
        }
        if (c.has("nodeGroups")) {
            List<NodeGroupArgs> groups = new ArrayList<>();
            for (JsonElement g : c.getAsJsonArray("nodeGroups")) {
                JsonObject ng = g.getAsJsonObject();
                groups.add(NodeGroupArgs.builder()
                    .name(str(ng, "name"))
                    .instanceTypes(strings(ng.getAsJsonArray("instanceTypes")))
                    .minSize(ng.get("minSize").getAsInt())
                    .maxSize(ng.get("maxSize").getAsInt())
                    .desiredSize(ng.get("desiredSize").getAsInt())
                    .build());
            }
            args.nodeGroups(groups);
        }
        return args;
    }

    static GitOpsBridgeArgs.Builder bridgeArgs(FleetCluster c, JsonObject repos, JsonObject git) {
        var args = GitOpsBridgeArgs.builder()
            .cluster(ClusterInfoArgs.builder()
                .clusterName(c.clusterName())
                .environment(c.environment())
                .server(c.endpoint())
                .certificateAuthorityData(c.certificateAuthorityData())
                .region(c.region())
                .accountId(c.accountId())
                .kubernetesVersion(c.kubernetesVersion())
                .kubeconfig(c.kubeconfig())
                .spokeRoleArn(c.spokeRoleArn())
                .gitopsMetadata(c.gitopsMetadata())
                .addons(c.addons())
                .build());
        if (repos.has("addons")) {
            args.addonsRepo(repo(repos.getAsJsonObject("addons")));
        }
        if (repos.has("workloads")) {
            args.workloadsRepo(repo(repos.getAsJsonObject("workloads")));
        }
        if (git != null) {
            var delivery = GitDeliveryArgs.builder().owner(str(git, "owner")).repository(str(git, "repository"));
            if (git.has("branch")) {
                delivery.branch(str(git, "branch"));
            }
            if (git.has("pullRequest")) {
                delivery.pullRequest(git.get("pullRequest").getAsBoolean());
            }
            args.git(delivery.build());
        }
        return args;
    }

    static RepoArgs repo(JsonObject r) {
        var args = RepoArgs.builder().url(str(r, "url")).path(str(r, "path"));
        if (r.has("revision")) {
            args.revision(str(r, "revision"));
        }
        if (r.has("basePath") && !str(r, "basePath").isEmpty()) {
            args.basePath(str(r, "basePath"));
        }
        return args.build();
    }

    static Output<Map<String, Object>> clusterSummary(JsonObject spec, FleetCluster c, GitOpsBridge b) {
        return Output.tuple(c.endpoint(), b.labels()).applyValue(t -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("region", str(spec, "region"));
            out.put("role", str(spec, "role"));
            out.put("endpoint", t.t1);
            out.put("labels", t.t2);
            return out;
        });
    }

    static String str(JsonObject o, String key) {
        return o.get(key).getAsString();
    }

    static List<String> strings(JsonArray a) {
        List<String> out = new ArrayList<>();
        a.forEach(e -> out.add(e.getAsString()));
        return out;
    }
}
