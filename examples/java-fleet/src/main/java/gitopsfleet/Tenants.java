package gitopsfleet;

import com.gitopsfleet.fleet.inputs.TenantLimitsArgs;
import com.gitopsfleet.fleet.inputs.TenantNamespaceArgs;
import com.gitopsfleet.fleet.inputs.TenantOwnerArgs;
import com.gitopsfleet.fleet.inputs.TenantQuotaArgs;
import com.gitopsfleet.fleet.inputs.TenantSelectorArgs;
import com.gitopsfleet.fleet.inputs.TenantServiceAccountArgs;
import com.gitopsfleet.fleet.inputs.TenantSpecArgs;
import com.gitopsfleet.fleet.inputs.TenantSyncWindowArgs;
import com.gitopsfleet.fleet.inputs.TenantWorkloadsArgs;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Fleet's tenants from the stack config's camelCase JSON, field by field as the schema names them. */
final class Tenants {
    private Tenants() {
    }

    static List<TenantSpecArgs> of(JsonArray specs) {
        List<TenantSpecArgs> out = new ArrayList<>();
        for (JsonElement e : specs) {
            JsonObject t = e.getAsJsonObject();
            var args = TenantSpecArgs.builder().name(App.str(t, "name")).namespaces(namespaces(t.getAsJsonArray("namespaces")));
            if (t.has("clusters")) {
                JsonObject s = t.getAsJsonObject("clusters");
                var sel = TenantSelectorArgs.builder();
                strings(s, "clusters", sel::clusters);
                strings(s, "environments", sel::environments);
                args.clusters(sel.build());
            }
            if (t.has("owners")) {
                List<TenantOwnerArgs> owners = new ArrayList<>();
                for (JsonElement o : t.getAsJsonArray("owners")) {
                    JsonObject owner = o.getAsJsonObject();
                    var b = TenantOwnerArgs.builder().arn(App.str(owner, "arn"));
                    str(owner, "access", b::access);
                    strings(owner, "groups", b::groups);
                    owners.add(b.build());
                }
                args.owners(owners);
            }
            if (t.has("workloads")) {
                JsonObject w = t.getAsJsonObject("workloads");
                var b = TenantWorkloadsArgs.builder().url(App.str(w, "url")).path(App.str(w, "path"));
                str(w, "revision", b::revision);
                args.workloads(b.build());
            }
            if (t.has("syncWindows")) {
                List<TenantSyncWindowArgs> windows = new ArrayList<>();
                for (JsonElement w : t.getAsJsonArray("syncWindows")) {
                    JsonObject win = w.getAsJsonObject();
                    var b = TenantSyncWindowArgs.builder().kind(App.str(win, "kind")).schedule(App.str(win, "schedule"))
                        .duration(App.str(win, "duration"));
                    if (win.has("manualSync")) {
                        b.manualSync(win.get("manualSync").getAsBoolean());
                    }
                    windows.add(b.build());
                }
                args.syncWindows(windows);
            }
            strings(t, "sourceRepos", args::sourceRepos);
            str(t, "secretsPrefix", args::secretsPrefix);
            if (t.has("preventDeletion")) {
                args.preventDeletion(t.get("preventDeletion").getAsBoolean());
            }
            out.add(args.build());
        }
        return out;
    }

    static List<TenantNamespaceArgs> namespaces(JsonArray specs) {
        List<TenantNamespaceArgs> out = new ArrayList<>();
        for (JsonElement e : specs) {
            JsonObject n = e.getAsJsonObject();
            var args = TenantNamespaceArgs.builder().name(App.str(n, "name"));
            if (n.has("labels")) {
                args.labels(App.tags(n.getAsJsonObject("labels")));
            }
            str(n, "podSecurity", args::podSecurity);
            if (n.has("quota")) {
                JsonObject q = n.getAsJsonObject("quota");
                var b = TenantQuotaArgs.builder();
                str(q, "requestsCpu", b::requestsCpu);
                str(q, "requestsMemory", b::requestsMemory);
                str(q, "limitsCpu", b::limitsCpu);
                str(q, "limitsMemory", b::limitsMemory);
                str(q, "pods", b::pods);
                str(q, "loadBalancers", b::loadBalancers);
                str(q, "storage", b::storage);
                args.quota(b.build());
            }
            if (n.has("limits")) {
                JsonObject l = n.getAsJsonObject("limits");
                var b = TenantLimitsArgs.builder();
                str(l, "cpu", b::cpu);
                str(l, "memory", b::memory);
                str(l, "requestCpu", b::requestCpu);
                str(l, "requestMemory", b::requestMemory);
                args.limits(b.build());
            }
            if (n.has("serviceAccounts")) {
                List<TenantServiceAccountArgs> accounts = new ArrayList<>();
                for (JsonElement s : n.getAsJsonArray("serviceAccounts")) {
                    JsonObject sa = s.getAsJsonObject();
                    var b = TenantServiceAccountArgs.builder().name(App.str(sa, "name"));
                    strings(sa, "managedPolicyArns", b::managedPolicyArns);
                    str(sa, "policy", b::policy);
                    accounts.add(b.build());
                }
                args.serviceAccounts(accounts);
            }
            out.add(args.build());
        }
        return out;
    }

    /** Sets an optional string field (a quantity is read as written: "8" and 8 alike). */
    static void str(JsonObject o, String key, Consumer<String> set) {
        if (o.has(key)) {
            set.accept(o.get(key).getAsString());
        }
    }

    static void strings(JsonObject o, String key, Consumer<List<String>> set) {
        if (o.has(key)) {
            set.accept(App.strings(o.getAsJsonArray(key)));
        }
    }
}
