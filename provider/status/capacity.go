package status

import (
	"encoding/json"
	"fmt"
)

// Capacity is a hub stack's Argo CD load: what the fleet planned from its arguments (the stack's hubCapacity output,
// components/fleet's HubCapacity) and what the hub's Argo CD runs.
type Capacity struct {
	// Planned are the Applications the fleet counted for the hub (from this stack's clusters; a shard's count in
	// their own stacks).
	Planned int `json:"planned"`
	// Running are the Applications the hub's Argo CD holds when read (every stack's it serves); -1 when not read.
	Running int `json:"running"`
	// Clusters are the clusters the hub manages, its shards' included.
	Clusters int `json:"clusters"`
	// Limit is a managed hub's limit (1,000); 0 for a self-managed one.
	Limit int `json:"limit,omitempty"`
	// ControllerReplicas and ShardingAlgorithm are the application controller's plan ("" with one replica); 0 on a
	// managed hub.
	ControllerReplicas int    `json:"controllerReplicas,omitempty"`
	ShardingAlgorithm  string `json:"shardingAlgorithm,omitempty"`
}

// capacityOf is the stack's hubCapacity output as a Capacity (Running -1: not read yet); nil when the stack has none
// or plans no Application (a shard).
func capacityOf(output any) *Capacity {
	var o struct {
		Applications       int    `json:"applications"`
		Clusters           int    `json:"clusters"`
		Limit              int    `json:"limit"`
		ControllerReplicas int    `json:"controllerReplicas"`
		ShardingAlgorithm  string `json:"shardingAlgorithm"`
	}
	data, err := json.Marshal(output)
	if err != nil || json.Unmarshal(data, &o) != nil || o.Applications == 0 {
		return nil
	}
	return &Capacity{Planned: o.Applications, Running: -1, Clusters: o.Clusters, Limit: o.Limit,
		ControllerReplicas: o.ControllerReplicas, ShardingAlgorithm: o.ShardingAlgorithm}
}

// String is "<running> Applications on the hub's Argo CD (<planned> planned, limit <n>), <clusters> clusters;
// controller: <n> replicas, <algorithm>"; the running count "unread" when the hub was not read, and a managed or
// a past-the-limit hub said.
func (c Capacity) String() string {
	running := "unread"
	if c.Running >= 0 {
		running = fmt.Sprint(c.Running)
	}
	s := fmt.Sprintf("%s Applications on the hub's Argo CD (%d planned", running, c.Planned)
	if c.Limit > 0 {
		s += fmt.Sprintf(", limit %d", c.Limit)
	}
	s += fmt.Sprintf("), %d clusters", c.Clusters)
	switch {
	case c.Limit > 0 && max(c.Running, c.Planned) > c.Limit:
		s += "; PAST THE MANAGED ARGO CD'S LIMIT"
	case c.Limit > 0:
		s += "; managed"
	case c.ControllerReplicas > 1:
		s += fmt.Sprintf("; application controller: %d replicas, %s", c.ControllerReplicas, c.ShardingAlgorithm)
	default:
		s += "; application controller: 1 replica"
	}
	return s
}
