package preflight

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Checks preflight makes, in the order it reports them.
const (
	CheckPermissions  = "permissions"
	CheckQuotas       = "quotas"
	CheckVersions     = "versions"
	CheckCapabilities = "capabilities"
)

// Level is how much a finding matters.
type Level string

const (
	// Fail: the plan's `pulumi up` would fail at this step, or make what it cannot.
	Fail Level = "fail"
	// Warn: the up goes through, at a cost or a margin the deployer should know of.
	Warn Level = "warn"
	// Unknown: the check could not be made (the deployer may not call the API that answers it); not a pass.
	Unknown Level = "unknown"
)

// Finding is one thing preflight found.
type Finding struct {
	// Check is CheckPermissions, CheckQuotas, CheckVersions or CheckCapabilities.
	Check string `json:"check"`
	Level Level  `json:"level"`
	// Region is the AWS region it is in; "" for the account (IAM).
	Region string `json:"region,omitempty"`
	// Subject is what it is about: an IAM action, a quota, a Kubernetes version, a capability.
	Subject string `json:"subject"`
	Message string `json:"message"`
}

// Report is what preflight found of a plan.
type Report struct {
	// Deployer is the identity the checks were made as (sts:GetCallerIdentity), and the account.
	Deployer string `json:"deployer"`
	Account  string `json:"account"`
	// Steps counts the plan's creates, updates and deletes; Regions are the regions they are in.
	Steps   int      `json:"steps"`
	Regions []string `json:"regions"`
	// Findings are every finding, failures first, then warnings and unknowns, each by check.
	Findings []Finding `json:"findings"`
	// Passed says what each check found in order, one line each.
	Passed []string `json:"passed"`
}

func (r *Report) add(f Finding) { r.Findings = append(r.Findings, f) }

func (r *Report) pass(check, what string) { r.Passed = append(r.Passed, check+": "+what) }

// Failed says whether a finding fails the preflight.
func (r Report) Failed() bool {
	return slices.ContainsFunc(r.Findings, func(f Finding) bool { return f.Level == Fail })
}

// Count is how many findings are at level.
func (r Report) Count(level Level) int {
	n := 0
	for _, f := range r.Findings {
		if f.Level == level {
			n++
		}
	}
	return n
}

// sort orders the findings: failures, warnings, unknowns; by check, region and subject within a level.
func (r *Report) sort() {
	rank := map[Level]int{Fail: 0, Warn: 1, Unknown: 2}
	checks := []string{CheckPermissions, CheckQuotas, CheckVersions, CheckCapabilities}
	slices.SortStableFunc(r.Findings, func(a, b Finding) int {
		if d := rank[a.Level] - rank[b.Level]; d != 0 {
			return d
		}
		if d := slices.Index(checks, a.Check) - slices.Index(checks, b.Check); d != 0 {
			return d
		}
		return strings.Compare(a.Region+a.Subject, b.Region+b.Subject)
	})
}

// Table writes r for a terminal: a summary line, each finding, then what passed.
func Table(w io.Writer, r Report) error {
	fmt.Fprintf(w, "preflight of %d steps in %s as %s (account %s): %d failed, %d warnings, %d unknown\n",
		r.Steps, strings.Join(r.Regions, ", "), r.Deployer, r.Account, r.Count(Fail), r.Count(Warn), r.Count(Unknown))
	if len(r.Findings) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "\nLEVEL\tCHECK\tREGION\tSUBJECT\tFINDING")
		for _, f := range r.Findings {
			region := f.Region
			if region == "" {
				region = "-"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", strings.ToUpper(string(f.Level)), f.Check, region, f.Subject, f.Message)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(r.Passed) > 0 {
		fmt.Fprintln(w, "\npassed:")
		for _, p := range r.Passed {
			fmt.Fprintln(w, "  "+p)
		}
	}
	return nil
}

// JSON writes r as indented JSON.
func JSON(w io.Writer, r Report) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(r)
}
