package drain

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// DefaultTimeout is how long a drain waits, in all, for the objects and then the AWS resources to be gone.
const DefaultTimeout = 20 * time.Minute

// Settings are the knobs of a drain.
type Settings struct {
	// Timeout bounds the whole drain. Default: DefaultTimeout.
	Timeout time.Duration
	// Poll is the longest wait between two lists while waiting: the first wait is 1 s (or Poll when shorter), and
	// each next one twice the last, up to Poll. Default: 10 s.
	Poll time.Duration
	// Force lets the drain succeed with resources left (they are logged), instead of failing.
	Force bool
	// Keep are kinds left alone (for example PersistentVolumeClaims whose volumes are kept on purpose).
	Keep []Kind
}

// Leftovers finds the AWS resources the add-on controllers made for a cluster that still exist.
type Leftovers interface {
	// Tagged returns their ARNs, sorted.
	Tagged(ctx context.Context, cluster string) ([]string, error)
}

// Drainer drains one cluster.
type Drainer struct {
	// Cluster is the EKS cluster's name.
	Cluster string
	// Kube is the cluster's API.
	Kube dynamic.Interface
	// AWS finds what is left in AWS.
	AWS Leftovers
	Settings
	// Log reports progress, Warn what a forced drain leaves (the engine's log); Warn defaults to Log.
	Log, Warn func(msg string)
}

// LeftoverError is a drain that ended with resources still there at the timeout.
type LeftoverError struct {
	Cluster string
	ARNs    []string
	Objects []string // Kubernetes objects still there, "<kind> <namespace>/<name>"
}

func (e *LeftoverError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "draining cluster %q: after the timeout ", e.Cluster)
	if len(e.Objects) > 0 {
		fmt.Fprintf(&b, "these objects are still being deleted: %s", strings.Join(e.Objects, ", "))
	} else {
		fmt.Fprintf(&b, "these AWS resources the add-on controllers made are still there: %s", strings.Join(e.ARNs, ", "))
	}
	b.WriteString("; nothing else of the cluster was deleted. Delete them and run again, raise drain.timeout, or set " +
		"drain.force: true to go on and leave them")
	return b.String()
}

