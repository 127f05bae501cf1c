#!/usr/bin/env bash
# Checks the generated SDKs the way a consumer uses them: the Go SDK builds and vets; the TypeScript SDK
# compiles with tsc against @pulumi/pulumi from npm, and examples/ts-fleet compiles against it; the Python SDK
# installs with pip into a virtualenv with pulumi from PyPI and imports, as does examples/py-fleet. The e2e tests
# run both examples from here (.work/sdk-check/ts-fleet, .work/sdk-check/venv). The Java SDK compiles with Maven.
# The API examples of the schema (examples/api) type-check as programs: TypeScript with tsc, Python with mypy,
# Java with javac (Go's compile in `go vet ./...`). Work happens in a copy under .work/sdk-check (ignored by git).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/.work/sdk-check"
mkdir -p "$work"

echo "== Go SDK: go build, go vet"
(cd "$root/sdk/go/fleet" && go build ./... && go vet ./...)

echo "== TypeScript SDK: npm install, tsc"
rm -rf "$work/nodejs" && cp -r "$root/sdk/nodejs" "$work/nodejs"
cd "$work/nodejs"
# The generator leaves the version to the publisher (${VERSION}); npm needs a real one to install.
sed -i 's/"version": "${VERSION}"/"version": "0.0.0-dev"/' package.json
npm install --no-audit --no-fund --loglevel=error
npx tsc --version
npx tsc
test -f bin/index.js && test -f bin/index.d.ts
# As Pulumi's SDK builds do, the package manifest ships inside bin (utilities.getVersion reads it).
cp package.json bin/
node -e 'const f = require("./bin"); for (const c of ["FleetCluster", "GitOpsBridge"]) { if (typeof f[c] !== "function") { throw new Error("no " + c) } } console.log("exports:", Object.keys(f).join(", "))'

# A consumer's program type-checks: FleetCluster's clusterInfo plugs into GitOpsBridge with no glue.
mkdir -p consumer && cat > consumer/fleet.ts <<'TS'
import * as fleet from "..";
const hub = new fleet.FleetCluster("hub", { region: "us-east-1", addons: { metrics_server: true } });
const argocd = new fleet.GitOpsBridge("hub", { cluster: hub.clusterInfo, hub: { highAvailability: true } });
const spoke = new fleet.FleetCluster("spoke", { region: "us-west-2", gitopsAccess: { hubRoleArn: argocd.managementRoleArn } });
new fleet.GitOpsBridge("spoke", { cluster: spoke.clusterInfo, spoke: { hubKubeconfig: hub.kubeconfig } });
TS
npx tsc --noEmit --strict --esModuleInterop --skipLibCheck consumer/fleet.ts

echo "== TypeScript example (examples/ts-fleet): npm install with the SDK built above, tsc"
rm -rf "$work/ts-fleet" && mkdir -p "$work/ts-fleet"
cp "$root"/examples/ts-fleet/{*.ts,package.json,tsconfig.json,Pulumi.yaml} "$work/ts-fleet/"
cd "$work/ts-fleet"
sed -i 's|"file:../../sdk/nodejs"|"file:../nodejs/bin"|' package.json
# --install-links copies the SDK in, so that it and the program share one @pulumi/pulumi.
npm install --install-links --no-audit --no-fund --loglevel=error
npx tsc
test -f bin/preview.js

echo "== API examples in TypeScript (examples/api/*/index.ts): tsc --strict against the SDK built above"
rm -rf api && mkdir api
for f in "$root"/examples/api/*/index.ts; do cp "$f" "api/$(basename "$(dirname "$f")").ts"; done
npx tsc --noEmit --strict --esModuleInterop --skipLibCheck --target es2020 --module commonjs --moduleResolution node api/*.ts
echo "examples/api: $(ls api | wc -l) TypeScript programs type-check"

echo "== Python SDK: pip install into a virtualenv, import"
rm -rf "$work/venv" && python3 -m venv "$work/venv"
# From a copy: pip's build leaves build/ and *.egg-info behind in the source tree.
rm -rf "$work/python" && cp -r "$root/sdk/python" "$work/python"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$work/python"
"$work/venv/bin/python" - <<'PY'
import pulumi_fleet as fleet
import inspect
for name in ("FleetCluster", "GitOpsBridge", "FleetClusterArgs", "GitOpsBridgeArgs", "ClusterInfoArgs"):
    assert hasattr(fleet, name), name
params = inspect.signature(fleet.GitOpsBridgeArgs.__init__).parameters
assert {"cluster", "hub", "spoke", "git", "addons_repo"} <= set(params), params
print("pulumi_fleet imports:", ", ".join(n for n in dir(fleet) if n[0].isupper()))
PY
"$work/venv/bin/pip" install --quiet --disable-pip-version-check -r "$root/examples/py-fleet/requirements.txt"
(cd "$root/examples/py-fleet" && "$work/venv/bin/python" -c 'import fleet, preview; print("examples/py-fleet imports")')

echo "== API examples in Python (examples/api/*/__main__.py): mypy --strict against the SDK installed above"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "mypy==2.4.1"
rm -rf "$work/api-py" && mkdir -p "$work/api-py"
# Each example is a __main__.py of its own folder; under one name each, mypy checks them in one run.
for f in "$root"/examples/api/*/__main__.py; do cp "$f" "$work/api-py/example_$(basename "$(dirname "$f")").py"; done
(cd "$work/api-py" && "$work/venv/bin/mypy" --strict --no-error-summary --cache-dir "$work/mypy-cache" .)
echo "examples/api: $(ls "$work/api-py" | wc -l) Python programs type-check"
echo "== Java SDK: mvn package against com.pulumi:pulumi from Maven Central"
rm -rf "$work/java" && cp -r "$root/sdk/java" "$work/java" && rm -rf "$work/java/target"
(cd "$work/java" && mvn -B -q --no-transfer-progress package -DskipTests)
test -f "$work/java/target/fleet-0.0.1.jar"
jar tf "$work/java/target/fleet-0.0.1.jar" | grep -q 'com/gitopsfleet/fleet/FleetCluster.class'
echo "sdk/java: target/fleet-0.0.1.jar with com.gitopsfleet.fleet.FleetCluster"

echo "== API examples in Java (examples/api/*/App.java): javac against the SDK jar and its dependencies"
(cd "$work/java" && mvn -B -q --no-transfer-progress dependency:build-classpath -Dmdep.outputFile="$work/java/classpath.txt")
classpath="$work/java/target/fleet-0.0.1.jar:$(cat "$work/java/classpath.txt")"
for f in "$root"/examples/api/*/App.java; do
  out="$work/api-java/$(basename "$(dirname "$f")")"
  rm -rf "$out" && mkdir -p "$out"
  javac -Xlint:all -Werror -cp "$classpath" -d "$out" "$f"
done
echo "examples/api: $(ls "$root"/examples/api/*/App.java | wc -l) Java programs compile"

echo "SDK checks passed"
