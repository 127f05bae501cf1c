package preflight

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/gitops-fleet/pulumi-fleet/components/iampolicy"
)

// Policy is an identity policy allowing every action the plan needs, one statement per service, on every resource:
// what `fleet preflight -policy` writes, for a deployer's role. An account that scopes its deployers by resource
// narrows it (docs/aws.md says which resources the fleet names), and preflight then simulates the narrowed role on
// the resources the plan names.
func (p Plan) Policy() iampolicy.Document {
	needed, _ := p.Needed()
	byService := map[string][]string{}
	for action := range needed {
		service, _, _ := strings.Cut(action, ":")
		byService[service] = append(byService[service], action)
	}
	var statements []iampolicy.Statement
	for _, service := range slices.Sorted(maps.Keys(byService)) {
		actions := byService[service]
		slices.Sort(actions)
		sid := []rune("Fleet" + service)
		sid[5] = unicode.ToUpper(sid[5])
		statements = append(statements, iampolicy.Allow(string(sid), actions, []string{"*"}))
	}
	return iampolicy.New(statements...)
}
