package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/eks"
	"github.com/pulumi/pulumi/sdk/v3/go/auto"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/dynamic"

	"github.com/gitops-fleet/pulumi-fleet/components/awsconfig"
	"github.com/gitops-fleet/pulumi-fleet/components/gitopsbridge"
	"github.com/gitops-fleet/pulumi-fleet/provider/rollout"
	"github.com/gitops-fleet/pulumi-fleet/provider/status"
)

// rolloutOptions are fleet rollout's flags.
type rolloutOptions struct {
	dir, stack, revision, version, kubeconfig, failures string
	bake, timeout                                       time.Duration
	retry, preview                                      bool
	// set are the flags given on the command line: they win over the stack's rollout policy.
	set map[string]bool
}

// PolicyKey is the stack config key of the fleet's rollout policy: {"bake": "10m", "timeout": "20m", "failures":
// "25%"}, each optional; a flag given for one run wins over it.
const PolicyKey = "gitops-fleet:rolloutPolicy"

// rolloutPolicy is the stack config's rollout policy (PolicyKey).
type rolloutPolicy struct {
	Bake     string `json:"bake"`
	Timeout  string `json:"timeout"`
	Failures string `json:"failures"`
}

// withPolicy is o with the policy's settings where no flag was given; a setting not of its form is an error naming it.
func withPolicy(o rolloutOptions, p rolloutPolicy) (rolloutOptions, error) {
	var problems []string
	for _, d := range []struct {
		flag, value string
		into        *time.Duration
	}{{"bake", p.Bake, &o.bake}, {"timeout", p.Timeout, &o.timeout}} {
		if d.value == "" || o.set[d.flag] {
			continue
		}
		v, err := time.ParseDuration(d.value)
		if err != nil || v < 0 {
			problems = append(problems, fmt.Sprintf("%s.%s: %q is not a duration such as 10m", PolicyKey, d.flag, d.value))
			continue
		}
		*d.into = v
	}
	if p.Failures != "" && !o.set["failures"] {
		if _, err := threshold(p.Failures); err != nil {
			problems = append(problems, PolicyKey+"."+strings.TrimPrefix(err.Error(), "-"))
		} else {
			o.failures = p.Failures
		}
	}
	if len(problems) > 0 {
		return o, errors.New(strings.Join(problems, "; "))
	}
	return o, nil
}

// parseRollout reads fleet rollout's flags; errors and -h go to out.
func parseRollout(args []string, out io.Writer) (rolloutOptions, error) {
	var o rolloutOptions
	fs := flag.NewFlagSet("fleet rollout", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(&o.dir, "C", ".", "the fleet's Pulumi project directory")
	fs.StringVar(&o.stack, "stack", "", "the fleet's stack (required)")
	fs.StringVar(&o.revision, "revision", "", "the add-ons repository commit to roll out, a full SHA (this or -version)")
	fs.StringVar(&o.version, "version", "", "the Kubernetes minor version to roll out, 1.34: one above each cluster's (this or -revision)")
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "your kubeconfig file reaching the hub; default: the hub's endpoint and CA from EKS, with an EKS token of your AWS credentials")
	fs.DurationVar(&o.bake, "bake", 5*time.Minute, "how long each wave stays Synced and Healthy before the next starts (over the stack's "+PolicyKey+")")
	fs.DurationVar(&o.timeout, "timeout", 15*time.Minute, "how long a wave may take to be Synced and Healthy (over the stack's "+PolicyKey+")")
	fs.StringVar(&o.failures, "failures", "0", "how many clusters of a wave may fail before it fails: a number, or a share of the wave (25%) (over the stack's "+PolicyKey+")")
	fs.BoolVar(&o.retry, "retry", false, "run a rollout of this revision that failed once more")
	fs.BoolVar(&o.preview, "preview", false, "list the waves, their clusters and what each will change; change nothing")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	var problems []string
	if fs.NArg() > 0 {
		problems = append(problems, fmt.Sprintf("unexpected arguments %q", fs.Args()))
	}
	if o.stack == "" {
		problems = append(problems, "-stack is required")
	}
	switch {
	case (o.revision == "") == (o.version == ""):
		problems = append(problems, "give one of -revision (an add-ons commit) and -version (a Kubernetes version)")
	case o.revision != "" && !gitopsbridge.IsCommit(o.revision):
		problems = append(problems, fmt.Sprintf("-revision %q: want a full commit SHA of the add-ons repository", o.revision))
	case o.version != "" && !rollout.IsMinorVersion(o.version):
		problems = append(problems, fmt.Sprintf("-version %q: want a Kubernetes minor version such as 1.34", o.version))
	}
	if _, err := threshold(o.failures); err != nil {
		problems = append(problems, err.Error())
	}
	if len(problems) > 0 {
		err := errors.New(strings.Join(problems, "; "))
		fmt.Fprintln(out, "fleet rollout:", err)
		return o, err
	}
	return o, nil
}

