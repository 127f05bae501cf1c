package iampolicy

import "testing"

func TestJSON(t *testing.T) {
	cases := map[string]struct {
		reason string
		doc    Document
		want   string
	}{
		"allow": {
			reason: "fields in IAM's order, empty optional fields left out",
			doc:    New(Allow("Read", []string{"s3:GetObject"}, []string{"arn:aws:s3:::b/*"})),
			want: `{"Version":"2012-10-17","Statement":[{"Sid":"Read","Effect":"Allow","Action":["s3:GetObject"],` +
				`"Resource":["arn:aws:s3:::b/*"]}]}`,
		},
		"trust with conditions": {
			reason: "condition keys are sorted, so the text never changes between runs",
			doc: New(Trust(map[string]string{"Service": "pods.eks.amazonaws.com"}, "sts:AssumeRole").
				When("StringEquals", "b", "2").When("StringEquals", "a", "1").When("ArnLike", "c", "3")),
			want: `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"pods.eks.amazonaws.com"},` +
				`"Action":["sts:AssumeRole"],"Condition":{"ArnLike":{"c":"3"},"StringEquals":{"a":"1","b":"2"}}}]}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.doc.JSON(); got != tc.want {
				t.Errorf("%s:\n got %s\nwant %s", tc.reason, got, tc.want)
			}
		})
	}
}

func TestWhenDoesNotAlias(t *testing.T) {
	base := Allow("A", []string{"x:Y"}, []string{"*"}).When("StringEquals", "k", "v")
	_ = base.When("StringEquals", "other", "w")
	if len(base.Condition["StringEquals"]) != 1 {
		t.Errorf("When changed the statement it was called on: %v", base.Condition)
	}
}
