package capabilities

import (
	"encoding/json"
	"time"

	"github.com/gitops-fleet/pulumi-fleet/tests/emulator"
)

// entry is a capability as the store keeps it: the Capability as DescribeCapability answers it (wire form),
// the status it reaches at SettlesAt (GONE: deleted), and its updates by ID.
type entry struct {
	Capability map[string]any            `json:"capability"`
	Next       string                    `json:"next,omitempty"`
	SettlesAt  int64                     `json:"settlesAt,omitempty"` // Unix milliseconds
	Issues     []Issue                   `json:"issues,omitempty"`
	Updates    map[string]map[string]any `json:"updates,omitempty"`
}

const gone = "GONE"

func key(cluster, name string) string { return cluster + "/" + name }

// load is the capability name of cluster in region, its pending transition applied; false when there is none.
func (c call) load(cluster, name string) (*entry, bool, error) {
	rec, found, err := c.api.store.Get("eks", Type, key(cluster, name))
	if err != nil || !found || rec.Scope != c.region {
		return nil, false, err
	}
	plain, err := rec.Plain()
	if err != nil {
		return nil, false, err
	}
	var e entry
	if err := recode(plain, &e); err != nil {
		return nil, false, err
	}
	if e.Next == "" || time.Now().UnixMilli() < e.SettlesAt {
		return &e, true, nil
	}
	if e.Next == gone {
		if h := c.api.Hooks.Gone; h != nil {
			if err := h(c.region, e.Capability); err != nil {
				return nil, false, err
			}
		}
		_, err := c.api.store.Delete("eks", Type, key(cluster, name))
		return nil, false, err
	}
	if h := c.api.Hooks.Active; h != nil && e.Capability["status"] == "CREATING" && e.Next == "ACTIVE" {
		if err := h(c.region, e.Capability); err != nil {
			return nil, false, err
		}
	}
	e.Capability["status"], e.Next = e.Next, ""
	health := map[string]any{"issues": []any{}}
	if len(e.Issues) > 0 {
		health["issues"] = e.Issues
	}
	e.Capability["health"] = health
	for _, u := range e.Updates {
		if u["status"] == "InProgress" {
			u["status"] = "Successful"
		}
	}
	return &e, true, c.save(cluster, name, &e)
}

// save writes e into the store.
func (c call) save(cluster, name string, e *entry) error {
	var plain map[string]any
	if err := recode(e, &plain); err != nil {
		return err
	}
	state, err := emulator.PlainState(plain)
	if err != nil {
		return err
	}
	return c.api.store.Put(emulator.Record{Package: "eks", Type: Type, ID: key(cluster, name), Scope: c.region,
		URN: "eks:capability:" + key(cluster, name), State: state})
}

// transition makes e reach status after the API's Settle.
func (c call) transition(e *entry, during, status string) {
	e.Capability["status"], e.Next = during, status
	e.SettlesAt = time.Now().Add(c.api.Settle).UnixMilli()
	now := time.Now().Unix()
	e.Capability["modifiedAt"] = now
}

func recode(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}
