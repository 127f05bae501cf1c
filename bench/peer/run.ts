// Runs one operation of the peer (fleet.ts) as an Automation API inline program and prints, as the last line,
// {"seconds": <wall time of the operation>, "resources": <resources it changes>} (bench/engine reads it).
//
// Usage: node bin/run.js <preview|up> <project dir with Pulumi.yaml and Pulumi.<stack>.yaml> <stack>
// The environment (PATH with the CLI and plugins, PULUMI_BACKEND_URL, ...) comes from the caller.
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { program } from "./fleet";

async function main(op: string, workDir: string, stackName: string): Promise<void> {
    const stack = await LocalWorkspace.createOrSelectStack(
        { stackName, projectName: "gitops-fleet", program: async () => program() },
        { workDir },
    );
    const start = process.hrtime.bigint();
    let resources: number;
    if (op === "preview") {
        resources = changes((await stack.preview()).changeSummary);
    } else if (op === "up") {
        resources = changes((await stack.up()).summary.resourceChanges ?? {});
    } else {
        throw new Error(`unknown operation ${op}: want preview or up`);
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    console.log(JSON.stringify({ seconds, resources }));
}

main(process.argv[2], process.argv[3], process.argv[4]).catch(err => {
    console.error(err);
    process.exit(1);
});

/** The resources an operation creates, updates, replaces or deletes: every change but "same". */
function changes(summary: Record<string, number>): number {
    return Object.entries(summary).filter(([op]) => op !== "same").reduce((n, [, count]) => n + count, 0);
}
