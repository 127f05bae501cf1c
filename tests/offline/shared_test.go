package offline

import "testing"

func TestSharedEndpoint(t *testing.T) {
	const eks = "https://0A1B2C3D.gr7.us-east-1.eks.amazonaws.com"
	for _, tc := range []struct {
		endpoint, label, want string
		wantErr               bool
	}{
		{endpoint: eks, label: "spoke-001-x007", want: "https://shared-spoke-001-x007.0A1B2C3D.gr7.us-east-1.eks.amazonaws.com"},
		{endpoint: eks + "/", label: "a", want: "https://shared-a.0A1B2C3D.gr7.us-east-1.eks.amazonaws.com"},
		{endpoint: "http://0A1B2C3D.gr7.us-east-1.eks.amazonaws.com", label: "a", wantErr: true},
		{endpoint: eks + "/api", label: "a", wantErr: true},
		{endpoint: eks, label: "", wantErr: true},
		{endpoint: eks, label: "Upper", wantErr: true},
		{endpoint: eks, label: "-a", wantErr: true},
		{endpoint: eks, label: "a.b", wantErr: true},
		{endpoint: eks, label: "a234567890123456789012345678901234567890123456789012345678", wantErr: true},
	} {
		got, err := SharedEndpoint(tc.endpoint, tc.label)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("SharedEndpoint(%q, %q) = %q, %v; want %q (error %v)", tc.endpoint, tc.label, got, err, tc.want, tc.wantErr)
			continue
		}
		if err == nil {
			if back := sharedOf(got); back != "https://0A1B2C3D.gr7.us-east-1.eks.amazonaws.com" {
				t.Errorf("sharedOf(%q) = %q, want the cluster's own endpoint", got, back)
			}
		}
	}
	// Every other endpoint is its own.
	for _, e := range []string{eks, "https://shared-x", "https://sts.us-east-1.amazonaws.com"} {
		if got := sharedOf(e); got != e {
			t.Errorf("sharedOf(%q) = %q, want it unchanged", e, got)
		}
	}
}
