package gitopsbridge

// spoke writes the spoke's cluster secret into the hub, through the hub's kubernetes provider. Nothing is
// installed on the spoke: Argo CD reaches it by assuming the spoke role (awsAuthConfig).
func (b *builder) spoke(secret secretContent) error {
	hub, err := b.hubProvider(b.args.Spoke.HubKubeconfig, "hub-k8s")
	if err != nil {
		return err
	}
	_, err = b.clusterSecret(secret, hub)
	return err
}
