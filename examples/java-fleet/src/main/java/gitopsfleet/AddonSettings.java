package gitopsfleet;

import com.gitopsfleet.fleet.inputs.AddonSettingsArgs;
import com.gitopsfleet.fleet.inputs.CertManagerSettingsArgs;
import com.gitopsfleet.fleet.inputs.ExternalDNSSettingsArgs;
import com.gitopsfleet.fleet.inputs.ExternalSecretsSettingsArgs;
import com.gitopsfleet.fleet.inputs.FluentBitSettingsArgs;
import com.gitopsfleet.fleet.inputs.PrivateCAIssuerSettingsArgs;
import com.gitopsfleet.fleet.inputs.VeleroSettingsArgs;
import com.google.gson.JsonObject;

/** FleetCluster's addonSettings from the stack config's camelCase JSON, field by field as the schema names them. */
final class AddonSettings {
    private AddonSettings() {
    }

    static AddonSettingsArgs of(JsonObject s) {
        var args = AddonSettingsArgs.builder();
        if (s.has("externalDns")) {
            JsonObject d = s.getAsJsonObject("externalDns");
            var dns = ExternalDNSSettingsArgs.builder()
                .hostedZoneIds(App.strings(d.getAsJsonArray("hostedZoneIds")))
                .domainFilters(App.strings(d.getAsJsonArray("domainFilters")));
            if (d.has("policy")) {
                dns.policy(App.str(d, "policy"));
            }
            args.externalDns(dns.build());
        }
        if (s.has("certManager")) {
            JsonObject c = s.getAsJsonObject("certManager");
            var cm = CertManagerSettingsArgs.builder();
            if (c.has("hostedZoneIds")) {
                cm.hostedZoneIds(App.strings(c.getAsJsonArray("hostedZoneIds")));
            }
            args.certManager(cm.build());
        }
        if (s.has("awsForFluentbit")) {
            JsonObject f = s.getAsJsonObject("awsForFluentbit");
            var fb = FluentBitSettingsArgs.builder();
            if (f.has("logGroupName")) {
                fb.logGroupName(App.str(f, "logGroupName"));
            }
            if (f.has("retentionInDays")) {
                fb.retentionInDays(f.get("retentionInDays").getAsInt());
            }
            args.awsForFluentbit(fb.build());
        }
        if (s.has("externalSecrets")) {
            JsonObject e = s.getAsJsonObject("externalSecrets");
            var es = ExternalSecretsSettingsArgs.builder();
            if (e.has("secretsPrefix")) {
                es.secretsPrefix(App.str(e, "secretsPrefix"));
            }
            if (e.has("kmsKeyArns")) {
                es.kmsKeyArns(App.strings(e.getAsJsonArray("kmsKeyArns")));
            }
            args.externalSecrets(es.build());
        }
        if (s.has("velero")) {
            JsonObject v = s.getAsJsonObject("velero");
            var velero = VeleroSettingsArgs.builder();
            if (v.has("bucketName")) {
                velero.bucketName(App.str(v, "bucketName"));
            }
            if (v.has("bucketPrefix")) {
                velero.bucketPrefix(App.str(v, "bucketPrefix"));
            }
            args.velero(velero.build());
        }
        if (s.has("awsPrivatecaIssuer")) {
            args.awsPrivatecaIssuer(PrivateCAIssuerSettingsArgs.builder()
                .certificateAuthorityArns(App.strings(
                    s.getAsJsonObject("awsPrivatecaIssuer").getAsJsonArray("certificateAuthorityArns")))
                .build());
        }
        return args.build();
    }
}
