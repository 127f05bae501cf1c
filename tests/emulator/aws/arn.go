package aws

import (
	"fmt"
	"strings"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// Account is the AWS account of everything the emulator creates: the example account of AWS's documentation.
const Account = "111122223333"

// module and resource of a type token: "aws:iam/role:Role" -> "iam", "role".
func parts(typ string) (module, resource string) {
	mod, _, _ := strings.Cut(strings.TrimPrefix(typ, "aws:"), ":")
	module, resource, _ = strings.Cut(mod, "/")
	return module, resource
}

// ARN is the ARN of a regional resource: arn:aws:<service>:<region>:<account>:<resource>.
func ARN(service, region, resource string) string {
	return fmt.Sprintf("arn:aws:%s:%s:%s:%s", service, region, Account, resource)
}

// iamARN is the ARN of an IAM entity: arn:aws:iam::<account>:<kind><path><name>.
func iamARN(kind, path, name string) string {
	if path == "" {
		path = "/"
	}
	return fmt.Sprintf("arn:aws:iam::%s:%s%s%s", Account, kind, path, name)
}

// ec2Prefix is the ID prefix EC2 gives a resource type.
var ec2Prefix = map[string]string{
	"vpc": "vpc", "subnet": "subnet", "securityGroup": "sg", "securityGroupRule": "sgr", "internetGateway": "igw",
	"natGateway": "nat", "eip": "eipalloc", "routeTable": "rtb", "routeTableAssociation": "rtbassoc",
	"route": "r", "launchTemplate": "lt", "vpcSecurityGroupIngressRule": "sgr", "vpcSecurityGroupEgressRule": "sgr",
}

// ec2ARNKind is the resource part of an EC2 ARN.
var ec2ARNKind = map[string]string{
	"vpc": "vpc", "subnet": "subnet", "securityGroup": "security-group", "internetGateway": "internet-gateway",
	"natGateway": "natgateway", "eip": "elastic-ip", "routeTable": "route-table", "launchTemplate": "launch-template",
	"securityGroupRule": "security-group-rule",
}

func ec2ID(resource string) string {
	prefix := ec2Prefix[resource]
	if prefix == "" {
		prefix = strings.ToLower(resource)
	}
	return prefix + "-" + emulator.RandomHex(9)[:17]
}
