package network

import (
	"bytes"
	"net/http"
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

// TestHTTP2: a client that offers HTTP/2 (a Kubernetes client, Argo CD's controllers) speaks it through the proxy's
// tunnel, so its requests to one host share one connection; one that offers only HTTP/1.1 keeps it.
func TestHTTP2(t *testing.T) {
	n, err := Start(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	for _, tc := range []struct {
		h2   bool
		want int
	}{{true, 2}, {false, 1}} {
		tr := n.Transport()
		tr.ForceAttemptHTTP2 = tc.h2
		resp, err := (&http.Client{Transport: tr}).Get("https://ABC123.gr7.us-east-1.eks.amazonaws.com/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.ProtoMajor != tc.want {
			t.Errorf("offering HTTP/2 %v: the answer came over %s, want HTTP/%d", tc.h2, resp.Proto, tc.want)
		}
		tr.CloseIdleConnections()
	}
}
