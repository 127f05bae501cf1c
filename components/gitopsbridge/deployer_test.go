package gitopsbridge

import "testing"

func TestDeployerUsername(t *testing.T) {
	for arn, want := range map[string]string{
		"arn:aws:iam::111122223333:user/ci":                          "arn:aws:iam::111122223333:user/ci",
		"arn:aws:sts::111122223333:assumed-role/deployer/ci-run-42":  "arn:aws:sts::111122223333:assumed-role/deployer/{{SessionName}}",
		"arn:aws-cn:sts::111122223333:assumed-role/deployer/session": "arn:aws-cn:sts::111122223333:assumed-role/deployer/{{SessionName}}",
		"arn:aws:iam::111122223333:root":                             "arn:aws:iam::111122223333:root",
	} {
		if got := DeployerUsername(arn); got != want {
			t.Errorf("DeployerUsername(%q) = %q, want %q", arn, got, want)
		}
	}
}
