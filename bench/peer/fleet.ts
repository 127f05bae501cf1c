// The benchmarks' peer: the fleet of examples/fleet (same stack config, namespace gitops-fleet) written directly
// on @pulumi/eks and @pulumi/awsx, as the TypeScript approach in the seeds does, without the pulumi-fleet
// package. Per cluster it registers what FleetCluster and GitOpsBridge do: a regional AWS provider, an awsx VPC,
// the node role, the KMS key, an eks.Cluster with access entries, the EKS managed add-ons, a launch template and
// managed node group per node group, the IAM OIDC provider and the IRSA roles; on the hub, Argo CD (Helm), its
// pod-identity management role and the bootstrap ApplicationSets; on every cluster, the Argo CD cluster secret
// with the GitOps Bridge labels and annotations, in the hub. Config checks are left out: the Go example's
// Validate has passed on the same generated configs.
import * as pulumi from "@pulumi/pulumi";
import * as aws from "@pulumi/aws";
import * as awsx from "@pulumi/awsx";
import * as eks from "@pulumi/eks";
import * as k8s from "@pulumi/kubernetes";

interface Cluster {
    name: string;
    region: string;
    environment?: string;
    vpcCidr: string;
    role: "hub" | "spoke";
    version?: string;
    nodeGroups?: NodeGroup[];
    addons?: Record<string, boolean>;
}

interface NodeGroup { name: string; instanceTypes: string[]; minSize: number; maxSize: number; desiredSize: number }

interface Repo { url: string; revision?: string; basePath?: string; path: string }

/** Built is what a cluster gives the GitOps Bridge part. */
interface Built {
    spec: Cluster;
    environment: string;
    eksCluster: eks.Cluster;
    kubeconfig: pulumi.Output<string>;
    spokeRoleArn?: pulumi.Output<string>;
    metadata: pulumi.Output<Record<string, string>>;
    aws: aws.Provider;
}

const spokeRolePath = "/gitops-fleet/spoke/";
const hubRolePath = "/gitops-fleet/hub/";
const managedAddons = ["vpc-cni", "coredns", "kube-proxy", "eks-pod-identity-agent"];
const nodePolicies = ["AmazonEKSWorkerNodePolicy", "AmazonEKS_CNI_Policy", "AmazonEC2ContainerRegistryPullOnly"];
const logTypes = ["api", "audit", "authenticator", "controllerManager", "scheduler"];

/** IRSA identities of the add-ons the generated fleets enable (FleetCluster knows more). */
const identities: Record<string, { namespace: string; serviceAccount: string; policy: (c: PolicyContext) => object }> = {
    aws_load_balancer_controller: {
        namespace: "kube-system", serviceAccount: "aws-load-balancer-controller-sa",
        policy: c => allow([
            [["ec2:Describe*", "elasticloadbalancing:Describe*", "acm:ListCertificates", "acm:DescribeCertificate",
                "iam:ListServerCertificates", "iam:GetServerCertificate", "wafv2:GetWebACL", "shield:GetSubscriptionState"], ["*"]],
            [["ec2:CreateSecurityGroup", "elasticloadbalancing:CreateLoadBalancer", "elasticloadbalancing:CreateTargetGroup"], ["*"]],
            [["ec2:CreateTags", "ec2:DeleteTags", "ec2:AuthorizeSecurityGroupIngress", "ec2:RevokeSecurityGroupIngress",
                "ec2:DeleteSecurityGroup"], [`arn:${c.partition}:ec2:*:*:security-group/*`]],
            [["elasticloadbalancing:AddTags", "elasticloadbalancing:RemoveTags", "elasticloadbalancing:ModifyLoadBalancerAttributes",
                "elasticloadbalancing:DeleteLoadBalancer", "elasticloadbalancing:ModifyTargetGroup",
                "elasticloadbalancing:DeleteTargetGroup", "elasticloadbalancing:RegisterTargets",
                "elasticloadbalancing:DeregisterTargets"],
            [`arn:${c.partition}:elasticloadbalancing:*:*:targetgroup/*/*`, `arn:${c.partition}:elasticloadbalancing:*:*:loadbalancer/*/*/*`]],
        ]),
    },
    external_dns: {
        namespace: "external-dns", serviceAccount: "external-dns-sa",
        policy: c => allow([
            [["route53:ChangeResourceRecordSets"], [`arn:${c.partition}:route53:::hostedzone/*`]],
            [["route53:ListHostedZones", "route53:ListResourceRecordSets", "route53:ListTagsForResource"], ["*"]],
        ]),
    },
};

