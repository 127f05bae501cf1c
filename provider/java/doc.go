// Package java pins the Java tools of the fleet: pulumi-java's SDK generator (pulumi-java-gen, for `make sdks`)
// and its language host (pulumi-language-java, for running Java programs and for `pulumi package add`). v1.22.0 is
// the newest version the Go module proxy serves and the first of those whose language host implements the Link
// call `pulumi package add` makes (v1.16.0's does not). It needs pulumi pkg/v3 v3.228.0 while the product is on
// v3.259.0, so it lives in this module of its own; the Go checksum database lacks these versions, so they download
// with GONOSUMDB=github.com/pulumi and are pinned by this module's go.sum.
package java
