"""Previews the fleet as an Automation API inline program (no Python language host needed, only the CLI) and
prints, as the last line of its output, the JSON count of the resource types the preview would create.

Usage: python preview.py <work dir with Pulumi.yaml and Pulumi.<stack>.yaml> <stack>
The environment (PATH with the CLI and plugins, PULUMI_BACKEND_URL, ...) comes from the caller."""

import json
import sys

from pulumi import automation as auto

from fleet import program


def main(work_dir, stack_name):
    # For inline programs the work_dir keyword is ignored; the work directory goes in the workspace options.
    stack = auto.create_or_select_stack(stack_name=stack_name, project_name="gitops-fleet", program=program,
                                        opts=auto.LocalWorkspaceOptions(work_dir=work_dir))
    types = {}

    def on_event(event):
        meta = event.resource_pre_event and event.resource_pre_event.metadata
        if meta and meta.op == auto.OpType.CREATE:
            types[meta.type] = types.get(meta.type, 0) + 1

    stack.preview(on_output=lambda line: print(line, file=sys.stderr), on_event=on_event)
    print(json.dumps(types))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
