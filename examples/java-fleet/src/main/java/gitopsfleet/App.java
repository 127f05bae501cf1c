package gitopsfleet;

import com.gitopsfleet.fleet.Fleet;
import com.gitopsfleet.fleet.FleetArgs;
import com.gitopsfleet.fleet.inputs.ClusterDefaultsArgs;
import com.gitopsfleet.fleet.inputs.ClusterSpecArgs;
import com.gitopsfleet.fleet.inputs.GitDeliveryArgs;
import com.gitopsfleet.fleet.inputs.HubArgs;
import com.gitopsfleet.fleet.inputs.NodeGroupArgs;
import com.gitopsfleet.fleet.inputs.RepoArgs;
import com.gitopsfleet.fleet.inputs.RepositoriesArgs;
import com.gitopsfleet.fleet.outputs.ClusterSummary;
import com.gitopsfleet.fleet.outputs.HubCapacity;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.pulumi.Context;
import com.pulumi.Pulumi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fleet of examples/fleet (same stack config, namespace gitops-fleet) written against the Java SDK that
 * `pulumi package add` generates: the stack config becomes the input of one Fleet, which checks the whole fleet
 * before it registers anything. Java has no untyped inputs, so the config's JSON is read into the SDK's builders
 * field by field, as the schema names them.
 */
