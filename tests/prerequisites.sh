#!/usr/bin/env bash
# Checks the programs the README's two commands need before they build anything, and says at once everything that is
# missing and how to get it. `make demo` and `make test` run it; its arguments are the extra programs a command needs
# (make test: chromium).
set -uo pipefail
missing=()
need() { # need <program> <what it is for> <how to get it>
	command -v "$1" >/dev/null 2>&1 || missing+=("$1 ($2): $3")
}
need go "builds everything" "https://go.dev/dl, Go 1.26"
need node "runs pulumi-eks and the TypeScript SDK" "Node.js 20, https://nodejs.org"
need npm "installs pulumi-eks and the TypeScript SDK's dependencies" "comes with Node.js"
need python3 "the Python SDK and examples" "Python 3.11 with venv"
need javac "the Java SDK and example" "a JDK 17 (apt-get install openjdk-17-jdk-headless)"
need mvn "builds the Java SDK and example" "Maven (apt-get install maven)"
need git "the offline Git server" "apt-get install git"
need redis-server "Argo CD's cache on the offline hubs" "apt-get install redis-server"
for extra in "$@"; do
	case "$extra" in
	chromium) need chromium "make test opens the fleet status page in it" "apt-get install chromium" ;;
	esac
done
if command -v go >/dev/null 2>&1; then
	version=$(go env GOVERSION | sed 's/^go//')
	case "$version" in
	1.2[6-9]* | 1.[3-9]* | [2-9].*) ;;
	*) missing+=("go $version: Go 1.26 or later (https://go.dev/dl)") ;;
	esac
fi
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
	missing+=("python3's venv with pip (apt-get install python3-venv)")
fi
if [ ${#missing[@]} -gt 0 ]; then
	echo "Missing before this can run (README: Try it):" >&2
	printf '  %s\n' "${missing[@]}" >&2
	exit 1
fi