interface PolicyContext { partition: string; region: string; accountId: string }

function allow(statements: [string[], string[]][]): object {
    return { Version: "2012-10-17", Statement: statements.map(([Action, Resource]) => ({ Effect: "Allow", Action, Resource })) };
}

function trust(principal: Record<string, string>, actions: string[], conditions?: object): string {
    return JSON.stringify({
        Version: "2012-10-17",
        Statement: [{ Effect: "Allow", Principal: principal, Action: actions, ...(conditions ? { Condition: conditions } : {}) }],
    });
}

const regionCode = (region: string) => region.replace("-east-", "e").replace("-west-", "w");

/** The Pulumi program: returns the stack outputs. */
export function program(): Record<string, pulumi.Input<any>> {
    const cfg = new pulumi.Config("gitops-fleet");
    const clusters = cfg.requireObject<Cluster[]>("clusters");
    const repos = cfg.requireObject<{ addons: Repo; workloads?: Repo }>("repositories");
    const hubSpec = clusters.find(c => c.role === "hub");
    if (!hubSpec) {
        throw new Error("gitops-fleet:clusters: want one cluster with role hub");
    }
    const summary: Record<string, pulumi.Input<any>> = {};
    const hub = buildCluster(hubSpec);
    const argocd = buildHub(hub, repos);
    summary[hubSpec.name] = { region: hubSpec.region, role: "hub", endpoint: hub.eksCluster.eksCluster.endpoint };
    for (const spec of clusters.filter(c => c.role === "spoke")) {
        const spoke = buildCluster(spec, argocd.managementRoleArn);
        clusterSecret(spoke, repos, argocd.hubProvider(`${spec.name}-hub-k8s`));
        summary[spec.name] = { region: spec.region, role: "spoke", endpoint: spoke.eksCluster.eksCluster.endpoint };
    }
    return {
        clusters: summary,
        argocdManagementRoleArn: argocd.managementRoleArn,
        hubKubeconfig: pulumi.secret(hub.kubeconfig),
    };
}

