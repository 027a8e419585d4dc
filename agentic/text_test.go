package agentic

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestTextSpecExample(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/agentic-site-example.json"))
	require.NoError(t, err)
	want := readFile(t, "testdata/agentic-site-example.txt")
	for _, pu := range []string{"", "https://service.example/agentic.json", "https://SERVICE.example:443/./agentic.json"} {
		got, err := s.Text(pu)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "profile URL %q", pu)
	}
	assert.Equal(t, TextStatusMatched, CheckText(s, "", want))
}

func TestTextGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		base := strings.TrimSuffix(f, ".json")
		t.Run(filepath.Base(base), func(t *testing.T) {
			s, err := ParseSite(readFile(t, f))
			require.NoError(t, err)
			for _, form := range []struct {
				suffix string
				gen    func(string) ([]byte, error)
			}{{".txt", s.Text}, {".v12.txt", s.PublicationText}} {
				got, err := form.gen("")
				require.NoError(t, err)
				checkTextInvariants(t, got)
				if *update {
					require.NoError(t, os.WriteFile(base+form.suffix, got, 0o644))
				}
				want := readFile(t, base+form.suffix)
				assert.Equal(t, string(want), string(got))
				assert.Equal(t, TextStatusMatched, CheckText(s, "", want))
				// The parser reads every record back.
				idx, err := ParseText(got)
				require.NoError(t, err)
				assertIndexMatches(t, s, idx)
			}
		})
	}
}

// checkTextInvariants asserts what every generated TXT guarantees.
func checkTextInvariants(t *testing.T, txt []byte) {
	t.Helper()
	assert.True(t, utf8.Valid(txt))
	assert.NotContains(t, string(txt), "\r")
	assert.True(t, bytes.HasSuffix(txt, []byte("\n")) && !bytes.HasSuffix(txt, []byte("\n\n")), "exactly one final LF")
	for _, r := range string(txt) {
		assert.False(t, txtEscaped(r) || (r < 0x20 && r != '\n'), "raw %U in TXT", r)
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(txt), "\n"), "\n") {
		assert.False(t, strings.HasPrefix(l, "Resource: \"website\" \"https://evil.example/\""), "injected line %q", l)
	}
}

func assertIndexMatches(t *testing.T, s *Site, idx *TextIndex) {
	t.Helper()
	assert.Equal(t, "site", idx.Kind)
	assert.Equal(t, s.Origin, idx.Origin)
	assert.Equal(t, s.Name, idx.Name)
	assert.Equal(t, s.Description, idx.Description)
	assert.Equal(t, s.Resources, idx.Resources)
	require.Len(t, idx.APIs, len(s.APIs))
	for i, a := range s.APIs {
		assert.Equal(t, a.Document, idx.APIs[i].Document)
		assert.Equal(t, a.OpenAPI, idx.APIs[i].OpenAPI)
		require.Len(t, idx.APIs[i].Operations, len(a.Operations))
		for j, o := range a.Operations {
			o.Summary = ""
			assert.Equal(t, o, idx.APIs[i].Operations[j])
		}
	}
	rebuilt, err := idx.Site()
	require.NoError(t, err)
	assert.Equal(t, s.Origin, rebuilt.Origin)
}

func TestQuoteTXT(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`a"b\c`, `"a\"b\\c"`},
		{"</script>&<>/", `"</script>&<>/"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f", `"\u0000\u0001\u001f"`},
		{"\x7f\u0080\u0085\u009f\u00a0", `"\u007f\u0080\u0085\u009f` + "\u00a0\""},
		{"\u200a\u200b\u200f\u2010", "\"\u200a\\u200b\\u200f\u2010\""},
		{"\u2027\u2028\u2029\u202a\u202e\u202f", "\"\u2027\\u2028\\u2029\\u202a\\u202e\u202f\""},
		{"\u205f\u2060\u206f\u2070", "\"\u205f\\u2060\\u206f\u2070\""},
		{"\ufeff\ufffe😀é", "\"\\ufeff\ufffe😀é\""},
		{"bad\xffutf8", "\"bad\ufffdutf8\""},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, quoteTXT(tc.in))
		})
	}
	// Without the TXT escapes it is plain JSON.stringify.
	assert.Equal(t, "\"\u2028\x7f\ufeff\"", string(appendJSString(nil, "\u2028\x7f\ufeff", false)))
}

