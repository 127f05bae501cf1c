// Package gitserver serves Git repositories over HTTP(S) for the offline runs, with Git's own server (`git
// http-backend` behind net/http/cgi), so Argo CD's repo server clones and fetches them as it would from GitHub: the
// offline network routes a Git host (github.com) to Handler, and Publish commits a fixture folder into a repository
// there. Nothing here emulates GitHub's API (tests/emulator/github does, for the Pulumi GitHub provider).
package gitserver
