package emulator

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sync"

	p "github.com/pulumi/pulumi-go-provider"
	"github.com/pulumi/pulumi/sdk/v3/go/property"
)

// New returns the plugin of s. Every provider instance (one process per configured provider) reads and
// writes the shared store from $FLEET_EMULATOR_STORE.
func New(s Service) p.Provider {
	e := &emulator{svc: s}
	e.store, e.storeErr = StoreFromEnv()
	return p.Provider{
		GetSchema: func(context.Context, p.GetSchemaRequest) (p.GetSchemaResponse, error) {
			return p.GetSchemaResponse{Schema: fmt.Sprintf(`{"name":%q,"version":%q}`, s.Package, s.Version)}, nil
		},
		CheckConfig: func(_ context.Context, req p.CheckRequest) (p.CheckResponse, error) {
			return p.CheckResponse{Inputs: req.Inputs}, nil
		},
		DiffConfig: func(_ context.Context, req p.DiffRequest) (p.DiffResponse, error) {
			return diff(req, nil), nil
		},
		Configure: e.configure,
		Invoke:    e.invoke,
		Check:     e.check,
		Diff: func(_ context.Context, req p.DiffRequest) (p.DiffResponse, error) {
			return diff(req, e.kind(req.Urn.Type().String()).Replaces), nil
		},
		Create:    e.create,
		Read:      e.read,
		Update:    e.update,
		Delete:    e.delete,
		Construct: s.Construct,
	}
}

type emulator struct {
	svc Service
	// store is the shared store, resolved once from the environment the engine started the plugin with.
	store    *Store
	storeErr error

	mu     sync.Mutex
	config property.Map
	scope  string
}

func (e *emulator) configure(_ context.Context, req p.ConfigureRequest) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.config = req.Args
	if e.svc.Scope != nil {
		e.scope = e.svc.Scope(req.Args)
	}
	return nil
}

func (e *emulator) kind(typ string) Kind {
	if k, ok := e.svc.Kinds[typ]; ok {
		return k
	}
	return e.svc.Default
}

