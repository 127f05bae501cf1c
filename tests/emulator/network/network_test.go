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
