// Package release checks the release of the plugin and its SDKs without publishing anything (a module of its own,
// whose tool directive pins GoReleaser v2): .goreleaser.yaml passes `goreleaser check` and builds the archive Pulumi's
// plugin installer expects, which `pulumi plugin install` accepts and whose plugin reports the version; `make
// release-sdks` stamps a version into the schema and every SDK's package metadata; CHANGELOG.md has the notes the
// release workflow publishes (cmd/release-notes).
package release
