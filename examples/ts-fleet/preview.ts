// Previews the fleet as an Automation API inline program (no Node.js language host needed, only the CLI) and
// prints, as the last line of its output, the JSON count of the resource types the preview would create.
//
// Usage: node bin/preview.js <work dir with Pulumi.yaml and Pulumi.<stack>.yaml> <stack>
// The environment (PATH with the CLI and plugins, PULUMI_BACKEND_URL, ...) comes from the caller.
import { LocalWorkspace } from "@pulumi/pulumi/automation";
import { program } from "./fleet";

async function main(workDir: string, stackName: string): Promise<void> {
    // An inline program: the project's Pulumi.yaml and stack config come from workDir, the code from here.
    const stack = await LocalWorkspace.createOrSelectStack(
        { stackName, projectName: "gitops-fleet", program: async () => program() },
        { workDir },
    );
    const types: Record<string, number> = {};
    await stack.preview({
        onOutput: line => process.stderr.write(line),
        onEvent: event => {
            const meta = event.resourcePreEvent?.metadata;
            if (meta && meta.op === "create") {
                types[meta.type] = (types[meta.type] ?? 0) + 1;
            }
        },
    });
    console.log(JSON.stringify(types));
}

main(process.argv[2], process.argv[3]).catch(err => {
    console.error(err);
    process.exit(1);
});
