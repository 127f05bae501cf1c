// Package drain deletes, before a cluster is removed, what the add-on controllers made in AWS for the cluster's
// workloads, while those controllers still run: through the cluster's API it deletes the Ingresses and Gateways
// (the AWS Load Balancer Controller's load balancers), the Services of type LoadBalancer, the
// PersistentVolumeClaims whose volumes are deleted with them (the EBS CSI driver's volumes) and Karpenter's
// NodePools and NodeClaims (its instances), waiting for each kind to be gone; then it asks AWS for what is still
// tagged to the cluster by those controllers and waits until nothing is left. What is left at the timeout fails
// the drain with its ARNs, unless forced.
package drain