function buildCluster(spec: Cluster, hubRoleArn?: pulumi.Output<string>): Built {
    const name = spec.name;
    const environment = spec.environment ?? pulumi.getStack();
    const tags = (n: string) => ({ Name: n });
    const provider = new aws.Provider(`${name}-aws`, { region: spec.region as aws.Region });
    const opts = { provider };
    const partition = aws.getPartitionOutput({}, opts).partition;
    const accountId = aws.getCallerIdentityOutput({}, opts).accountId;
    const region = aws.getRegionOutput({}, opts).name;

    const subnetTags = (role: string) => ({ [role]: "1", [`kubernetes.io/cluster/${name}`]: "shared" });
    const vpc = new awsx.ec2.Vpc(`${name}-vpc`, {
        cidrBlock: spec.vpcCidr,
        numberOfAvailabilityZones: 3,
        natGateways: { strategy: "Single" },
        subnetStrategy: "Auto",
        subnetSpecs: [
            { type: "Public", tags: subnetTags("kubernetes.io/role/elb") },
            { type: "Private", tags: subnetTags("kubernetes.io/role/internal-elb") },
        ],
        enableDnsHostnames: true,
        enableDnsSupport: true,
        tags: tags(name),
    }, { providers: [provider] });

    const nodeRoleName = `${name}-${regionCode(spec.region)}-node`;
    const nodeRole = new aws.iam.Role(`${name}-node-role`, {
        name: nodeRoleName,
        description: `Nodes of EKS cluster ${name}`,
        assumeRolePolicy: trust({ Service: "ec2.amazonaws.com" }, ["sts:AssumeRole"]),
        tags: tags(nodeRoleName),
    }, opts);
    for (const p of nodePolicies) {
        new aws.iam.RolePolicyAttachment(`${name}-node-role-${p}`, {
            role: nodeRole.name, policyArn: pulumi.interpolate`arn:${partition}:iam::aws:policy/${p}`,
        }, opts);
    }

    let spokeRoleArn: pulumi.Output<string> | undefined;
    const accessEntries: Record<string, eks.AccessEntry> = {};
    if (hubRoleArn) {
        const roleName = `${name}-${regionCode(spec.region)}-gitops-spoke`;
        const spokeRole = new aws.iam.Role(`${name}-gitops-spoke-role`, {
            name: roleName,
            path: spokeRolePath,
            description: `Argo CD hub access to EKS cluster ${name}`,
            assumeRolePolicy: hubRoleArn.apply(arn => trust({ AWS: arn }, ["sts:AssumeRole", "sts:TagSession"])),
            tags: tags(roleName),
        }, opts);
        spokeRoleArn = spokeRole.arn;
        accessEntries["gitops-spoke"] = {
            principalArn: spokeRole.arn,
            accessPolicies: {
                AmazonEKSClusterAdminPolicy: {
                    policyArn: pulumi.interpolate`arn:${partition}:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy`,
                    accessScope: { type: "cluster" },
                },
            },
        };
    }

    const key = new aws.kms.Key(`${name}-secrets-key`, {
        description: `Envelope encryption of Kubernetes secrets of EKS cluster ${name}`,
        enableKeyRotation: true,
        tags: tags(`${name}-secrets`),
    }, opts);
    const cluster = new eks.Cluster(`${name}-cluster`, {
        name,
        version: spec.version ?? "1.33",
        vpcId: vpc.vpcId,
        privateSubnetIds: vpc.privateSubnetIds,
        publicSubnetIds: vpc.publicSubnetIds,
        nodeAssociatePublicIpAddress: false,
        endpointPrivateAccess: true,
        endpointPublicAccess: true,
        publicAccessCidrs: ["0.0.0.0/0"],
        enabledClusterLogTypes: logTypes,
        encryptionConfigKeyArn: key.arn,
        createOidcProvider: false,
        skipDefaultNodeGroup: true,
        useDefaultVpcCni: true,
        authenticationMode: eks.AuthenticationMode.API_AND_CONFIG_MAP,
        instanceRoles: [nodeRole],
        accessEntries,
        tags: tags(name),
        // As FleetCluster does: keeps every kubeconfig pulumi-eks derives secret in state.
        providerCredentialOpts: pulumi.secret({}),
    }, { providers: [provider] });

    const addon = (addonName: string, dependsOn: pulumi.Resource[]) => new aws.eks.Addon(`${name}-${addonName}`, {
        clusterName: cluster.eksCluster.name,
        addonName,
        resolveConflictsOnCreate: "OVERWRITE",
        resolveConflictsOnUpdate: "OVERWRITE",
        tags: tags(`${name}-${addonName}`),
    }, { provider, dependsOn });
    const cni = addon(managedAddons[0], []);
    const groups = spec.nodeGroups ?? [{ name: "system", instanceTypes: ["m6i.large"], minSize: 2, maxSize: 4, desiredSize: 2 }];
    const nodes = groups.map(ng => {
        const lt = new aws.ec2.LaunchTemplate(`${name}-ng-${ng.name}`, {
            description: `Node group ${ng.name} of EKS cluster ${name}`,
            metadataOptions: { httpEndpoint: "enabled", httpTokens: "required", httpPutResponseHopLimit: 2 },
            blockDeviceMappings: [{
                deviceName: "/dev/xvda",
                ebs: { volumeSize: 50, volumeType: "gp3", encrypted: "true", deleteOnTermination: "true" },
            }],
            tags: tags(`${name}-${ng.name}`),
        }, opts);
        return new eks.ManagedNodeGroup(`${name}-ng-${ng.name}`, {
            cluster,
            nodeGroupName: ng.name,
            nodeRole,
            subnetIds: vpc.privateSubnetIds,
            instanceTypes: ng.instanceTypes,
            capacityType: "ON_DEMAND",
            amiType: "AL2023_x86_64_STANDARD",
            scalingConfig: { minSize: ng.minSize, desiredSize: ng.desiredSize, maxSize: ng.maxSize },
            launchTemplate: { id: lt.id, version: lt.latestVersion.apply(v => `${v}`) },
            tags: tags(`${name}-${ng.name}`),
        }, { providers: [provider], dependsOn: [cni] });
    });
    for (const a of managedAddons.slice(1)) {
        addon(a, nodes);
    }

    const oidc = new aws.iam.OpenIdConnectProvider(`${name}-oidc`, {
        url: cluster.eksCluster.identities.apply(ids => ids[0].oidcs![0].issuer!),
        clientIdLists: ["sts.amazonaws.com"],
        tags: tags(`${name}-oidc`),
    }, opts);
    const roleArns: Record<string, pulumi.Output<string>> = {};
    for (const addonName of Object.keys(spec.addons ?? {}).filter(a => spec.addons![a] && identities[a]).sort()) {
        const id = identities[addonName];
        const purpose = addonName.replace(/_/g, "-");
        const roleName = `${name}-${regionCode(spec.region)}-${purpose}`;
        const role = new aws.iam.Role(`${name}-irsa-${purpose}`, {
            name: roleName,
            description: `IRSA role of ${addonName} on EKS cluster ${name}`,
            assumeRolePolicy: pulumi.all([oidc.arn, oidc.url]).apply(([arn, url]) => {
                const issuer = url.replace("https://", "");
                return trust({ Federated: arn }, ["sts:AssumeRoleWithWebIdentity"], {
                    StringEquals: {
                        [`${issuer}:sub`]: `system:serviceaccount:${id.namespace}:${id.serviceAccount}`,
                        [`${issuer}:aud`]: "sts.amazonaws.com",
                    },
                });
            }),
            tags: tags(roleName),
        }, opts);
        new aws.iam.RolePolicy(`${name}-irsa-${purpose}`, {
            role: role.name,
            name: purpose,
            policy: pulumi.all([partition, region, accountId]).apply(([p, r, a]) =>
                JSON.stringify(id.policy({ partition: p, region: r, accountId: a }))),
        }, opts);
        roleArns[addonName] = role.arn;
    }

    const metadata = pulumi.all([cluster.eksCluster.name, region, accountId, vpc.vpcId, cluster.eksCluster.version,
        pulumi.output(roleArns)]).apply(([clusterName, r, account, vpcId, version, arns]) => {
        const md: Record<string, string> = {
            aws_cluster_name: clusterName, aws_region: r, aws_account_id: account, aws_vpc_id: vpcId,
            kubernetes_version: version, environment,
        };
        for (const [a, arn] of Object.entries(arns)) {
            md[`${a}_iam_role_arn`] = arn;
            md[`${a}_namespace`] = identities[a].namespace;
            md[`${a}_service_account`] = identities[a].serviceAccount;
        }
        return md;
    });
    return {
        spec, environment, eksCluster: cluster, aws: provider, spokeRoleArn, metadata,
        kubeconfig: pulumi.secret(cluster.kubeconfigJson),
    };
}

