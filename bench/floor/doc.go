// Package floor is the benchmarks' floor: a Pulumi program that registers, flat under the stack, exactly the
// custom resources (and their providers) a fleet stack holds, with the same types, inputs, providers and
// ordering, and nothing else: no components, no component provider, no outputs to wait on. Its cost is what
// the engine and the resource providers need for those resources; what the fleet costs beyond it is the price
// of the components.
package floor
