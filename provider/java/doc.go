// Package java pins the Java tools of the fleet: pulumi-java's SDK generator (pulumi-java-gen, for `make sdks`)
// and its language host (pulumi-language-java, for running Java programs). They need pulumi pkg/v3 v3.182.0 while
// the product is on v3.259.0, so they live in this module of their own; the Go checksum database lacks
// pulumi-java v1.16.0, so they download with GONOSUMDB=github.com/pulumi and are pinned by this module's go.sum.
package java
