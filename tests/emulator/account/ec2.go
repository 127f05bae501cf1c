package account

import (
	"encoding/xml"
	"net/http"
	"slices"
	"strconv"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

const ec2Namespace = "http://ec2.amazonaws.com/doc/2016-11-15/"

// ec2 answers EC2's query API in region from the store's records there: DescribeVpcs, DescribeAddresses,
// DescribeNatGateways (every emulated gateway is available) and DescribeSubnets (by SubnetId.N). Filters are not
// applied: every emulated address is in a VPC, every gateway available.
func (a *API) ec2(w http.ResponseWriter, r *http.Request, region string) {
	if err := r.ParseForm(); err != nil {
		ec2Error(w, http.StatusBadRequest, "InvalidParameterValue", err.Error())
		return
	}
	action := r.PostForm.Get("Action")
	type item struct {
		VpcID        string `xml:"vpcId,omitempty"`
		SubnetID     string `xml:"subnetId,omitempty"`
		AllocationID string `xml:"allocationId,omitempty"`
		PublicIP     string `xml:"publicIp,omitempty"`
		Domain       string `xml:"domain,omitempty"`
		NatGatewayID string `xml:"natGatewayId,omitempty"`
		State        string `xml:"state,omitempty"`
		Zone         string `xml:"availabilityZone,omitempty"`
		CIDR         string `xml:"cidrBlock,omitempty"`
	}
	types := map[string]string{"DescribeVpcs": "aws:ec2/vpc:Vpc", "DescribeAddresses": "aws:ec2/eip:Eip",
		"DescribeNatGateways": "aws:ec2/natGateway:NatGateway", "DescribeSubnets": "aws:ec2/subnet:Subnet"}
	typ, ok := types[action]
	if !ok {
		ec2Error(w, http.StatusBadRequest, "InvalidAction", "offline cloud: EC2 serves DescribeVpcs, DescribeAddresses, DescribeNatGateways and DescribeSubnets only, not "+action)
		return
	}
	var ids []string // EC2's query lists are flat: SubnetId.1, SubnetId.2, ...
	for i := 1; r.PostForm.Has("SubnetId." + strconv.Itoa(i)); i++ {
		ids = append(ids, r.PostForm.Get("SubnetId."+strconv.Itoa(i)))
	}
	records, err := a.store.List()
	if err != nil {
		ec2Error(w, http.StatusInternalServerError, "InternalError", err.Error())
		return
	}
	var items []item
	for _, rec := range records {
		if rec.Type != typ || rec.Scope != region || typ == "aws:ec2/subnet:Subnet" && len(ids) > 0 && !slices.Contains(ids, rec.ID) {
			continue
		}
		state, err := rec.Plain()
		if err != nil {
			continue
		}
		s := func(k string) string { v, _ := state[k].(string); return v }
		switch typ {
		case "aws:ec2/vpc:Vpc":
			items = append(items, item{VpcID: rec.ID, CIDR: s("cidrBlock"), State: "available"})
		case "aws:ec2/eip:Eip":
			items = append(items, item{AllocationID: rec.ID, PublicIP: s("publicIp"), Domain: "vpc"})
		case "aws:ec2/natGateway:NatGateway":
			items = append(items, item{NatGatewayID: rec.ID, SubnetID: s("subnetId"), State: "available"})
		case "aws:ec2/subnet:Subnet":
			items = append(items, item{SubnetID: rec.ID, VpcID: s("vpcId"), Zone: s("availabilityZone"), CIDR: s("cidrBlock")})
		}
	}
	set := map[string]string{"DescribeVpcs": "vpcSet", "DescribeAddresses": "addressesSet",
		"DescribeNatGateways": "natGatewaySet", "DescribeSubnets": "subnetSet"}[action]
	type response struct {
		XMLName   xml.Name
		Xmlns     string `xml:"xmlns,attr"`
		RequestID string `xml:"requestId"`
		Set       struct {
			XMLName xml.Name
			Items   []item `xml:"item"`
		}
	}
	out := response{XMLName: xml.Name{Local: action + "Response"}, Xmlns: ec2Namespace, RequestID: emulator.UUID()}
	out.Set.XMLName, out.Set.Items = xml.Name{Local: set}, items
	queryReply(w, out)
}

// ec2Error writes EC2's query error (Response/Errors/Error with Code and Message).
func ec2Error(w http.ResponseWriter, status int, code, msg string) {
	writeXML(w, status, struct {
		XMLName xml.Name `xml:"Response"`
		Errors  []struct {
			Code, Message string
		} `xml:"Errors>Error"`
		RequestID string `xml:"RequestID"`
	}{Errors: []struct{ Code, Message string }{{code, msg}}, RequestID: emulator.UUID()})
}
