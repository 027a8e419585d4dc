package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/readiness"
)

// With -browser the demo's pages are rendered in Chromium: the score is
// the same as the static scan's (the demo site's tools are declared in its
// HTML), and the Act receipts say it was rendered.
func TestDemoBrowser(t *testing.T) {
	if os.Getenv("AGENTWEB_BROWSER") != "1" {
		t.Skip("set AGENTWEB_BROWSER=1 to run the tests with a real Chromium")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, demo([]string{"-browser", "-out", dir}, &stdout, &stderr, nil), stderr.String())
	js, err := os.ReadFile(filepath.Join(dir, "readiness.json"))
	require.NoError(t, err)
	var rep readiness.Report
	require.NoError(t, json.Unmarshal(js, &rep))
	for _, c := range rep.Checks {
		if c.ID == "page_actions_declared" {
			assert.Equal(t, readiness.VerdictPass, c.Verdict)
			assert.Contains(t, c.Receipt.Received, "rendered in Chromium")
		}
	}
	assert.InDelta(t, 98.0, rep.Score, 0.05, "the rendered demo scores as the static one")
}
