package agentic

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseTextSpecExample(t *testing.T) {
	idx, err := ParseText(readFile(t, "testdata/agentic-site-example.txt"))
	require.NoError(t, err)
	assert.Equal(t, "site", idx.Kind)
	assert.Equal(t, "1.1", idx.TextVersion)
	assert.Equal(t, "https://service.example/agentic.json", idx.Profile)
	assert.Equal(t, "1.1.0", idx.ProfileVersion)
	assert.Equal(t, []Resource{{Kind: KindDocumentation, URL: "https://service.example/docs", Source: "https://service.example/docs", Availability: AvailabilityRetrieved}}, idx.Resources)
	s, err := idx.Site()
	require.NoError(t, err)
	want, err := ParseSite(readFile(t, "testdata/agentic-site-example.json"))
	require.NoError(t, err)
	assert.Equal(t, want, s)
}

func TestParseTextAction(t *testing.T) {
	idx, err := ParseText(readFile(t, "testdata/action/tickets.txt"))
	require.NoError(t, err)
	assert.Equal(t, "action", idx.Kind)
	assert.Equal(t, "1.0", idx.TextVersion)
	assert.Equal(t, []TextAction{{ID: "create-ticket", Description: "Create a support ticket and verify the original result."}}, idx.Actions)
	_, err = idx.Site()
	assert.ErrorIs(t, err, ErrActionProfile)
}

func TestParseTextReferences(t *testing.T) {
	s, err := ParseSite(readFile(t, "testdata/golden/every-kind.json"))
	require.NoError(t, err)
	txt, err := s.PublicationText("")
	require.NoError(t, err)
	idx, err := ParseText(txt)
	require.NoError(t, err)
	assert.Equal(t, projectReferences(), idx.References)
	assert.Equal(t, "1.2", idx.TextVersion)
}

func TestParseTextUnknownFieldsKept(t *testing.T) {
	txt := strings.Replace(string(readFile(t, "testdata/agentic-site-example.txt")),
		"Source: \"https://service.example/docs\"\n",
		"Source: \"https://service.example/docs\"\nLanguage: \"en\"\n", 1)
	idx, err := ParseText([]byte(txt))
	require.NoError(t, err)
	assert.Equal(t, []TextUnknown{{Line: 14, Field: "Language", Value: `"en"`}}, idx.Unknown)
}

func TestParseTextErrors(t *testing.T) {
	good := string(readFile(t, "testdata/agentic-site-example.txt"))
	tests := []struct {
		name string
		txt  string
		line int
	}{
		{"empty", "", 0},
		{"no final LF", strings.TrimSuffix(good, "\n"), 0},
		{"CR", strings.Replace(good, "Type: site\n", "Type: site\r\n", 1), 6},
		{"bad UTF-8", good[:20] + "\xff" + good[20:], 0},
		{"too large", good + strings.Repeat("#", maxTextBytes) + "\n", 0},
		{"wrong first line", "# Something else\n", 1},
		{"unsupported version", strings.Replace(good, "Agentic-Text: 1.1", "Agentic-Text: 2.0", 1), 3},
		{"header out of order", strings.Replace(good, "Profile-Version: 1.1.0\nType: site\n", "Type: site\nProfile-Version: 1.1.0\n", 1), 5},
		{"unquoted name", strings.Replace(good, `Name: "Example service"`, `Name: Example service`, 1), 8},
		{"unterminated", strings.Replace(good, `Name: "Example service"`, `Name: "Example service`, 1), 8},
		{"raw control in string", strings.Replace(good, `Name: "Example service"`, "Name: \"Example\x01\"", 1), 8},
		{"trailing junk after quote", strings.Replace(good, `Name: "Example service"`, `Name: "Example" x`, 1), 8},
		{"missing header blank", strings.Replace(good, "documentation.\"\n\n", "documentation.\"\n", 1), 10},
		{"double blank", strings.Replace(good, "\nResource:", "\n\nResource:", 1), 11},
		{"ends with blank", good + "\n", 14},
		{"resource one value", strings.Replace(good, `Resource: "documentation" "https://service.example/docs"`, `Resource: "documentation"`, 1), 11},
		{"resource three values", strings.Replace(good, `Resource: "documentation" "https://service.example/docs"`, `Resource: "a" "b" "c"`, 1), 11},
		{"double space", strings.Replace(good, `"documentation" "https`, `"documentation"  "https`, 1), 11},
		{"missing availability", strings.Replace(good, "Availability: retrieved\n", "", 1), 12},
		{"action record in site", strings.Replace(good, `Resource: "documentation" "https://service.example/docs"`, `Action: "x"`, 1), 11},
		{"reference in 1.1", good + "\nReference: \"a\" \"b\" \"c\"\nReference-Description: \"d\"\n", 15},
		{"operation outside API", good + "\nOperation: \"GET\" \"/\"\n", 15},
		{"bad operation", good + "\nOpenAPI: \"https://service.example/o.json\"\nOpenAPI-Version: \"3.1.0\"\nOperation: \"GET\"\n", 17},
		{"junk line in record", strings.Replace(good, "Availability: retrieved\n", "Availability: retrieved\njunk\n", 1), 13},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			idx, err := ParseText([]byte(tc.txt))
			assert.Nil(t, idx)
			var se *TextSyntaxError
			require.ErrorAs(t, err, &se)
			assert.ErrorIs(t, err, ErrTextSyntax)
			assert.Equal(t, tc.line, se.Line, "message: %s", se.Message)
		})
	}
}
