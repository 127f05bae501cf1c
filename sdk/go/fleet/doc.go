// EKS cluster fleets with Argo CD in the GitOps Bridge pattern: Fleet builds a whole multi-region fleet from typed data; FleetCluster builds a cluster and the AWS identities of its add-ons; GitOpsBridge registers clusters into Argo CD through cluster secrets; StackDelivery delivers the fleet's own stacks by GitOps (Pulumi Kubernetes Operator, Argo CD, Kargo).
package fleet
