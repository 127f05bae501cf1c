// Package docs checks the documentation as a reader follows it: the README and every page of docs/ (links,
// anchors, the README's length, the Pulumi Registry's front matter). It has tests only.
package docs
