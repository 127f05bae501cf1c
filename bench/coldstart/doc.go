// Package coldstart starts a resource provider plugin as the engine does (exec, read the port it prints,
// connect over gRPC) and times exec to the first GetSchema answer.
package coldstart
