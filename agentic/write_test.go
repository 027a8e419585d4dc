package agentic

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteDirEscapesUntrustedText(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/golden/hostile-strings.json"))
	require.NoError(t, err)
	js, err := s.JSON()
	require.NoError(t, err)
	txt, err := s.Text("")
	require.NoError(t, err)
	d := &Discovery{Origin: s.Origin, ProfileURL: defaultProfileURL(s.Origin), Outcome: OutcomeExistingSite, Site: s, JSON: js, Text: txt,
		Report: &DiscoveryReport{Origin: s.Origin}}
	files, err := d.Files()
	require.NoError(t, err)
	for _, name := range []string{fileReadme, fileListing} {
		md := string(files[name])
		assert.NotContains(t, md, "<script>", name)
		assert.NotContains(t, md, "\u202e", name)
		assert.NotContains(t, md, "\nResource:", name)
		assert.NotContains(t, md, "\n## forged", name)
	}
	dir := filepath.Join(t.TempDir(), "out")
	require.NoError(t, d.WriteDir(dir))
	back, err := ParseSite(readFile(t, filepath.Join(dir, fileJSON)))
	require.NoError(t, err)
	assert.Equal(t, TextStatusMatched, CheckText(back, "", readFile(t, filepath.Join(dir, fileText))))
	_, err = (&Discovery{}).Files()
	assert.Error(t, err)
}

func TestMarkdownEscaping(t *testing.T) {
	name := "Name [wrong](https://evil.example) <script>\n## forged"
	got := mdText(name, 160)
	assert.NotContains(t, got, "<script>")
	assert.NotContains(t, got, "](")
	assert.NotContains(t, got, "\n")
	assert.Equal(t, `[a\]b](https://x.example/%28p%29)`, mdLink("a]b", "https://x.example/(p)"))
	assert.Equal(t, fmt.Sprint(`Name \[wrong\]\(https://evil.example\) &lt;script&gt; \#\# forged`), got)
}