// Run deletes each kind of Steps in order (those not kept), waiting until its objects are gone, then waits until
// AWS holds nothing the controllers made for the cluster. It stops at the timeout with a *LeftoverError, unless
// forced: a forced drain out of time still deletes the later steps' objects and asks AWS, each for one poll
// interval past the timeout (so nothing it could have deleted is left for want of asking), and warns of everything
// left.
func (d Drainer) Run(ctx context.Context) error {
	s := d.Settings
	if s.Timeout == 0 {
		s.Timeout = DefaultTimeout
	}
	if s.Poll == 0 {
		s.Poll = 10 * time.Second
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(parent, s.Timeout)
	defer cancel()
	// budget is the context of the next wait: the drain's own, or once a forced drain is out of time one poll
	// interval of grace.
	budget := func() (context.Context, context.CancelFunc) {
		if ctx.Err() == nil || !s.Force {
			return ctx, func() {}
		}
		return context.WithTimeout(context.WithoutCancel(parent), s.Poll)
	}
	for _, step := range Steps {
		if slices.Contains(s.Keep, step.Kind) {
			d.log("keeping %s (drain.keep)", step.Kind)
			continue
		}
		stepCtx, done := budget()
		left, err := d.deleteAndWait(stepCtx, step, s.Poll)
		done()
		if err != nil {
			return err
		}
		if len(left) > 0 {
			if !s.Force {
				return &LeftoverError{Cluster: d.Cluster, Objects: left}
			}
			d.warn("timed out with %s still being deleted; going on (drain.force): %s", step.Kind, strings.Join(left, ", "))
		}
	}
	awsCtx, done := budget()
	defer done()
	spared, err := d.spared(awsCtx, s.Keep)
	if err != nil {
		return err
	}
	arns, err := d.awaitAWS(awsCtx, s.Poll, spared)
	if err != nil {
		return err
	}
	if len(arns) > 0 {
		if s.Force {
			d.warn("timed out with %d AWS resources left; leaving them (drain.force): %s", len(arns), strings.Join(arns, ", "))
			return nil
		}
		return &LeftoverError{Cluster: d.Cluster, ARNs: arns}
	}
	d.log("nothing the add-on controllers made is left in AWS")
	return nil
}

// deleteAndWait deletes the step's selected objects and polls until none is left; it returns those left when
// the context ends.
func (d Drainer) deleteAndWait(ctx context.Context, step Step, poll time.Duration) ([]string, error) {
	deleted := map[string]bool{}
	wait := backoff(poll)
	for {
		objs, err := d.selected(ctx, step)
		if err != nil {
			return nil, err
		}
		if len(objs) == 0 {
			if len(deleted) > 0 {
				d.log("%s: all %d deleted", step.Kind, len(deleted))
			}
			return nil, nil
		}
		var left []string
		for _, o := range objs {
			id := fmt.Sprintf("%s %s/%s", step.Kind, o.obj.GetNamespace(), o.obj.GetName())
			left = append(left, id)
			if deleted[id] {
				continue
			}
			err := d.Kube.Resource(o.gvr).Namespace(o.obj.GetNamespace()).Delete(ctx, o.obj.GetName(), metav1.DeleteOptions{})
			if err != nil && !apierrors.IsNotFound(err) {
				return nil, fmt.Errorf("draining cluster %q: deleting %s: %w", d.Cluster, id, err)
			}
			deleted[id] = true
			d.log("deleting %s", id)
		}
		select {
		case <-ctx.Done():
			slices.Sort(left)
			return left, nil
		case <-time.After(wait()):
		}
	}
}

type found struct {
	gvr schema.GroupVersionResource
	obj unstructured.Unstructured
}

// selected lists the step's objects in every namespace, skipping resources the cluster does not serve (a CRD
// not installed: Gateway API, Karpenter, or one of Karpenter's API versions).
func (d Drainer) selected(ctx context.Context, step Step) ([]found, error) {
	lookup := func(gvr schema.GroupVersionResource, name string) *unstructured.Unstructured {
		o, err := d.Kube.Resource(gvr).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil
		}
		return o
	}
	var out []found
	for _, gvr := range step.Resources {
		list, err := d.Kube.Resource(gvr).Namespace(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
		switch {
		case apierrors.IsNotFound(err): // the API serves no such resource
			continue
		case err != nil:
			return nil, fmt.Errorf("draining cluster %q: listing %s: %w", d.Cluster, gvr.Resource, err)
		}
		for _, o := range list.Items {
			if step.Selects == nil || step.Selects(o, lookup) {
				out = append(out, found{gvr, o})
			}
		}
	}
	return out, nil
}

// awaitAWS polls AWS until nothing is left (but what is spared) or the context ends, and returns what is left.
func (d Drainer) awaitAWS(ctx context.Context, poll time.Duration, spared func(arn string) bool) ([]string, error) {
	var last []string
	wait := backoff(poll)
	for {
		arns, err := d.AWS.Tagged(ctx, d.Cluster)
		if err != nil {
			if ctx.Err() != nil {
				return last, nil
			}
			return nil, fmt.Errorf("draining cluster %q: asking AWS what is left: %w", d.Cluster, err)
		}
		arns = slices.DeleteFunc(slices.Clone(arns), spared)
		if len(arns) == 0 {
			return nil, nil
		}
		if !slices.Equal(arns, last) {
			d.log("waiting for %d AWS resources the add-on controllers are deleting: %s", len(arns), strings.Join(arns, ", "))
		}
		last = arns
		select {
		case <-ctx.Done():
			return last, nil
		case <-time.After(wait()):
		}
	}
}

func (d Drainer) log(format string, args ...any) {
	if d.Log != nil {
		d.Log(fmt.Sprintf(format, args...))
	}
}

func (d Drainer) warn(format string, args ...any) {
	if d.Warn == nil {
		d.log(format, args...)
		return
	}
	d.Warn(fmt.Sprintf(format, args...))
}

// backoff returns the successive waits between lists: 1 s (or max, when shorter), doubling up to max. Most
// deletes end within seconds (a Service's load balancer, a claim's volume); some take minutes (an instance).
func backoff(max time.Duration) func() time.Duration {
	next := min(time.Second, max)
	return func() time.Duration {
		w := next
		next = min(2*next, max)
		return w
	}
}
