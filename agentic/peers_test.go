package agentic

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The reference tools' own example (ruagentic 1.3.0, testdata/peers,
// SOURCES.md). ParseSite reads the profile, and Text writes its agentic.txt
// byte for byte. CheckText accepts it and the TXT 1.2 publication form.
// WriteDir writes the reference's README.md and LISTING.md byte for byte.
// (Agentic Site Profile 1.1, "TXT 1.1", "Tools and compatibility": the
// discover command writes agentic.json, agentic.txt, README.md, LISTING.md
// and a report.)
func TestPeerRuagenticSite(t *testing.T) {
	dir := "testdata/peers/ruagentic/site"
	js := readFile(t, filepath.Join(dir, "agentic.json"))
	s, err := ParseSite(js)
	require.NoError(t, err)

	txt, err := s.Text("")
	require.NoError(t, err)
	want := readFile(t, filepath.Join(dir, "agentic.txt"))
	assert.Equal(t, string(want), string(txt), "TXT 1.1")
	assert.Equal(t, TextStatusMatched, CheckText(s, "", want))

	pub, err := s.PublicationText("")
	require.NoError(t, err)
	assert.Equal(t, TextStatusMatched, CheckText(s, "", pub))
	// TXT 1.2 is the 1.1 text with its version line changed, an LF, then
	// the two fixed reference records. The reference ships no 1.2 file for
	// this example, so the construction is checked instead.
	head := bytes.Replace(want, []byte("Agentic-Text: 1.1\n"), []byte("Agentic-Text: 1.2\n"), 1)
	require.True(t, bytes.HasPrefix(pub, head))
	assert.Equal(t, "\n"+
		`Reference: "specification" "Agentic" "https://ruagentic.org"`+"\n"+
		`Reference-Description: "Agentic is the open file convention for describing websites, APIs, and agent connections, with specifications and tools for generation, validation, auditing, and action-result verification."`+"\n\n"+
		`Reference: "directory" "RUAGENTIC" "https://ruagentic.com"`+"\n"+
		`Reference-Description: "RUAGENTIC is the official Agentic directory for agentic AI MCP servers and tools."`+"\n",
		string(pub[len(head):]))

	d := &Discovery{Origin: s.Origin, ProfileURL: defaultProfileURL(s.Origin), Outcome: OutcomeExistingSite, Site: s, JSON: js, Text: txt,
		Report: &DiscoveryReport{Origin: s.Origin, ProfileURL: defaultProfileURL(s.Origin), Outcome: OutcomeExistingSite}}
	out := filepath.Join(t.TempDir(), "out")
	require.NoError(t, d.WriteDir(out))
	for _, name := range []string{fileReadme, fileListing} {
		assert.Equal(t, string(readFile(t, filepath.Join(dir, name))), string(readFile(t, filepath.Join(out, name))), name)
	}
	readme := string(readFile(t, filepath.Join(out, fileReadme)))
	for _, r := range projectReferences() {
		assert.Contains(t, readme, "("+r.URL+"/)", "the reference's publication test requires both project URLs")
		assert.Contains(t, readme, r.Description)
	}
}

// The reference's tickets example is an action profile of the pre-1.0
// draft ("agentic": "0.1.0-draft", "Agentic-Text: 0.1"), which neither Site
// Profile 1.1 nor Action Profile 1.0 covers: not applicable, and refused.
// The same actions relabelled 1.0.0 give the reference's index with its
// two version lines changed, since Action TXT 1.0 has the same layout.
func TestPeerRuagenticTickets(t *testing.T) {
	dir := "testdata/peers/ruagentic/tickets"
	js := readFile(t, filepath.Join(dir, "agentic.json"))
	_, err := ParseSite(js)
	assert.Error(t, err)
	_, err = ParseActionProfile(js)
	ve := asValidation(t, err)
	assert.Equal(t, []string{RuleActionVersion}, ve.Rules())

	p, err := ParseActionProfile(bytes.Replace(js, []byte(`"agentic": "0.1.0-draft"`), []byte(`"agentic": "1.0.0"`), 1))
	require.NoError(t, err)
	got, err := p.Text("")
	require.NoError(t, err)
	want := readFile(t, filepath.Join(dir, "agentic.txt"))
	want = bytes.Replace(want, []byte("Agentic-Text: 0.1\n"), []byte("Agentic-Text: 1.0\n"), 1)
	want = bytes.Replace(want, []byte("Profile-Version: 0.1.0-draft\n"), []byte("Profile-Version: 1.0.0\n"), 1)
	assert.Equal(t, string(want), string(got))
	assert.Equal(t, TextStatusMatched, p.CompareText("", want).Status)
}

func asValidation(t *testing.T, err error) *ValidationError {
	t.Helper()
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	require.ErrorIs(t, err, ErrInvalid)
	return ve
}
