package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// StoreEnv names the environment variable that holds the store's path.
const StoreEnv = "FLEET_EMULATOR_STORE"

// Record is one resource that exists in the emulated cloud.
type Record struct {
	// Package is the emulating plugin: aws, kubernetes, github.
	Package string `json:"package"`
	// Type is the Pulumi type token, for example aws:iam/role:Role.
	Type string `json:"type"`
	// URN is the URN of the resource that created it.
	URN string `json:"urn"`
	// ID is the provider ID.
	ID string `json:"id"`
	// Scope is where it lives: the AWS region, the Kubernetes API server URL or the GitHub owner.
	Scope string `json:"scope"`
	// State is the resource's outputs in the Pulumi wire format (secrets keep their signature).
	State json.RawMessage `json:"state"`
}

// Properties decodes the record's state.
func (r Record) Properties() (property.Map, error) {
	var s structpb.Struct
	if err := protojson.Unmarshal(r.State, &s); err != nil {
		return property.Map{}, fmt.Errorf("record %s: %w", r.URN, err)
	}
	pm, err := plugin.UnmarshalProperties(&s, plugin.MarshalOptions{KeepSecrets: true, KeepResources: true})
	if err != nil {
		return property.Map{}, err
	}
	return resource.FromResourcePropertyMap(pm), nil
}

// Plain is the record's state as plain Go values, secrets revealed.
func (r Record) Plain() (map[string]any, error) {
	m, err := r.Properties()
	if err != nil {
		return nil, err
	}
	return resource.ToResourcePropertyMap(m).MapRepl(nil, func(v resource.PropertyValue) (any, bool) {
		if v.IsSecret() {
			return v.SecretValue().Element.Mappable(), true
		}
		return nil, false
	}), nil
}

func encodeState(m property.Map) (json.RawMessage, error) {
	s, err := plugin.MarshalProperties(resource.ToResourcePropertyMap(m),
		plugin.MarshalOptions{KeepSecrets: true, KeepResources: true})
	if err != nil {
		return nil, err
	}
	return protojson.Marshal(s)
}

// Store is the emulated cloud's contents: a JSON array of Records in one file, shared by every plugin process
// of a run. Each operation takes an exclusive lock on path+".lock", reads, changes and writes the whole file.
type Store struct{ path string }

// OpenStore returns the store at path (created on first write).
func OpenStore(path string) *Store { return &Store{path: path} }

// StoreFromEnv returns the store named by $FLEET_EMULATOR_STORE, or an error naming the variable.
func StoreFromEnv() (*Store, error) {
	path := os.Getenv(StoreEnv)
	if path == "" {
		return nil, fmt.Errorf("%s is not set: the emulator needs a store file", StoreEnv)
	}
	return OpenStore(path), nil
}

// List returns every record.
func (s *Store) List() ([]Record, error) {
	var out []Record
	err := s.locked(false, func(recs *[]Record) error {
		out = slices.Clone(*recs)
		return nil
	})
	return out, err
}

// Get returns the record of pkg and id, if it exists.
func (s *Store) Get(pkg, typ, id string) (Record, bool, error) {
	var rec Record
	var found bool
	err := s.locked(false, func(recs *[]Record) error {
		i := index(*recs, pkg, typ, id)
		if found = i >= 0; found {
			rec = (*recs)[i]
		}
		return nil
	})
	return rec, found, err
}

// Put adds rec or replaces the record with the same package, type and ID.
func (s *Store) Put(rec Record) error {
	return s.locked(true, func(recs *[]Record) error {
		if i := index(*recs, rec.Package, rec.Type, rec.ID); i >= 0 {
			(*recs)[i] = rec
			return nil
		}
		*recs = append(*recs, rec)
		return nil
	})
}

// Delete removes the record of pkg, typ and id and reports whether there was one.
func (s *Store) Delete(pkg, typ, id string) (found bool, err error) {
	err = s.locked(true, func(recs *[]Record) error {
		i := index(*recs, pkg, typ, id)
		if found = i >= 0; found {
			*recs = slices.Delete(*recs, i, i+1)
		}
		return nil
	})
	return found, err
}

// Next returns the next value of a named counter kept in the store (1, 2, ...): pull request numbers.
func (s *Store) Next(counter string) (int, error) {
	n := 0
	err := s.locked(true, func(recs *[]Record) error {
		for _, r := range *recs {
			if r.Package == "counter" && r.ID == counter {
				_ = json.Unmarshal(r.State, &n)
			}
		}
		n++
		state, _ := json.Marshal(n)
		rec := Record{Package: "counter", Type: "counter", ID: counter, State: state}
		if i := index(*recs, rec.Package, rec.Type, rec.ID); i >= 0 {
			(*recs)[i] = rec
		} else {
			*recs = append(*recs, rec)
		}
		return nil
	})
	return n, err
}

func index(recs []Record, pkg, typ, id string) int {
	return slices.IndexFunc(recs, func(r Record) bool { return r.Package == pkg && r.Type == typ && r.ID == id })
}

func (s *Store) locked(write bool, f func(*[]Record) error) (err error) {
	lock, err := os.OpenFile(s.path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	how := syscall.LOCK_SH
	if write {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(lock.Fd()), how); err != nil {
		return err
	}
	defer func() { _ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) }()

	var recs []Record
	data, err := os.ReadFile(s.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	case len(data) > 0:
		if err := json.Unmarshal(data, &recs); err != nil {
			return fmt.Errorf("store %s: %w", s.path, err)
		}
	}
	if err := f(&recs); err != nil || !write {
		return err
	}
	if recs == nil {
		recs = []Record{}
	}
	out, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return err
	}
	tmp := s.path + ".tmp"
	if err := os.WriteFile(tmp, out, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, s.path)
}
