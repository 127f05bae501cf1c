"""Runs parliament and cloudsplaining, as libraries, over IAM policies: one JSON object per policy on stdin
({"name": ..., "kind": "identity"|"trust"|"resource", "document": {...}}), one finding per line on stdout
({"policy", "tool", "issue", "severity", "detail"}). tests/iamlint runs it and judges the findings."""

import json
import sys

from cloudsplaining.command.scan_policy_file import scan_policy
from cloudsplaining.shared.constants import DEFAULT_EXCLUSIONS_CONFIG
from parliament import analyze_policy_string, config

# cloudsplaining's categories, as scan-policy-file reports them.
CATEGORIES = ["PrivilegeEscalation", "DataExfiltration", "ResourceExposure", "ServiceWildcard",
              "CredentialsExposure", "InfrastructureModification"]


def emit(policy, tool, issue, severity, detail):
    print(json.dumps({"policy": policy, "tool": tool, "issue": issue, "severity": severity,
                      "detail": detail}, sort_keys=True))


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        p = json.loads(line)
        doc = json.dumps(p["document"])
        for f in analyze_policy_string(doc, ignore_private_auditors=True).findings:
            detail = f.detail if isinstance(f.detail, str) else json.dumps(f.detail, sort_keys=True)
            emit(p["name"], "parliament", f.issue, config.get(f.issue, {}).get("severity", ""), detail)
        if p["kind"] != "identity":
            continue  # cloudsplaining judges what a principal may do: identity policies only
        results = scan_policy(p["document"], DEFAULT_EXCLUSIONS_CONFIG)
        for category in CATEGORIES:
            found = (results.get(category) or {}).get("findings") or []
            if not found:
                continue
            if category == "PrivilegeEscalation":
                found = sorted(f"{item.get('type')}: {', '.join(item.get('actions', []))}" for item in found)
            emit(p["name"], "cloudsplaining", category, "", ", ".join(sorted(found)))


if __name__ == "__main__":
    main()
