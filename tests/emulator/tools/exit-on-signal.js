// Preloaded (node --require) into pulumi-resource-eks when `make bench` profiles it: the engine stops plugins
// with SIGINT, which would end node before --cpu-prof writes its profile; exiting normally writes it.
for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => process.exit(0));
}
