// Package workloads is the part of the offline cloud Pulumi never sees: what the clusters' workloads hold in
// each emulated cluster's Kubernetes API (Ingresses, Services, PersistentVolumeClaims, Karpenter's NodePools)
// and the AWS resources the add-on controllers made for them (load balancers, volumes, instances), tagged as
// those controllers tag them.
//
// Its Handler sits behind the offline network (tests/emulator/network) and answers, for the emulated EKS API
// servers (https://<id>.gr7.<region>.eks.amazonaws.com), the lists, gets and deletes a drain makes, authenticated
// with an EKS bearer token (`aws eks get-token`'s form); and, for tagging.<region>.amazonaws.com, the Resource
// Groups Tagging API's GetResources. Deleting an object deletes what a controller made for it (Object.Made), as
// the controller would once the object is gone; a Tagged resource no object made never goes away: a leftover.
package workloads
