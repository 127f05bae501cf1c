package addons

import "fmt"

// arn builds arn:<partition>:<service>:<region>:<account>:<resource>.
func (c PolicyContext) arn(service, region, account, resource string) string {
	return fmt.Sprintf("arn:%s:%s:%s:%s:%s", c.Partition, service, region, account, resource)
}

// regional is an ARN in the context's region and account.
func (c PolicyContext) regional(service, resource string) string {
	return c.arn(service, c.Region, c.AccountID, resource)
}

// hostedZones are the ARNs of the context's Route 53 hosted zones.
func (c PolicyContext) hostedZones() []string {
	var out []string
	for _, id := range c.HostedZoneIDs {
		out = append(out, c.arn("route53", "", "", "hostedzone/"+id))
	}
	return out
}

// dnsSuffix is the partition's DNS suffix (AWS general reference, partitions): amazonaws.com.cn in the China
// partition, amazonaws.com elsewhere.
func (c PolicyContext) dnsSuffix() string {
	if c.Partition == "aws-cn" {
		return "amazonaws.com.cn"
	}
	return "amazonaws.com"
}
