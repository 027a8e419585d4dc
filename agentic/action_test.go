package agentic

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestActionProfilePreservedAndIndexed(t *testing.T) {
	raw := readFile(t, "testdata/action/tickets.json")
	assert.True(t, isActionProfile(raw))
	assert.False(t, isActionProfile(readFile(t, "testdata/agentic-site-example.json")))
	assert.False(t, isActionProfile([]byte(`{"agentic":"1.0.0","agentic":"1.0.0"}`)))
	p, err := ParseActionProfile(raw)
	require.NoError(t, err)
	assert.Equal(t, raw, p.Bytes(), "byte for byte")
	txt, err := p.Text("")
	require.NoError(t, err)
	assert.Equal(t, string(readFile(t, "testdata/action/tickets.txt")), string(txt))
	pub, err := p.PublicationText("")
	require.NoError(t, err)
	assert.Contains(t, string(pub), "Agentic-Text: 1.2\n")
	assert.Equal(t, TextStatusMatched, p.CompareText("", txt).Status)
	assert.Equal(t, "1.2", p.CompareText("", pub).Version)
	c := p.CompareText("", append(txt[:len(txt)-2:len(txt)-2], "!\"\n"...))
	assert.Equal(t, TextStatusMismatch, c.Status)
	assert.Equal(t, 10, c.Line)
	_, err = p.Text("https://other.example/agentic.json")
	assert.ErrorIs(t, err, ErrProfileURL)
}

func TestParseActionProfileErrors(t *testing.T) {
	tests := map[string]struct {
		doc  string
		rule string
	}{
		"site profile":      {`{"agentic":"1.1.0","type":"site","origin":"https://a.example","actions":[]}`, RuleActionVersion},
		"type present":      {`{"agentic":"1.0.0","type":"action","origin":"https://a.example","actions":[]}`, RuleActionVersion},
		"origin http":       {`{"agentic":"1.0.0","origin":"http://a.example","actions":[]}`, RuleActionOrigin},
		"origin missing":    {`{"agentic":"1.0.0","actions":[]}`, RuleActionOrigin},
		"actions missing":   {`{"agentic":"1.0.0","origin":"https://a.example"}`, RuleActionList},
		"action no id":      {`{"agentic":"1.0.0","origin":"https://a.example","actions":[{"description":"x"}]}`, RuleActionList},
		"action not object": {`{"agentic":"1.0.0","origin":"https://a.example","actions":["x"]}`, RuleActionList},
		"not an object":     {`[]`, RuleSchemaType},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseActionProfile([]byte(tc.doc))
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, []string{tc.rule}, ve.Rules())
		})
	}
}
