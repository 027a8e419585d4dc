package readiness

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create %s", path)
	assert.Equal(t, string(want), string(got), "%s differs from the golden file (go test -update rewrites it)", path)
}

func TestGolden(t *testing.T) {
	r := fixedReport()
	js, err := r.JSON()
	require.NoError(t, err)
	t.Run("json", func(t *testing.T) { golden(t, "report.json", js) })
	t.Run("markdown", func(t *testing.T) { golden(t, "report.md", r.Markdown()) })
	t.Run("html", func(t *testing.T) { golden(t, "report.html", r.HTML()) })
}

func TestJSONFieldNamesAndRoundTrip(t *testing.T) {
	r := fixedReport()
	js, err := r.JSON()
	require.NoError(t, err)
	var generic map[string]any
	require.NoError(t, json.Unmarshal(js, &generic))
	for _, k := range []string{"method", "site", "scanned_at", "ready", "score", "possible", "sections", "requirements", "checks", "unverified", "scope"} {
		assert.Contains(t, generic, k)
	}
	// The documented top-level order.
	idx := func(k string) int { return bytes.Index(js, []byte(`"`+k+`":`)) }
	assert.Less(t, idx("method"), idx("site"))
	assert.Less(t, idx("site"), idx("scanned_at"))
	assert.Less(t, idx("ready"), idx("score"))
	assert.Less(t, idx("checks"), idx("unverified"))
	var back Report
	require.NoError(t, json.Unmarshal(js, &back))
	assert.Equal(t, *r, back)
	assert.Equal(t, "1.2", back.Method)
}

// TestThreeFormsAgree renders one report three ways and compares every total,
// section score and verdict.
func TestThreeFormsAgree(t *testing.T) {
	r := fixedReport()
	js, err := r.JSON()
	require.NoError(t, err)
	var fromJSON Report
	require.NoError(t, json.Unmarshal(js, &fromJSON))

	// The numbers as a reader sees them, from the JSON.
	total := oneDecimal(fromJSON.Score)
	sections := map[string]string{}
	for _, s := range fromJSON.Sections {
		sections[s.Title] = sectionScoreText(s)
	}
	verdicts := map[string]string{}
	earned := map[string]string{}
	for _, c := range fromJSON.Checks {
		verdicts[c.ID] = verdictLabel(c.Verdict)
		earned[c.ID] = points(c.Earned)
	}

	// Markdown.
	md := string(r.Markdown())
	m := regexp.MustCompile(`Score: \*\*([0-9.]+) / 100\*\*`).FindStringSubmatch(md)
	require.NotNil(t, m)
	assert.Equal(t, total, m[1], "markdown total")
	assert.Contains(t, md, "Ready: **"+readyWord(fromJSON.Ready)+"**")
	for title, score := range sections {
		assert.Regexp(t, `(?m)^\| `+regexp.QuoteMeta(title)+` \| `+regexp.QuoteMeta(score)+` \|`, md, "markdown section %s", title)
		assert.Regexp(t, `(?m)^## `+regexp.QuoteMeta(title)+` \(`+regexp.QuoteMeta(score)+` /`, md, "markdown heading %s", title)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z_0-9]+)` \\| [^|]+ \\| ([a-z/_]+) \\| ([0-9.]+) \\|").FindAllStringSubmatch(md, -1)
	assert.Len(t, rows, len(verdicts))
	for _, row := range rows {
		assert.Equal(t, verdicts[row[1]], row[2], "markdown verdict of %s", row[1])
		assert.Equal(t, earned[row[1]], row[3], "markdown earned of %s", row[1])
	}

	// HTML.
	doc, err := html.Parse(bytes.NewReader(r.HTML()))
	require.NoError(t, err)
	attr := func(n *html.Node, k string) (string, bool) {
		for _, a := range n.Attr {
			if a.Key == k {
				return a.Val, true
			}
		}
		return "", false
	}
	seenChecks, seenSections := 0, 0
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		if id, _ := attr(n, "id"); id == "total" {
			s, _ := attr(n, "data-score")
			assert.Equal(t, total, s, "html total")
			assert.Equal(t, total, n.FirstChild.Data)
		}
		if v, ok := attr(n, "data-ready"); ok {
			assert.Equal(t, fromJSON.Ready, v == "true")
		}
		if id, ok := attr(n, "data-check"); ok {
			seenChecks++
			v, _ := attr(n, "data-verdict")
			e, _ := attr(n, "data-earned")
			assert.Equal(t, verdicts[id], verdictLabel(Verdict(v)), "html verdict of %s", id)
			assert.Equal(t, earned[id], e, "html earned of %s", id)
		}
		if id, ok := attr(n, "data-section"); ok {
			seenSections++
			s, _ := attr(n, "data-score")
			for _, sec := range fromJSON.Sections {
				if string(sec.ID) == id {
					assert.Equal(t, sectionScoreText(sec), s, "html section %s", id)
				}
			}
		}
	}
	assert.Equal(t, len(verdicts), seenChecks)
	assert.Equal(t, len(sections), seenSections)
}

func BenchmarkRender(b *testing.B) {
	r := fixedReport()
	b.Run("json", func(b *testing.B) {
		for b.Loop() {
			if _, err := r.JSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("markdown", func(b *testing.B) {
		for b.Loop() {
			r.Markdown()
		}
	})
	b.Run("html", func(b *testing.B) {
		for b.Loop() {
			r.HTML()
		}
	})
}

func TestCIGoldens(t *testing.T) {
	for name, render := range map[string]func(*Report) ([]byte, error){"sarif.json": (*Report).SARIF, "junit.xml": (*Report).JUnit} {
		data, err := render(trendReport(2))
		require.NoError(t, err)
		golden(t, name, data)
	}
}
