package admission

import "strings"

// MastersGroup is Kubernetes' superuser group: its members bypass authorization and may delete any guard itself, so
// a guard exempts them rather than pretend to bind them (on EKS no one is in it unless aws-auth maps someone there,
// which FleetCluster refuses; kwokctl's kube-controller-manager runs in it).
const MastersGroup = "system:masters"

// SystemDeleters are the Kubernetes usernames that delete objects for the API itself: kube-controller-manager's
// namespace controller (a deleted namespace's objects) and garbage collector (which also takes the
// foregroundDeletion finalizer off an object being deleted), as their own service accounts
// (--use-service-account-credentials) or as the controller manager.
var SystemDeleters = []string{
	"system:serviceaccount:kube-system:namespace-controller",
	"system:serviceaccount:kube-system:generic-garbage-collector",
	"system:kube-controller-manager",
}

// SessionNameTemplate ends the EKS username of an assumed role's session ({{SessionName}}): any session of the role.
const SessionNameTemplate = "{{SessionName}}"

// Exemptions are who a guard lets through unchecked, one typed set for every guard, rendered once (Variables): the
// deployer (the identity that runs the stack), the members of MastersGroup, SystemDeleters deleting or finishing a
// deletion, and named writers. A guard with no exemption binds every writer.
type Exemptions struct {
	// Deployer is the EKS username of the stack's AWS caller (an IAM user's ARN, or an assumed role's
	// arn:aws:sts::<account>:assumed-role/<role>/{{SessionName}}, any session of it); "" exempts no one.
	Deployer string
	// Masters exempts MastersGroup.
	Masters bool
	// SystemDeleters exempts SystemDeleters on a DELETE, and on a write of an object being deleted.
	SystemDeleters bool
	// EKS exempts EKS's own identities, whose usernames start with EKSUserPrefix (the managed add-ons' installer,
	// eks:addon-manager, writes their RBAC).
	EKS bool
	// Writers are usernames that may write what the guard names for them (the variable writer); they are not
	// exempt from the rest.
	Writers []string
	// DeletionsOnly says the guard reads exempt on a DELETE only: it binds every writer's CREATE and UPDATE, the
	// deployer's too (what docs/security.md's table says of it; the variables are the same).
	DeletionsOnly bool
}

// EKSUserPrefix begins the Kubernetes usernames of EKS's own control-plane components ("eks:addon-manager",
// "eks:node-manager"): the prefix is reserved to EKS, which refuses it in access entries and aws-auth.
const EKSUserPrefix = "eks:"

// Variables are the exemptions as CEL variables, in order: deployer (the request is the deployer's), writer (one of
// Writers), system (MastersGroup, EKS's own identities, or SystemDeleters at a deletion) and exempt (deployer or
// system).
func (e Exemptions) Variables() []Variable {
	writers, _ := Literal(e.Writers)
	if len(e.Writers) == 0 {
		writers = "[]"
	}
	var system []string
	if e.SystemDeleters {
		deleters, _ := Literal(SystemDeleters)
		system = append(system, "(request.userInfo.username in "+deleters+
			" && (request.operation == 'DELETE' || has(object.metadata.deletionTimestamp)))")
	}
	if e.Masters {
		system = append(system, String(MastersGroup)+" in request.userInfo.groups")
	}
	if e.EKS {
		system = append(system, "request.userInfo.username.startsWith("+String(EKSUserPrefix)+")")
	}
	if len(system) == 0 {
		system = []string{"false"}
	}
	return []Variable{
		{Name: "deployer", Expression: UsernameMatch(e.Deployer)},
		{Name: "writer", Expression: "request.userInfo.username in " + writers},
		{Name: "system", Expression: strings.Join(system, " || ")},
		{Name: "exempt", Expression: "variables.deployer || variables.system"},
	}
}

// UsernameMatch is a CEL test of the request's username against an EKS username: exact, or, for an assumed role's
// username ending in SessionNameTemplate, any session of that role; false for "" (no one).
func UsernameMatch(username string) string {
	if username == "" {
		return "false"
	}
	if prefix, ok := strings.CutSuffix(username, SessionNameTemplate); ok {
		return "request.userInfo.username.startsWith(" + String(prefix) + ")"
	}
	return "request.userInfo.username == " + String(username)
}
