#!/usr/bin/env bash
# cached.sh NAME KEYFILE... -- OUTPUT... -- TARGET
#
# Builds a pinned tool once per machine: runs `make TARGET`, which writes OUTPUT... (paths relative to the working
# directory, the clone's root), and keeps a copy of them in $TOOL_CACHE/NAME-<key>. A later run with the same key, from
# this clone or another, copies them back instead of building (and touches them, so that make sees them up to date).
#
# The key is a SHA-256 of what decides the binaries: NAME and the outputs' paths; the Go and Node.js toolchains (their
# versions, GOOS, GOARCH, CGO_ENABLED, GOAMD64); TARGET's recipe as `make -n` prints it (the version flags included),
# with the working directory's path taken out; and the content of each KEYFILE (the tool module's go.mod and go.sum,
# the workspace's, a lockfile). A tool's key changes with any of these, and each new key drops the tool's older
# entries. With TOOL_CACHE empty, it only runs `make TARGET`.
set -euo pipefail
name=$1
shift
keys=()
while [[ $# -gt 0 && $1 != -- ]]; do keys+=("$1"); shift; done
shift
outs=()
while [[ $# -gt 0 && $1 != -- ]]; do outs+=("$1"); shift; done
shift
target=$1
make=${MAKE:-make}
cache=${TOOL_CACHE:-}
if [[ -z $cache ]]; then
	exec "$make" --no-print-directory "$target"
fi

key=$({
	echo "$name"
	printf 'output %s\n' "${outs[@]}"
	"${GO:-go}" version
	"${GO:-go}" env GOOS GOARCH CGO_ENABLED GOAMD64
	node --version 2>/dev/null || true
	"$make" --no-print-directory -n "$target" | sed "s|$PWD|.|g"
	for f in "${keys[@]}"; do
		echo "== $(realpath --relative-to="$PWD" "$f")"
		cat "$f"
	done
} | sha256sum | cut -c1-24)
entry=$cache/$name-$key

if [[ -f $entry/complete ]]; then
	for o in "${outs[@]}"; do
		rm -rf "$o"
		mkdir -p "$(dirname "$o")"
		cp -a "$entry/files/$o" "$o"
		if [[ -d $o && ! -L $o ]]; then
			find "$o" -maxdepth 1 -exec touch -h {} +
		else
			touch -h "$o"
		fi
	done
	echo "cached.sh: $name from $entry"
	exit 0
fi

"$make" --no-print-directory "$target"
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.$name.XXXXXX")
for o in "${outs[@]}"; do
	mkdir -p "$tmp/files/$(dirname "$o")"
	cp -a "$o" "$tmp/files/$o"
done
touch "$tmp/complete"
find "$cache" -maxdepth 1 -name "$name-*" ! -name "$name-$key" -exec rm -rf {} +
mv -T "$tmp" "$entry" 2>/dev/null || rm -rf "$tmp"
echo "cached.sh: $name kept in $entry"
