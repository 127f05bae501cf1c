package upstream

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The variables that choose where the files come from.
const (
	// CopyEnv names a local copy to read instead of ../shared/upstream.
	CopyEnv = "FLEET_UPSTREAM"
	// MirrorEnv replaces RawGitHub as the source of a file missing from the cache.
	MirrorEnv = "FLEET_UPSTREAM_MIRROR"
)

// Dir is a folder holding every file of the manifest, for the repository at root: the folder CopyEnv names; else
// ../shared/upstream beside the repository, where this project's CI lays it out; else root/.work/upstream, where a
// file missing or different from the manifest is fetched from its source and checked. The error names each file it
// could not get, and where from.
func Dir(root string) (string, error) {
	if dir := os.Getenv(CopyEnv); dir != "" {
		return dir, nil
	}
	if shared := filepath.Join(filepath.Dir(root), "shared", "upstream"); exists(filepath.Join(shared, "SOURCES.md")) {
		return shared, nil
	}
	base := RawGitHub
	if mirror := os.Getenv(MirrorEnv); mirror != "" {
		base = mirror
	}
	cache := filepath.Join(root, ".work", "upstream")
	return cache, Fill(cache, base, Files)
}

// Fill makes dir hold files: each one absent, or whose content is not its SHA-256, is fetched from its source under
// base and checked before it takes its place. A few at a time; every failure is reported.
func Fill(dir, base string, files []File) error {
	client := &http.Client{Timeout: time.Minute}
	var mu sync.Mutex
	var failed []string
	var wg sync.WaitGroup
	slots := make(chan struct{}, 8)
	for _, f := range files {
		if sum, err := fileSum(filepath.Join(dir, f.Path)); err == nil && sum == f.SHA256 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			if err := fetch(client, dir, base, f); err != nil {
				mu.Lock()
				failed = append(failed, err.Error())
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("%d pinned upstream files (the Argo CD chart the hubs install, the CRDs the stand-in charts carry) "+
		"are not in %s and could not be fetched; reach %s, or set %s to a copy of them (their list: "+
		"tests/upstream/manifest.tsv):\n  %s", len(failed), dir, base, CopyEnv, strings.Join(failed, "\n  "))
}

// fetch gets f from its source under base into dir, checking its SHA-256 first.
func fetch(client *http.Client, dir, base string, f File) error {
	url := URL(base, f.Path)
	if url == "" {
		return fmt.Errorf("%s: no known source (tests/upstream/sources.go)", f.Path)
	}
	resp, err := client.Get(url)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", f.Path, url, resp.Status)
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", f.Path, url, err)
	}
	if sum := hexSum(data); sum != f.SHA256 {
		return fmt.Errorf("%s: %s has SHA-256 %s, not the pinned %s", f.Path, url, sum, f.SHA256)
	}
	dst := filepath.Join(dir, filepath.FromSlash(f.Path))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".fetch-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err = errors.Join(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// fileSum is the SHA-256 of the file at path.
func fileSum(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return hexSum(data), nil
}

func hexSum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
