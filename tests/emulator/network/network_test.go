package network

import (
	"bytes"
	"os"
	"testing"
)

// TestCAKept: a network started again in the same directory keeps its CA (the clusters created under the first
// report it, and their kubeconfigs trust only it); one in another directory has its own.
func TestCAKept(t *testing.T) {
	dir := t.TempDir()
	first, err := Start(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := os.ReadFile(first.CAFile)
	first.Close()
	again, err := Start(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got, _ := os.ReadFile(again.CAFile); !bytes.Equal(got, ca) || !again.ca.Equal(first.ca) {
		t.Error("the CA changed between two networks of one directory")
	}
	other, err := Start(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if other.ca.Equal(first.ca) {
		t.Error("two directories share a CA")
	}
}

// TestProxyAddressKept: a network started again in the same directory takes the proxy address the first had (the
// clusters' authenticators were started with it); when another process holds it, it takes a new one and says it
// moved.
func TestProxyAddressKept(t *testing.T) {
	dir := t.TempDir()
	first, err := Start(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	again, err := Start(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.ProxyURL != first.ProxyURL || again.Moved || first.Moved {
		t.Errorf("second network at %s (moved %v), want the first's %s", again.ProxyURL, again.Moved, first.ProxyURL)
	}
	// again holds the address now: a third network in the directory cannot have it.
	third, err := Start(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	again.Close()
	if third.ProxyURL == first.ProxyURL || !third.Moved {
		t.Errorf("third network at %s (moved %v), want another address than %s, moved", third.ProxyURL, third.Moved, first.ProxyURL)
	}
}
