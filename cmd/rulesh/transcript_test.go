package main

import (
	"path/filepath"
	"testing"
)

// TestTranscripts replays every golden transcript under tests/ (go test -update rewrites
// them, like rulesh test --update).
func TestTranscripts(t *testing.T) {
	files, err := findTranscripts([]string{"../../tests"})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no transcripts under tests/")
	}
	for _, f := range files {
		rel, _ := filepath.Rel("../..", f)
		t.Run(rel, func(t *testing.T) {
			if ok, msg := runTranscriptFile(f, *update); !ok {
				t.Errorf("%s", msg)
			}
		})
	}
}

func TestTranscriptCatchesMismatch(t *testing.T) {
	tr, err := parseTranscript("x.transcript", []byte("seed 1\n> 1 + 1\n3\n> 2 + 2\n4\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tr.run()
	if err != nil {
		t.Fatal(err)
	}
	d := tr.diff(got)
	want := "--- x.transcript (expected)\n+++ x.transcript (actual)\n@@ > 1 + 1 @@\n+2\n-3\n"
	if d != want {
		t.Errorf("diff:\n%s\nwant:\n%s", d, want)
	}
}
