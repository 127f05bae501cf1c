// EKS cluster fleets with Argo CD in the GitOps Bridge pattern: FleetCluster builds a cluster and the AWS identities of its add-ons; GitOpsBridge registers clusters into Argo CD through cluster secrets.
package fleet