public final class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var cfg = ctx.config("gitops-fleet");
        var args = FleetArgs.builder()
            .clusters(clusters(JsonParser.parseString(cfg.require("clusters")).getAsJsonArray()))
            .repositories(repositories(JsonParser.parseString(cfg.require("repositories")).getAsJsonObject()));
        cfg.get("defaults").map(s -> defaults(JsonParser.parseString(s).getAsJsonObject())).ifPresent(args::defaults);
        cfg.get("git").map(s -> git(JsonParser.parseString(s).getAsJsonObject())).ifPresent(args::git);
        cfg.get("cidrPool").ifPresent(args::cidrPool);
        cfg.get("argocd").map(s -> argocd(JsonParser.parseString(s).getAsJsonObject())).ifPresent(args::argocd);
        cfg.get("tenants").map(s -> Tenants.of(JsonParser.parseString(s).getAsJsonArray())).ifPresent(args::tenants);
        var fleet = new Fleet("fleet", args.build());
        // Stack outputs hold plain values: the SDK's ClusterSummary becomes a map.
        ctx.export("clusters", fleet.clusters().applyValue(App::plain));
        ctx.export("vpcCidrs", fleet.vpcCidrs());
        ctx.export("argocdManagementRoleArn", fleet.argocdManagementRoleArn());
        ctx.export("hubKubeconfig", fleet.hubKubeconfig());
        // The hub's planned Argo CD load, which `fleet status` shows beside what runs (docs/capacity.md).
        ctx.export("hubCapacity", fleet.hubCapacity().applyValue(App::plain));
    }

    static Map<String, Object> plain(HubCapacity c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("applications", c.applications());
        m.put("addonApplications", c.addonApplications());
        m.put("bootstrapApplications", c.bootstrapApplications());
        m.put("workloadApplications", c.workloadApplications());
        m.put("tenantApplications", c.tenantApplications());
        m.put("registryApplications", c.registryApplications());
        m.put("clusters", c.clusters());
        m.put("limit", c.limit());
        m.put("controllerReplicas", c.controllerReplicas());
        m.put("shardingAlgorithm", c.shardingAlgorithm());
        return m;
    }

    static Map<String, Map<String, Object>> plain(Map<String, ClusterSummary> clusters) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        clusters.forEach((name, c) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("region", c.region());
            m.put("role", c.role());
            m.put("environment", c.environment());
            m.put("kubernetesVersion", c.kubernetesVersion());
            m.put("vpcCidr", c.vpcCidr());
            m.put("clusterArn", c.clusterArn());
            m.put("endpoint", c.endpoint());
            m.put("secretName", c.secretName());
            m.put("secretNamespace", c.secretNamespace());
            m.put("labels", c.labels());
            out.put(name, m);
        });
        return out;
    }

    static List<ClusterSpecArgs> clusters(JsonArray specs) {
        List<ClusterSpecArgs> out = new ArrayList<>();
        for (JsonElement e : specs) {
            JsonObject c = e.getAsJsonObject();
            var args = ClusterSpecArgs.builder().name(str(c, "name")).region(str(c, "region")).role(str(c, "role"));
            if (c.has("environment")) {
                args.environment(str(c, "environment"));
            }
            if (c.has("version")) {
                args.version(str(c, "version"));
            }
            if (c.has("vpcCidr")) {
                args.vpcCidr(str(c, "vpcCidr"));
            }
            if (c.has("publicAccessCidrs")) {
                args.publicAccessCidrs(strings(c.getAsJsonArray("publicAccessCidrs")));
            }
            if (c.has("nodeGroups")) {
                args.nodeGroups(nodeGroups(c.getAsJsonArray("nodeGroups")));
            }
            if (c.has("addons")) {
                args.addons(addons(c.getAsJsonObject("addons")));
            }
            if (c.has("addonSettings")) {
                args.addonSettings(AddonSettings.of(c.getAsJsonObject("addonSettings")));
            }
            if (c.has("assumeRoleArn")) {
                args.assumeRoleArn(str(c, "assumeRoleArn"));
            }
            if (c.has("tags")) {
                args.tags(tags(c.getAsJsonObject("tags")));
            }
            if (c.has("allowReplacement")) {
                args.allowReplacement(c.get("allowReplacement").getAsBoolean());
            }
            out.add(args.build());
        }
        return out;
    }

    /** The hub's Argo CD settings the example's stacks set: the hub add-ons its stack installs itself. */
    static HubArgs argocd(JsonObject a) {
        var args = HubArgs.builder();
        if (a.has("stackAddons")) {
            args.stackAddons(strings(a.getAsJsonArray("stackAddons")));
        }
        return args.build();
    }

    static ClusterDefaultsArgs defaults(JsonObject d) {
        var args = ClusterDefaultsArgs.builder();
        if (d.has("environment")) {
            args.environment(str(d, "environment"));
        }
        if (d.has("version")) {
            args.version(str(d, "version"));
        }
        if (d.has("publicAccessCidrs")) {
            args.publicAccessCidrs(strings(d.getAsJsonArray("publicAccessCidrs")));
        }
        if (d.has("nodeGroups")) {
            args.nodeGroups(nodeGroups(d.getAsJsonArray("nodeGroups")));
        }
        if (d.has("addons")) {
            args.addons(addons(d.getAsJsonObject("addons")));
        }
        if (d.has("assumeRoleArn")) {
            args.assumeRoleArn(str(d, "assumeRoleArn"));
        }
        if (d.has("tags")) {
            args.tags(tags(d.getAsJsonObject("tags")));
        }
        return args.build();
    }

    static List<NodeGroupArgs> nodeGroups(JsonArray specs) {
        List<NodeGroupArgs> groups = new ArrayList<>();
        for (JsonElement g : specs) {
            JsonObject ng = g.getAsJsonObject();
            var args = NodeGroupArgs.builder()
                .name(str(ng, "name"))
                .instanceTypes(strings(ng.getAsJsonArray("instanceTypes")))
                .minSize(ng.get("minSize").getAsInt())
                .maxSize(ng.get("maxSize").getAsInt())
                .desiredSize(ng.get("desiredSize").getAsInt());
            if (ng.has("diskSize")) {
                args.diskSize(ng.get("diskSize").getAsInt());
            }
            groups.add(args.build());
        }
        return groups;
    }

    static RepositoriesArgs repositories(JsonObject repos) {
        var args = RepositoriesArgs.builder().addons(repo(repos.getAsJsonObject("addons")));
        if (repos.has("workloads")) {
            args.workloads(repo(repos.getAsJsonObject("workloads")));
        }
        return args.build();
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

    static GitDeliveryArgs git(JsonObject git) {
        var delivery = GitDeliveryArgs.builder().owner(str(git, "owner")).repository(str(git, "repository"));
        if (git.has("branch")) {
            delivery.branch(str(git, "branch"));
        }
        if (git.has("pullRequest")) {
            delivery.pullRequest(git.get("pullRequest").getAsBoolean());
        }
        return delivery.build();
    }

    static Map<String, Boolean> addons(JsonObject o) {
        Map<String, Boolean> out = new LinkedHashMap<>();
        o.entrySet().forEach(a -> out.put(a.getKey(), a.getValue().getAsBoolean()));
        return out;
    }

    static Map<String, String> tags(JsonObject o) {
        Map<String, String> out = new LinkedHashMap<>();
        o.entrySet().forEach(a -> out.put(a.getKey(), a.getValue().getAsString()));
        return out;
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