// target is the field the options roll out and its value.
func (o rolloutOptions) target() (field, value string) {
	if o.version != "" {
		return rollout.KubernetesVersion, o.version
	}
	return rollout.AddonsRepoRevision, o.revision
}

// threshold is -failures as Options.FailureThreshold: a count ("1") or a share ("25%").
func threshold(s string) (intstr.IntOrString, error) {
	v := intstr.Parse(s)
	if _, err := intstr.GetScaledValueFromIntOrPercent(&v, 100, false); err != nil || v.IntValue() < 0 ||
		v.Type == intstr.String && !strings.HasSuffix(s, "%") {
		return v, fmt.Errorf("-failures %q: want a number of clusters (1) or a share of a wave (25%%)", s)
	}
	return v, nil
}

// runRollout previews or runs the rollout (rollout.Run) of the project's stack, gated by the hub's Argo CD.
func runRollout(ctx context.Context, o rolloutOptions, out io.Writer) error {
	st, err := auto.SelectStackLocalSource(ctx, o.stack, o.dir)
	if err != nil {
		return err
	}
	if v, err := st.GetConfig(ctx, PolicyKey); err == nil && v.Value != "" {
		var p rolloutPolicy
		if err := json.Unmarshal([]byte(v.Value), &p); err != nil {
			return fmt.Errorf("%s: %w", PolicyKey, err)
		}
		if o, err = withPolicy(o, p); err != nil {
			return err
		}
	}
	stack := rollout.AutoStack{Stack: st, Progress: out}
	field, value := o.target()
	if o.preview {
		clusters, _, err := stack.Clusters(ctx)
		if err != nil {
			return err
		}
		return rollout.WritePlan(out, rollout.Plan(clusters, field, value), field, value)
	}
	hub, namespace, err := hubOfStack(ctx, st)
	if err != nil {
		return err
	}
	eksOf := func(region string) (status.EKSAPI, error) {
		cfg, err := awsconfig.Load(ctx, region, "")
		if err != nil {
			return nil, err
		}
		return eks.NewFromConfig(cfg), nil
	}
	reach := status.EKSHub(eksOf)
	if o.kubeconfig != "" {
		data, err := os.ReadFile(o.kubeconfig)
		if err != nil {
			return err
		}
		reach = status.KubeconfigHub(string(data))
	}
	cfg, err := reach(ctx, hub)
	if err != nil {
		return err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	failures, _ := threshold(o.failures)
	rec, err := rollout.Run(ctx, stack, rollout.ArgoCD{Hub: dyn, Namespace: namespace}, rollout.Options{
		Field: field, Revision: value, EKS: rollout.StatusEKS{Client: eksOf}, Bake: o.bake, Timeout: o.timeout, FailureThreshold: failures, Retry: o.retry, Log: out})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s: every wave runs %s (the stack config's %s: %s)\n", o.stack, rec.Revision,
		rollout.RecordKey, rec.State)
	return err
}

// hubOfStack is the stack's hub cluster (role hub in its clusters output) and the namespace of its add-ons'
// Applications (gitopsbridge.ApplicationsNamespace of the hub's cluster secret namespace).
func hubOfStack(ctx context.Context, st auto.Stack) (status.Cluster, string, error) {
	outputs, err := st.Outputs(ctx)
	if err != nil {
		return status.Cluster{}, "", err
	}
	clusters, _ := outputs["clusters"].Value.(map[string]any)
	for name, v := range clusters {
		c, _ := v.(map[string]any)
		if c["role"] == "hub" {
			region, _ := c["region"].(string)
			ns, _ := c["secretNamespace"].(string)
			if ns == "" {
				ns = gitopsbridge.DefaultNamespace
			}
			return status.Cluster{Name: name, Region: region}, gitopsbridge.ApplicationsNamespace(ns, "addons"), nil
		}
	}
	return status.Cluster{}, "", fmt.Errorf("stack %s has no hub in its clusters output: roll out from the hub's stack", st.Name())
}