/** The hub's Argo CD: namespace, management role with pod identity, Helm release, cluster secret, bootstrap. */
function buildHub(hub: Built, repos: { addons: Repo; workloads?: Repo }) {
    const name = hub.spec.name;
    const hubProvider = (resourceName: string) => new k8s.Provider(resourceName, { kubeconfig: hub.kubeconfig });
    const provider = hubProvider(`${name}-k8s`);
    const ns = new k8s.core.v1.Namespace(`${name}-namespace`, { metadata: { name: "argocd" } }, { provider });
    const bridgeAws = new aws.Provider(`${name}-bridge-aws`, { region: hub.spec.region as aws.Region });
    const partition = aws.getPartitionOutput({}, { provider: bridgeAws }).partition;
    const clusterArn = pulumi.all([partition, hub.metadata]).apply(([p, md]) =>
        `arn:${p}:eks:${md.aws_region}:${md.aws_account_id}:cluster/${md.aws_cluster_name}`);
    const role = new aws.iam.Role(`${name}-argocd-management`, {
        path: hubRolePath,
        description: `Argo CD on ${name}: assumes GitOps spoke roles under ${spokeRolePath}`,
        assumeRolePolicy: pulumi.all([clusterArn, hub.metadata]).apply(([arn, md]) =>
            trust({ Service: "pods.eks.amazonaws.com" }, ["sts:AssumeRole", "sts:TagSession"], {
                StringEquals: { "aws:SourceAccount": md.aws_account_id }, ArnEquals: { "aws:SourceArn": arn },
            })),
    }, { provider: bridgeAws });
    new aws.iam.RolePolicy(`${name}-argocd-management`, {
        role: role.name,
        policy: partition.apply(p => JSON.stringify(allow([[["sts:AssumeRole", "sts:TagSession"],
            [`arn:${p}:iam::*:role${spokeRolePath}*`]]]))),
    }, { provider: bridgeAws });
    const serviceAccounts = { controller: "argocd-application-controller", applicationSet: "argocd-applicationset-controller",
        server: "argocd-server" };
    const assocs = Object.values(serviceAccounts).map(sa => new aws.eks.PodIdentityAssociation(`${name}-${sa}`, {
        clusterName: hub.eksCluster.eksCluster.name, namespace: "argocd", serviceAccount: sa, roleArn: role.arn,
    }, { provider: bridgeAws }));
    const release = new k8s.helm.v3.Release(`${name}-argocd`, {
        name: "argo-cd",
        chart: "argo-cd",
        version: "10.1.1",
        repositoryOpts: { repo: "https://argoproj.github.io/argo-helm" },
        namespace: ns.metadata.name,
        values: Object.fromEntries(Object.entries(serviceAccounts).map(([k, sa]) => [k, { serviceAccount: { name: sa } }])),
    }, { provider, dependsOn: assocs });
    const secret = clusterSecret(hub, repos, provider, [ns]);
    for (const [prefix, part, repo] of [["addons", "addons", repos.addons], ["workload", "workloads", repos.workloads]] as const) {
        if (!repo) {
            continue;
        }
        const annotation = (key: string) => `{{.metadata.annotations.${prefix}_repo_${key}}}`;
        new k8s.apiextensions.CustomResource(`${name}-bootstrap-${part}`, {
            apiVersion: "argoproj.io/v1alpha1",
            kind: "ApplicationSet",
            metadata: { name: `bootstrap-${part}`, namespace: "argocd" },
            spec: {
                goTemplate: true,
                goTemplateOptions: ["missingkey=error"],
                syncPolicy: { preserveResourcesOnDeletion: true },
                generators: [{ clusters: { selector: { matchLabels: { "argocd.argoproj.io/secret-type": "cluster", cluster_name: name } } } }],
                template: {
                    metadata: { name: `bootstrap-${prefix}-{{.name}}` },
                    spec: {
                        project: "default",
                        source: {
                            repoURL: annotation("url"), targetRevision: annotation("revision"),
                            path: annotation("basepath") + annotation("path"), directory: { recurse: true },
                        },
                        destination: { server: "https://kubernetes.default.svc", namespace: "argocd" },
                        syncPolicy: { automated: { selfHeal: true }, syncOptions: ["CreateNamespace=true"] },
                    },
                },
            },
        }, { provider, dependsOn: [release, secret] });
    }
    return { managementRoleArn: role.arn, hubProvider };
}

