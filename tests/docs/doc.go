// Package docs checks the documentation as a reader follows it: the README, CONTRIBUTING.md and every page of
// docs/ (links, anchors, the README's length and map, the Pulumi Registry's front matter). It has tests only.
package docs
