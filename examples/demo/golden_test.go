package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/examples/demo/demosite"
	"github.com/agentweb/agentweb/readiness"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenNow is the clock of the golden scan: the scan's scanned_at, the
// linkset's build date and the attestation's times.
func goldenNow() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) }

// jwtLike matches a compact JWS, such as the rp_attestation, signed with a
// key generated at every Start.
var jwtLike = regexp.MustCompile(`eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`)

// normalize replaces what changes from run to run in a report's JSON form
// by placeholders: validators and session identifiers, the scheduling's
// peak concurrency, the broker's key and anything it signed.
func normalize(v any, brokerKey string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch strings.ToLower(k) {
			case "etag", "last-modified", "mcp-session-id", "session_id", "retrieved", "date":
				if s, ok := e.(string); ok && s != "" && s != "(present)" {
					x[k] = "<volatile>"
					continue
				}
			case "peak_concurrency":
				x[k] = 0
				continue
			}
			x[k] = normalize(e, brokerKey)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = normalize(e, brokerKey)
		}
		return x
	case string:
		x = jwtLike.ReplaceAllString(x, "<jws>")
		return strings.ReplaceAll(x, brokerKey, "<broker-key>")
	}
	return v
}

// TestBrokenReportGolden scans the demo's -broken site and compares the
// report's JSON form, normalised, with testdata/broken-report.json; every
// check that leaves work to do carries a fix, in every form.
func TestBrokenReportGolden(t *testing.T) {
	s, err := demosite.Start(&demosite.Options{Defects: demosite.Broken, Now: goldenNow})
	require.NoError(t, err)
	t.Cleanup(s.Close)
	r, err := readiness.Scan(context.Background(), s.URL, &readiness.Options{Client: s.Client(), Now: goldenNow})
	require.NoError(t, err)

	md, page := string(r.Markdown()), string(r.HTML())
	fixes := 0
	for _, c := range r.Checks {
		if c.Verdict == readiness.VerdictPass || c.Verdict == readiness.VerdictOptional {
			assert.Empty(t, c.Fix, "%s is %s: nothing to fix", c.ID, c.Verdict)
			continue
		}
		fixes++
		if assert.NotEmpty(t, c.Fix, "%s is %s: it needs a fix", c.ID, c.Verdict) {
			assert.Contains(t, page, `data-fix="`+c.ID+`"`, c.ID)
		}
	}
	assert.Equal(t, 6, fixes, "the five defects' checks and mcp_tested_execution")
	assert.Equal(t, fixes, strings.Count(md, "\nFix: "), "one Fix line per check to fix in the Markdown form")

	// The fix-first list leads every form: the most points first, then by
	// requirement (R2 before R7; a check without one after), then in
	// catalogue order. mcp_tested_execution keeps its fix on the check but
	// is not in the list: no change of the site's can make it pass.
	var order []string
	for _, f := range r.Fixes {
		order = append(order, f.Check)
	}
	assert.Equal(t, []string{"markdown_representation", "structured_business_data", "vary_accept", "mcp_signin_discovery", "manifest_twins"}, order)
	assert.Less(t, strings.Index(md, "## Fix first"), strings.Index(md, "## Sections"))
	assert.Less(t, strings.Index(md, "[`markdown_representation`](#markdown_representation)"), strings.Index(md, "[`structured_business_data`](#structured_business_data)"))
	assert.Less(t, strings.Index(page, `id="fix-first"`), strings.Index(page, "<h2>Sections</h2>"))
	assert.Contains(t, page, `<a href="#check-markdown_representation"><code>markdown_representation</code></a> (R2)`)

	js, err := r.JSON()
	require.NoError(t, err)
	var v any
	require.NoError(t, json.Unmarshal(js, &v))
	v = normalize(v, base64.RawURLEncoding.EncodeToString(s.BrokerKey))
	var got bytes.Buffer
	enc := json.NewEncoder(&got)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))

	path := filepath.Join("testdata", "broken-report.json")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got.Bytes(), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -run TestBrokenReportGolden -update")
	assert.Equal(t, string(want), got.String())
}
