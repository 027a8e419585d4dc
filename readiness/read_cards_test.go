package readiness

import (
	"testing"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadCard(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		formats []string
		names   []string
	}{
		{name: "our card", doc: `{"name":"S","publishes":{"llms_txt":"https://s.example/llms.txt"},"interfaces":[{"type":"MCP","url":"https://s.example/mcp","auth":"oauth2"}],"auth":{"type":"oauth2","public":["a"],"token_required":["b"]},"contact":{"email":"x@s.example"}}`,
			formats: []string{"agentweb"}, names: []string{"publication", "interface", "sign-in", "contact"}},
		{name: "draft-car", doc: `{"specVersion":"0","site":{"name":"S","url":"https://s.example/","contact":"mailto:a@s.example"},"capabilities":[{"id":"c","endpoint":"https://s.example/api","protocol":"REST","auth":{"type":"none"}}],"access":{"allow":["/"]}}`,
			formats: []string{"draft-car-agents-txt"}, names: []string{"interface", "contact"}},
		{name: "wild-card-ai", doc: `{"agentsJson":"0.1.0","info":{"title":"S","version":"1","description":"d"},"sources":[{"id":"api","path":"https://s.example/openapi.json"}],"flows":[]}`,
			formats: []string{"wild-card-ai"}, names: []string{"interface"}},
		{name: "jmilinovich", doc: `{"version":"1","site_info":{"name":"S"},"authentication":{"required":true,"methods":["oauth2"]},"intents":[{"name":"search","endpoint":"/search"}],"policies":{}}`,
			formats: []string{"jmilinovich"}, names: []string{"interface", "sign-in"}},
		{name: "wrong shapes are ignored", doc: `{"publishes":"x","interfaces":{"a":1},"auth":true,"contact":42,"capabilities":[1,"x",{"id":"no endpoint"}]}`},
		{name: "empty object", doc: `{}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := readCard([]byte(tc.doc))
			require.NoError(t, err)
			require.NotNil(t, c)
			var formats []string
			for _, f := range c.Formats {
				formats = append(formats, string(f))
			}
			assert.Equal(t, tc.formats, formats)
			assert.Equal(t, tc.names, c.Names())
		})
	}
	for _, doc := range []string{`[]`, `"x"`} {
		c, err := readCard([]byte(doc))
		assert.Nil(t, c, "%s is not a card", doc)
		assert.Error(t, err)
	}
}

func TestCanonicalJSON(t *testing.T) {
	assert.Equal(t, canonicalJSON([]byte(`{"b":1,"a":[1.0,"x"]}`)), canonicalJSON([]byte("{ \"a\": [1, \"x\"],\n\"b\": 1 }")))
	assert.Nil(t, canonicalJSON([]byte(`{"a":}`)))
	assert.Nil(t, canonicalJSON([]byte(`{"a":1,"a":2}`)))
}

func FuzzReadCard(f *testing.F) {
	for _, s := range []string{
		`{"name":"S","publishes":{"a":"b"},"interfaces":[{"type":"mcp","url":"u"}],"auth":{"type":"oauth2"},"contact":{"email":"e"}}`,
		`{"site":{"name":"n"},"capabilities":[{"endpoint":"e","auth":{"type":"none"}}]}`,
		`{"info":{},"sources":[{"path":"p"}]}`, `{"site_info":{},"authentication":{"required":false},"intents":[{}]}`, `[]`, `1`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, jerr := strictjson.Decode(b)
		c, err := readCard(b)
		if c == nil {
			if _, ok := v.(map[string]any); ok && jerr == nil {
				t.Fatalf("an object gave no card: %v", err)
			}
			return
		}
		if len(c.Interfaces) > maxCardItems {
			t.Fatalf("%d interfaces kept", len(c.Interfaces))
		}
		c.Names()
		canonicalJSON(b)
	})
}
