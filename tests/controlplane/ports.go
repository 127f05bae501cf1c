package controlplane

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// givenPorts are the loopback ports the control planes in the Workdir but except were given: their components' (the options of
// each cluster's kwok.yaml whose name ends in "Port": etcd's, etcd's peer port, the API server's, ...) and their
// authenticators' (server.port of its config.yaml). A stopped control plane holds none of them, yet starts on them
// again.
func (c Clusters) givenPorts(except string) (map[int]bool, error) {
	ports := map[int]bool{}
	for _, name := range c.Names() {
		if name == except {
			continue
		}
		data, err := os.ReadFile(filepath.Join(c.Dir(name), "kwok.yaml"))
		if err != nil {
			return nil, fmt.Errorf("control plane %s: %w", name, err)
		}
		first, _, _ := strings.Cut(string(data), "\n---\n") // the KwokctlConfiguration, then the Stages
		var conf struct {
			Options map[string]any `json:"options"`
		}
		if err := yaml.Unmarshal([]byte(first), &conf); err != nil {
			return nil, fmt.Errorf("control plane %s: kwok.yaml: %w", name, err)
		}
		for key, v := range conf.Options {
			if port, ok := v.(float64); ok && strings.HasSuffix(key, "Port") && port > 0 {
				ports[int(port)] = true
			}
		}
		data, err = os.ReadFile(filepath.Join(c.authDir(name), "config.yaml"))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var auth struct {
			Server struct {
				Port int `json:"port"`
			} `json:"server"`
		}
		if err := yaml.Unmarshal(data, &auth); err != nil {
			return nil, fmt.Errorf("control plane %s: its authenticator's config.yaml: %w", name, err)
		}
		if auth.Server.Port > 0 {
			ports[auth.Server.Port] = true
		}
	}
	return ports, nil
}

// holdPorts listens on each of ports that is free now, on every interface (kwokctl tries loopback and all
// interfaces), until release is called: while a control plane is created, kwokctl, which gives each component a
// port that is free at that moment, cannot give one a stopped control plane will start on again.
func holdPorts(ports map[int]bool) (release func()) {
	var held []net.Listener
	for port := range ports {
		if l, err := net.Listen("tcp", fmt.Sprintf(":%d", port)); err == nil { // taken: a running control plane's
			held = append(held, l)
		}
	}
	return func() {
		for _, l := range held {
			_ = l.Close()
		}
	}
}
