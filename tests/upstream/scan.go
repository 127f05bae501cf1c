package upstream

import (
	"fmt"
	"io/fs"
	"path/filepath"
)

// Scan is the files of the upstream copy dir (SOURCES.md left out) with their SHA-256, in path order; a file of no
// known source is an error.
func Scan(dir string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == "SOURCES.md" {
			return err
		}
		rel = filepath.ToSlash(rel)
		if URL(RawGitHub, rel) == "" {
			return fmt.Errorf("%s: no known source (tests/upstream/sources.go)", rel)
		}
		sum, err := fileSum(path)
		files = append(files, File{Path: rel, SHA256: sum})
		return err
	})
	return files, err
}