func TestProfileURL(t *testing.T) {
	const origin = "https://service.example"
	ok := map[string]string{
		"":                        "https://service.example/agentic.json",
		"https://service.example": "https://service.example/",
		"https://Service.Example:443/a/../b/agentic.json": "https://service.example/b/agentic.json",
		"https://service.example/nested/agentic.json":     "https://service.example/nested/agentic.json",
		"https://service.example/sp ace.json":             "https://service.example/sp%20ace.json",
		"https://SERVICE.example./agentic.json":           "https://service.example/agentic.json",
		"https://service.example.:443/agentic.json":       "https://service.example/agentic.json",
	}
	for in, want := range ok {
		t.Run("ok "+in, func(t *testing.T) {
			got, err := profileURLFor(origin, in)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	for _, in := range []string{
		"https://other.example/agentic.json", "http://service.example/agentic.json",
		"https://service.example:8443/agentic.json", "https://u:p@service.example/agentic.json",
		"https://service.example/agentic.json?v=1", "https://service.example/agentic.json?",
		"https://service.example/agentic.json#top", "https://service.example/agentic.json#",
		"/agentic.json", "https://www.service.example/agentic.json",
	} {
		t.Run("refused "+in, func(t *testing.T) {
			_, err := profileURLFor(origin, in)
			assert.ErrorIs(t, err, ErrProfileURL)
		})
	}
}

func TestTextErrors(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/agentic-site-example.json"))
	require.NoError(t, err)
	_, err = s.Text("https://elsewhere.example/agentic.json")
	assert.ErrorIs(t, err, ErrProfileURL)
	bad := *s
	bad.Resources = nil
	_, err = bad.Text("")
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = bad.PublicationText("")
	assert.ErrorIs(t, err, ErrInvalid)
}

func TestTextTooLarge(t *testing.T) {
	// A profile within 64 KiB of JSON whose TXT is larger: control characters
	// cost one byte in JSON's UTF-8 but six in TXT ("\u0085" escapes).
	s := &Site{Agentic: Version, Type: TypeSite, Origin: "https://big.example", Name: "Big", Description: "Big",
		Resources: []Resource{{Kind: KindOpenAPI, URL: "https://big.example/o.json", Source: "https://big.example/o.json", Availability: AvailabilityRetrieved}}}
	api := API{Document: "https://big.example/o.json", OpenAPI: "3.1.0"}
	id := strings.Repeat("\u200b", 100) // 3 bytes in JSON, 6 in TXT
	for i := 0; i < 120; i++ {
		api.Operations = append(api.Operations, Operation{Method: "GET", Path: "/p" + strings.Repeat("x", i%10) + string(rune('a'+i%26)) + strings.Repeat("y", i/26), OperationID: id})
	}
	s.APIs = []API{api}
	require.NoError(t, s.Validate())
	_, err := s.Text("")
	assert.ErrorIs(t, err, ErrTextTooLarge)
}

func TestSiteCompareText(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/golden/several-apis.json"))
	require.NoError(t, err)
	t11, err := s.Text("")
	require.NoError(t, err)
	t12, err := s.PublicationText("")
	require.NoError(t, err)
	lines := strings.SplitAfter(string(t11), "\n")
	lines = lines[:len(lines)-1] // SplitAfter leaves "" after the final LF
	replaceLine := func(n int, l string) []byte {
		c := append([]string(nil), lines...)
		c[n-1] = l
		return []byte(strings.Join(c, ""))
	}
	tests := []struct {
		name       string
		txt        []byte
		profileURL string
		want       TextCheck
	}{
		{"1.1 matched", t11, "", TextCheck{Status: TextStatusMatched, Version: "1.1"}},
		{"1.2 matched", t12, "", TextCheck{Status: TextStatusMatched, Version: "1.2"}},
		{"explicit default profile URL", t11, "https://api.multi.example/agentic.json", TextCheck{Status: TextStatusMatched, Version: "1.1"}},
		{"changed name", replaceLine(8, "Name: \"Other\"\n"), "", TextCheck{Status: TextStatusMismatch, Version: "1.1", Line: 8, Want: `Name: "Several APIs"`, Got: `Name: "Other"`}},
		{"no final LF", bytes.TrimSuffix(t11, []byte("\n")), "", TextCheck{Status: TextStatusMismatch, Version: "1.1", Line: len(lines), Want: strings.TrimSuffix(lines[len(lines)-1], "\n"), Got: strings.TrimSuffix(lines[len(lines)-1], "\n") + " <no final LF>"}},
		{"extra final LF", append(append([]byte(nil), t11...), '\n'), "", TextCheck{Status: TextStatusMismatch, Version: "1.1", Line: len(lines) + 1, Want: endOfFile, Got: emptyLine}},
		{"nested profile URL", t11, "https://api.multi.example/v1/agentic.json", TextCheck{Status: TextStatusMismatch, Version: "1.1", Line: 4, Want: "Profile: https://api.multi.example/v1/agentic.json", Got: "Profile: https://api.multi.example/agentic.json"}},
		{"1.2 with another directory", bytes.Replace(t12, []byte("ruagentic.com"), []byte("evil.example"), 1), "", TextCheck{Status: TextStatusMismatch, Version: "1.2", Line: len(lines) + 5, Want: `Reference: "directory" "RUAGENTIC" "https://ruagentic.com"`, Got: `Reference: "directory" "RUAGENTIC" "https://evil.example"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := s.CompareText(tc.profileURL, tc.txt)
			tc.want.Reason = got.Reason
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.want.Status, CheckText(s, tc.profileURL, tc.txt))
			if got.Status == TextStatusMismatch {
				assert.NotEmpty(t, got.Reason)
			}
		})
	}
	t.Run("CRLF", func(t *testing.T) {
		got := s.CompareText("", bytes.ReplaceAll(t11, []byte("\n"), []byte("\r\n")))
		assert.Equal(t, TextStatusMismatch, got.Status)
		assert.Equal(t, 1, got.Line)
		assert.Contains(t, got.Reason, "CR")
	})
	t.Run("unsupported version", func(t *testing.T) {
		got := s.CompareText("", bytes.Replace(t12, []byte("Agentic-Text: 1.2"), []byte("Agentic-Text: 9.9"), 1))
		assert.Equal(t, TextStatusMismatch, got.Status)
		assert.Equal(t, "9.9", got.Version)
		assert.Equal(t, 3, got.Line)
	})
	t.Run("bad profile URL", func(t *testing.T) {
		got := s.CompareText("https://elsewhere.example/agentic.json", t11)
		assert.Equal(t, TextStatusMismatch, got.Status)
		assert.Contains(t, got.Reason, "profile URL")
	})
}
