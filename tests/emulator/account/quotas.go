package account

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// defaults are AWS's default values of the quotas the offline Service Quotas knows (Amazon VPC quotas; Amazon EC2
// Elastic IP addresses; Amazon EKS service quotas), with their names.
var defaults = map[string]struct {
	service, name string
	value         float64
}{
	"L-F678F1CE": {"vpc", "VPCs per Region", 5},
	"L-FE5A380F": {"vpc", "NAT gateways per Availability Zone", 5},
	"L-0263D0A3": {"ec2", "EC2-VPC Elastic IPs", 5},
	"L-1194D53C": {"eks", "Clusters", 100},
}

// quotas answers Service Quotas' JSON 1.1 API in region: GetServiceQuota (the applied value, NoSuchResourceException
// where none was applied, as for an account that never asked for an increase) and GetAWSDefaultServiceQuota.
func (a *API) quotas(w http.ResponseWriter, r *http.Request, region string) {
	var in struct{ ServiceCode, QuotaCode string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		jsonError(w, http.StatusBadRequest, "IllegalArgumentException", err.Error())
		return
	}
	d, ok := defaults[in.QuotaCode]
	if !ok || d.service != in.ServiceCode {
		jsonError(w, http.StatusBadRequest, "NoSuchResourceException", fmt.Sprintf("offline cloud: no quota %s of service %s", in.QuotaCode, in.ServiceCode))
		return
	}
	value := d.value
	switch target := r.Header.Get("X-Amz-Target"); target {
	case "ServiceQuotasV20190624.GetServiceQuota":
		applied, ok := a.applied[region+"/"+in.QuotaCode]
		if !ok {
			jsonError(w, http.StatusBadRequest, "NoSuchResourceException", "The request failed because the specified quota has no applied value.")
			return
		}
		value = applied
	case "ServiceQuotasV20190624.GetAWSDefaultServiceQuota":
	default:
		jsonError(w, http.StatusBadRequest, "UnknownOperationException", "offline cloud: Service Quotas serves GetServiceQuota and GetAWSDefaultServiceQuota only, not "+target)
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	_ = json.NewEncoder(w).Encode(map[string]any{"Quota": map[string]any{"ServiceCode": in.ServiceCode, "QuotaCode": in.QuotaCode,
		"QuotaName": d.name, "Value": value, "Adjustable": true, "GlobalQuota": false,
		"QuotaArn": fmt.Sprintf("arn:aws:servicequotas:%s::%s/%s", region, in.ServiceCode, in.QuotaCode)}})
}

func jsonError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/x-amz-json-1.1")
	w.Header().Set("X-Amzn-ErrorType", code)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"__type": code, "message": msg})
}