func (e *emulator) newCall(typ, name string, inputs property.Map) (Call, error) {
	if e.storeErr != nil {
		return Call{}, e.storeErr
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return Call{Type: typ, Name: name, Scope: e.scope, Config: e.config, Inputs: inputs, Store: e.store}, nil
}

func (e *emulator) invoke(_ context.Context, req p.InvokeRequest) (p.InvokeResponse, error) {
	f, ok := e.svc.Invokes[req.Token.String()]
	if !ok {
		return p.InvokeResponse{}, fmt.Errorf("the %s emulator does not answer %s", e.svc.Package, req.Token)
	}
	c, err := e.newCall(req.Token.String(), "", req.Args)
	if err != nil {
		return p.InvokeResponse{}, err
	}
	out, err := f(c)
	if err != nil {
		return p.InvokeResponse{}, err
	}
	return p.InvokeResponse{Return: Value(out).AsMap()}, nil
}

func (e *emulator) check(_ context.Context, req p.CheckRequest) (p.CheckResponse, error) {
	k := e.kind(req.Urn.Type().String())
	if k.AutoName == nil {
		return p.CheckResponse{Inputs: req.Inputs}, nil
	}
	seed := req.RandomSeed
	if len(seed) < 4 {
		seed = randomBytes(4)
	}
	return p.CheckResponse{Inputs: k.AutoName(req.State, req.Inputs, req.Urn.Name(), hex.EncodeToString(seed[:4])[:7])}, nil
}

func (e *emulator) create(_ context.Context, req p.CreateRequest) (p.CreateResponse, error) {
	typ := req.Urn.Type().String()
	k := e.kind(typ)
	c, err := e.newCall(typ, req.Urn.Name(), req.Properties)
	if err != nil {
		return p.CreateResponse{}, err
	}
	c.URN = req.Urn
	id := ""
	if !req.DryRun {
		id = req.Urn.Name() + "-" + hex.EncodeToString(randomBytes(4))
		if k.ID != nil {
			id = k.ID(c)
		}
	}
	var computed map[string]any
	if k.Computed != nil {
		computed = k.Computed(c, id)
	}
	outs := overlay(req.Properties, computed, req.DryRun)
	if req.DryRun {
		return p.CreateResponse{Properties: outs}, nil
	}
	if k.Start != nil {
		if err := k.Start(c, id); err != nil {
			return p.CreateResponse{}, err
		}
	}
	if err := e.save(c, id, outs); err != nil {
		return p.CreateResponse{}, err
	}
	if err := e.changed(k, typ, id); err != nil {
		return p.CreateResponse{}, err
	}
	return p.CreateResponse{ID: id, Properties: outs}, nil
}

func (e *emulator) update(_ context.Context, req p.UpdateRequest) (p.UpdateResponse, error) {
	typ := req.Urn.Type().String()
	k := e.kind(typ)
	c, err := e.newCall(typ, req.Urn.Name(), req.Inputs)
	if err != nil {
		return p.UpdateResponse{}, err
	}
	c.URN = req.Urn
	// Computed values the cloud already assigned (ARNs, IDs, endpoints) stay; the inputs are the new ones.
	outs := req.Inputs
	if k.Computed != nil {
		for key := range k.Computed(c, req.ID) {
			if _, set := req.Inputs.GetOk(key); set {
				continue
			}
			if v, ok := req.State.GetOk(key); ok {
				outs = outs.Set(key, v)
			}
		}
	}
	if req.DryRun {
		return p.UpdateResponse{Properties: outs}, nil
	}
	if err := e.save(c, req.ID, outs); err != nil {
		return p.UpdateResponse{}, err
	}
	if err := e.changed(k, typ, req.ID); err != nil {
		return p.UpdateResponse{}, err
	}
	return p.UpdateResponse{Properties: outs}, nil
}

func (e *emulator) read(_ context.Context, req p.ReadRequest) (p.ReadResponse, error) {
	if e.storeErr != nil {
		return p.ReadResponse{}, e.storeErr
	}
	rec, ok, err := e.get(req.Urn.Type().String(), req.ID)
	if err != nil || !ok {
		return p.ReadResponse{}, err
	}
	state, err := rec.Properties()
	if err != nil {
		return p.ReadResponse{}, err
	}
	return p.ReadResponse{ID: req.ID, Properties: state, Inputs: req.Inputs}, nil
}

func (e *emulator) delete(_ context.Context, req p.DeleteRequest) error {
	if e.storeErr != nil {
		return e.storeErr
	}
	typ := req.Urn.Type().String()
	k := e.kind(typ)
	if k.Stop != nil {
		if err := k.Stop(e.scope, req.ID); err != nil {
			return err
		}
	}
	var last map[string]any
	if k.Changed != nil {
		rec, ok, err := e.get(typ, req.ID)
		if err != nil {
			return err
		}
		if ok {
			if last, err = rec.Plain(); err != nil {
				return err
			}
		}
	}
	// A record already gone is no error: deleting is idempotent, as with the real providers.
	var err error
	if e.svc.ScopedIDs {
		_, err = e.store.DeleteIn(e.svc.Package, typ, e.scope, req.ID)
	} else {
		_, err = e.store.Delete(e.svc.Package, typ, req.ID)
	}
	if err != nil || last == nil {
		return err
	}
	return k.Changed(e.store, e.scope, last)
}

// get is the record of typ and id, in the provider's scope where IDs are scoped.
func (e *emulator) get(typ, id string) (Record, bool, error) {
	if e.svc.ScopedIDs {
		return e.store.GetIn(e.svc.Package, typ, e.scope, id)
	}
	return e.store.Get(e.svc.Package, typ, id)
}

// changed runs k's Changed hook, if any, on the record of typ and id just saved.
func (e *emulator) changed(k Kind, typ, id string) error {
	if k.Changed == nil {
		return nil
	}
	rec, ok, err := e.get(typ, id)
	if err != nil || !ok {
		return err
	}
	state, err := rec.Plain()
	if err != nil {
		return err
	}
	return k.Changed(e.store, e.scope, state)
}

func (e *emulator) save(c Call, id string, outs property.Map) error {
	state, err := encodeState(outs)
	if err != nil {
		return err
	}
	return c.Store.Put(Record{
		Package: e.svc.Package, Type: c.Type, URN: string(c.URN), ID: id, Scope: c.Scope, State: state,
		Scoped: e.svc.ScopedIDs,
	})
}

// diff compares old and new inputs key by key; a change of a key in replaces replaces the resource.
func diff(req p.DiffRequest, replaces []string) p.DiffResponse {
	detailed := map[string]p.PropertyDiff{}
	keys := map[string]bool{}
	for k := range req.OldInputs.All {
		keys[k] = true
	}
	for k := range req.Inputs.All {
		keys[k] = true
	}
	for k := range keys {
		if slices.Contains(req.IgnoreChanges, k) {
			continue
		}
		old, hadOld := req.OldInputs.GetOk(k)
		nu, hasNew := req.Inputs.GetOk(k)
		kind := p.Update
		switch {
		case !hadOld && hasNew && !nu.IsNull():
			kind = p.Add
		case hadOld && !old.IsNull() && (!hasNew || nu.IsNull()):
			kind = p.Delete
		case old.Equals(nu) && !nu.IsComputed():
			continue
		}
		if (!hadOld || old.IsNull()) && (!hasNew || nu.IsNull()) {
			continue
		}
		if slices.Contains(replaces, k) {
			kind = map[p.DiffKind]p.DiffKind{p.Add: p.AddReplace, p.Delete: p.DeleteReplace, p.Update: p.UpdateReplace}[kind]
		}
		detailed[k] = p.PropertyDiff{Kind: kind, InputDiff: true}
	}
	return p.DiffResponse{HasChanges: len(detailed) > 0, DetailedDiff: detailed}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

// RandomHex is n random bytes in hex: the random part of generated IDs.
func RandomHex(n int) string { return hex.EncodeToString(randomBytes(n)) }

// Serve runs s as a plugin process (the engine starts it and reads its port from stdout) and exits when the
// engine is done with it.
func Serve(s Service) {
	if err := p.RunProvider(context.Background(), s.Package, s.Version, New(s)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
