package offline

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSyncStackFile(t *testing.T) {
	cases := map[string]struct {
		reason string
		src    string // "" for none
		dst    string // "" for none
		want   string // "" for no file
	}{
		"first run": {reason: "the project's file is copied", src: "config:\n  a: 1\n", want: "config:\n  a: 1\n"},
		"edited after the first run": {reason: "the edit applies; the salt the stack was created with stays",
			src: "config:\n  a: 2\n", dst: "config:\n  a: 1\nencryptionsalt: v1:abc\n",
			want: "config:\n  a: 2\nencryptionsalt: v1:abc\n"},
		"a KMS stack edited after the first run": {reason: "the edit applies; the provider and its wrapped key stay",
			src: "config:\n  a: 2\n", dst: "secretsprovider: awskms://alias/k?region=us-east-1\nencryptedkey: AQID\nconfig:\n  a: 1\n",
			want: "config:\n  a: 2\nsecretsprovider: awskms://alias/k?region=us-east-1\nencryptedkey: AQID\n"},
		"the project names its own provider": {reason: "the project's settings win",
			src: "encryptionsalt: v1:own\nconfig:\n  a: 1\n", dst: "encryptionsalt: v1:abc\nconfig:\n  a: 1\n",
			want: "encryptionsalt: v1:own\nconfig:\n  a: 1\n"},
		"config set in the copy": {reason: "the project's file wins over config set in the work copy",
			src: "config:\n  a: 1\n", dst: "config:\n  a: 1\n  b: set-by-hand\n", want: "config:\n  a: 1\n"},
		"no stack file": {reason: "a stack without config", want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			src, dst := filepath.Join(dir, "src.yaml"), filepath.Join(dir, "dst.yaml")
			for path, content := range map[string]string{src: tc.src, dst: tc.dst} {
				if content != "" {
					if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := syncStackFile(src, dst); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(dst)
			if tc.want == "" {
				if err == nil {
					t.Errorf("%s: wrote %q", tc.reason, got)
				}
				return
			}
			if string(got) != tc.want {
				t.Errorf("%s:\n got %q\nwant %q", tc.reason, got, tc.want)
			}
		})
	}
}
