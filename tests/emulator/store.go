package emulator

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
	// Scoped says that the ID is unique in its scope only (a Kubernetes object's "<namespace>/<name>" is per API
	// server): the record is kept per scope and ID.
	Scoped bool `json:"scoped,omitempty"`
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

// PlainState is a record's State from plain values (strings, numbers, bools, and lists and maps of them), for
// records put by hand.
func PlainState(values map[string]any) (json.RawMessage, error) {
	return encodeState(resource.FromResourcePropertyMap(resource.NewPropertyMapFromMap(values)))
}

// Store is the emulated cloud's contents: a directory with one JSON file per Record, shared by every plugin
// process of a run. A record is written to a temporary file and renamed into place, so readers never see half
// of one, and each operation costs the same however many records exist (a fleet of 45 clusters holds
// thousands). Counters, the only read-modify-write, hold an exclusive lock on the directory's ".lock" file.
type Store struct{ dir string }

// OpenStore returns the store in directory dir (created on first write).
func OpenStore(dir string) *Store { return &Store{dir: dir} }

// StoreFromEnv returns the store named by $FLEET_EMULATOR_STORE, or an error naming the variable.
func StoreFromEnv() (*Store, error) {
	dir := os.Getenv(StoreEnv)
	if dir == "" {
		return nil, fmt.Errorf("%s is not set: the emulator needs a store directory", StoreEnv)
	}
	return OpenStore(dir), nil
}

// List returns every record, ordered by URN, then type and ID.
func (s *Store) List() ([]Record, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".json" || e.Name()[0] == '.' {
			continue
		}
		rec, found, err := s.read(filepath.Join(s.dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if found && rec.Package != counterPackage {
			out = append(out, rec)
		}
	}
	slices.SortFunc(out, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.URN, b.URN), cmp.Compare(a.Type, b.Type), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Get returns the record of pkg, typ and id, if it exists.
func (s *Store) Get(pkg, typ, id string) (Record, bool, error) {
	return s.read(s.file(pkg, typ, id))
}

// Put adds rec or replaces the record with the same package, type and ID.
func (s *Store) Put(rec Record) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".put-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), s.file(rec.Package, rec.Type, key(rec.Scoped, rec.Scope, rec.ID)))
}

// key is the store key of an ID: the ID, or for a scoped record its scope and ID.
func key(scoped bool, scope, id string) string {
	if !scoped {
		return id
	}
	return scope + "\x00" + id
}

// GetIn returns the scoped record of pkg, typ and id in scope, if it exists.
func (s *Store) GetIn(pkg, typ, scope, id string) (Record, bool, error) {
	return s.read(s.file(pkg, typ, key(true, scope, id)))
}

// DeleteIn removes the scoped record of pkg, typ and id in scope and reports whether there was one.
func (s *Store) DeleteIn(pkg, typ, scope, id string) (bool, error) {
	return s.Delete(pkg, typ, key(true, scope, id))
}

// Delete removes the record of pkg, typ and id and reports whether there was one.
func (s *Store) Delete(pkg, typ, id string) (found bool, err error) {
	err = os.Remove(s.file(pkg, typ, id))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// counterPackage is the package of the records that keep counters; List leaves them out.
const counterPackage = "counter"

// Next returns the next value of a named counter kept in the store (1, 2, ...): pull request numbers.
func (s *Store) Next(counter string) (int, error) {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return 0, err
	}
	lock, err := os.OpenFile(filepath.Join(s.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return 0, err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return 0, err
	}
	defer func() { _ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) }()

	n := 0
	rec, found, err := s.Get(counterPackage, counterPackage, counter)
	if err != nil {
		return 0, err
	}
	if found {
		if err := json.Unmarshal(rec.State, &n); err != nil {
			return 0, fmt.Errorf("counter %s: %w", counter, err)
		}
	}
	n++
	state, _ := json.Marshal(n)
	return n, s.Put(Record{Package: counterPackage, Type: counterPackage, ID: counter, State: state})
}

// file is where the record of pkg, typ and id lives: its key hashed, since IDs hold any character.
func (s *Store) file(pkg, typ, id string) string {
	sum := sha256.Sum256([]byte(pkg + "\x00" + typ + "\x00" + id))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:16])+".json")
}

func (s *Store) read(path string) (Record, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, err
	}
	var rec Record
	if err := json.Unmarshal(data, &rec); err != nil {
		return Record{}, false, fmt.Errorf("store record %s: %w", path, err)
	}
	return rec, true, nil
}