/** The Argo CD cluster secret of c, with the GitOps Bridge labels and annotations, in the hub. */
function clusterSecret(c: Built, repos: { addons: Repo; workloads?: Repo }, provider: k8s.Provider, dependsOn: pulumi.Resource[] = []) {
    const name = c.spec.name;
    const repoAnnotations = (prefix: string, r?: Repo) => r ? {
        [`${prefix}_repo_url`]: r.url, [`${prefix}_repo_basepath`]: r.basePath ?? "",
        [`${prefix}_repo_path`]: r.path, [`${prefix}_repo_revision`]: r.revision ?? "HEAD",
    } : {};
    const labels = c.eksCluster.eksCluster.version.apply(version => {
        const l: Record<string, string> = {
            "argocd.argoproj.io/secret-type": "cluster", cluster_name: name, environment: c.environment,
            kubernetes_version: version,
        };
        for (const [addon, on] of Object.entries(c.spec.addons ?? {})) {
            l[`enable_${addon}`] = `${on}`;
        }
        return l;
    });
    const annotations = c.metadata.apply(md => ({ ...md, ...repoAnnotations("addons", repos.addons), ...repoAnnotations("workload", repos.workloads) }));
    const stringData = c.spokeRoleArn
        ? pulumi.all([c.eksCluster.eksCluster.endpoint, c.eksCluster.eksCluster.certificateAuthority, c.spokeRoleArn])
            .apply(([server, ca, roleARN]) => ({
                name, server,
                config: JSON.stringify({ awsAuthConfig: { clusterName: name, roleARN }, tlsClientConfig: { insecure: false, caData: ca.data } }),
            }))
        : pulumi.output({ name, server: "https://kubernetes.default.svc", config: JSON.stringify({ tlsClientConfig: { insecure: false } }) });
    return new k8s.core.v1.Secret(`${name}-cluster-secret`, {
        metadata: { name, namespace: "argocd", labels, annotations },
        type: "Opaque",
        stringData: pulumi.secret(stringData),
    }, { provider, dependsOn });
}
