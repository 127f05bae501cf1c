package emulator

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

func TestStoreKeepsRecordsAndSecrets(t *testing.T) {
	s := OpenStore(filepath.Join(t.TempDir(), "cloud"))
	state, err := encodeState(property.NewMap(map[string]property.Value{
		"name":  property.New("hub"),
		"token": property.New("s3cret").WithSecret(true),
	}))
	if err != nil {
		t.Fatal(err)
	}
	rec := Record{Package: "aws", Type: "aws:iam/role:Role", URN: "urn:x", ID: "hub", Scope: "us-east-1", State: state}
	if err := s.Put(rec); err != nil {
		t.Fatal(err)
	}
	got, ok, err := s.Get("aws", "aws:iam/role:Role", "hub")
	if err != nil || !ok || got.Scope != "us-east-1" {
		t.Fatalf("Get = %+v, %v, %v", got, ok, err)
	}
	props, err := got.Properties()
	if err != nil {
		t.Fatal(err)
	}
	if v := props.Get("token"); !v.Secret() || v.AsString() != "s3cret" {
		t.Errorf("token = %#v, want the secret back", v)
	}
	if plain, _ := got.Plain(); plain["token"] != "s3cret" {
		t.Errorf("Plain token = %v", plain["token"])
	}
	if found, err := s.Delete("aws", "aws:iam/role:Role", "hub"); err != nil || !found {
		t.Fatalf("Delete = %v, %v; want the record found and removed", found, err)
	}
	if found, err := s.Delete("aws", "aws:iam/role:Role", "hub"); err != nil || found {
		t.Errorf("deleting a missing record = %v, %v; want not found, no error", found, err)
	}
	if all, _ := s.List(); len(all) != 0 {
		t.Errorf("List after delete = %v", all)
	}
}

func TestStoreCounters(t *testing.T) {
	s := OpenStore(filepath.Join(t.TempDir(), "cloud"))
	for want := 1; want <= 3; want++ {
		if n, err := s.Next("pull/o/r"); err != nil || n != want {
			t.Fatalf("Next = %d, %v; want %d", n, err, want)
		}
	}
	if n, _ := s.Next("pull/o/other"); n != 1 {
		t.Errorf("another counter starts at %d, want 1", n)
	}
}

func TestStoreListsRecordsInURNOrderWithoutCounters(t *testing.T) {
	s := OpenStore(filepath.Join(t.TempDir(), "cloud"))
	if all, err := s.List(); err != nil || len(all) != 0 {
		t.Fatalf("List of a store never written = %v, %v; want empty, no error", all, err)
	}
	for _, urn := range []string{"urn:b", "urn:a"} {
		if err := s.Put(Record{Package: "aws", Type: "aws:ec2/vpc:Vpc", URN: urn, ID: urn + "-id", State: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Next("pull/o/r"); err != nil {
		t.Fatal(err)
	}
	all, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var urns []string
	for _, r := range all {
		urns = append(urns, r.URN)
	}
	if want := []string{"urn:a", "urn:b"}; !slices.Equal(urns, want) {
		t.Errorf("List URNs = %v, want %v (sorted, counters left out)", urns, want)
	}
}

// TestScopedRecords: a scoped ID is per scope (two API servers' "payments" namespaces), an unscoped one global.
func TestScopedRecords(t *testing.T) {
	s := OpenStore(t.TempDir())
	for _, scope := range []string{"https://spoke-a", "https://spoke-b"} {
		if err := s.Put(Record{Package: "kubernetes", Type: "ns", ID: "payments", Scope: scope, Scoped: true}); err != nil {
			t.Fatal(err)
		}
	}
	if all, _ := s.List(); len(all) != 2 {
		t.Fatalf("%d records, want one per scope", len(all))
	}
	if found, _ := s.DeleteIn("kubernetes", "ns", "https://spoke-b", "payments"); !found {
		t.Fatal("spoke-b's record not found")
	}
	if rec, ok, _ := s.GetIn("kubernetes", "ns", "https://spoke-a", "payments"); !ok || rec.Scope != "https://spoke-a" {
		t.Errorf("deleting spoke-b's record touched spoke-a's: %v %v", rec, ok)
	}
}
