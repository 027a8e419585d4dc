package agentsjson

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

// TestParsePublished reads the published cards of testdata/README.md.
func TestParsePublished(t *testing.T) {
	for _, tc := range []struct {
		file       string
		format     Format
		name       string
		interfaces []Interface
		auth, pol  bool
		contact    *Contact
		extra      []string
	}{
		{file: "wildcard-linkup.json", format: FormatWildCard, name: "Link Up API Integration Agents",
			interfaces: []Interface{{ID: "linkup", Type: "openapi", URL: "https://gist.githubusercontent.com/yagnyaPatel/670dd9fec7d101b76f92a2c4f7acfba5/raw/5fd960dfdebd35016dc285bc52aa7051576b1f66/linkup.openapi.yaml", Source: FormatWildCard}},
			extra:      []string{"agentsJson", "overrides"}},
		{file: "wildcard-alpaca.json", format: FormatWildCard, name: "Alpaca Trading and Market Data API Methods",
			interfaces: []Interface{
				{ID: "alpacatrading", Type: "openapi", URL: "https://raw.githubusercontent.com/wild-card-ai/agents-json/refs/heads/integrations/alpaca/agents_json/alpaca/trading_openapi.yaml", Source: FormatWildCard},
				{ID: "alpacamarketdata", Type: "openapi", URL: "https://raw.githubusercontent.com/wild-card-ai/agents-json/refs/heads/integrations/alpaca/agents_json/alpaca/marketdata_openapi.yaml", Source: FormatWildCard},
			},
			extra: []string{"agentsJson"}},
		{file: "flows-source-singular.json", format: FormatWildCard, name: "Example Shop",
			interfaces: []Interface{{Type: "openapi", URL: "/openapi.json", Source: FormatWildCard}}},
		{file: "siteinfo-shop.json", format: FormatSiteInfo, name: "ExecuSystems", auth: true, pol: true,
			interfaces: []Interface{
				{ID: "browse_products", Type: "intent", URL: "/products", Source: FormatSiteInfo},
				{ID: "browse_products", Type: "intent", URL: "/products/search", Source: FormatSiteInfo},
				{ID: "shopping_cart", Type: "intent", URL: "/cart", Source: FormatSiteInfo},
				{ID: "customer_service", Type: "intent", URL: "/contact", Source: FormatSiteInfo},
			}, extra: []string{"version"}},
		{file: "agentstxt-acme.json", format: FormatAgentsTxt, name: "Acme Ceramics", contact: &Contact{Email: "support@acmeceramics.example.com"},
			interfaces: []Interface{
				{ID: "search", URL: "/.well-known/agents/api/search", Source: FormatAgentsTxt},
				{ID: "cart.add", URL: "/.well-known/agents/api/cart", Source: FormatAgentsTxt},
				{ID: "checkout", URL: "/.well-known/agents/api/checkout", Source: FormatAgentsTxt},
			}, extra: []string{"docs_url", "protocol_version", "rate_limit", "session"}},
		{file: "method-shop.json", format: FormatMethod, name: "Example Shop", auth: true, contact: &Contact{Email: "agents@shop.example", URL: "https://shop.example/contact"},
			interfaces: []Interface{
				{Type: "mcp", URL: "https://shop.example/mcp", Auth: "oauth2", Source: FormatMethod},
				{Type: "openapi", URL: "https://shop.example/openapi.json", Auth: "none", Source: FormatMethod},
			}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := Parse(readTestdata(t, tc.file))
			require.NoError(t, err)
			assert.Equal(t, tc.format, c.Format)
			assert.Equal(t, []Format{tc.format}, c.Formats)
			assert.Equal(t, tc.name, c.Name)
			assert.Equal(t, tc.interfaces, c.Interfaces)
			assert.Equal(t, tc.auth, c.Auth != nil)
			assert.Equal(t, tc.pol, c.Policies)
			assert.Equal(t, tc.contact, c.Contact)
			assert.Empty(t, c.Skipped)
			assert.Empty(t, c.Foreign)
			var extra []string
			for k := range c.Extra {
				extra = append(extra, k)
			}
			assert.ElementsMatch(t, tc.extra, extra)
		})
	}
}

// shapeCase is a document the reader reads around, and what it makes of it.
type shapeCase struct {
	name, doc  string
	format     Format
	interfaces int
	foreign    string
	skipped    []string // pointers
}

// testShapes parses each case's document and checks what the reader made of it.
func testShapes(t *testing.T, cases []shapeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.doc))
			require.NoError(t, err)
			assert.Equal(t, tc.format, c.Format)
			assert.Len(t, c.Interfaces, tc.interfaces)
			assert.Equal(t, tc.foreign, c.Foreign)
			var ptrs []string
			for _, p := range c.Skipped {
				ptrs = append(ptrs, p.Pointer)
				assert.Equal(t, SeverityNotice, p.Severity)
			}
			assert.Equal(t, tc.skipped, ptrs)
		})
	}
}

// TestParseShapes holds documents of no card format; each format's shapes
// are tested beside its reader.
func TestParseShapes(t *testing.T) {
	testShapes(t, []shapeCase{
		{"A2A agent card", `{"name":"Agent","skills":[{"id":"s"}],"url":"https://a.example/a2a"}`, "", 0, "an A2A agent card", nil},
		{"MCP server card", `{"serverInfo":{"name":"s"},"transport":{"type":"streamable-http","endpoint":"/mcp"}}`, "", 0, "an MCP server card", nil},
		{"OpenAPI document", `{"openapi":"3.1.0","info":{"title":"t"}}`, "", 0, "an OpenAPI document", nil},
		{"Agentic Site Profile", `{"agentic":"1.1","origin":"https://a.example"}`, "", 0, "an Agentic Site Profile", nil},
		{"empty object", `{}`, "", 0, "", nil},
	})
}

func TestParseBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"interfaces":[`)
	for i := range MaxItems + 10 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"openapi","url":"/x"}`)
	}
	b.WriteString(`]}`)
	c, err := Parse([]byte(b.String()))
	require.NoError(t, err)
	assert.Len(t, c.Interfaces, MaxItems)
	require.NotEmpty(t, c.Skipped)
	assert.Equal(t, RuleLimit, c.Skipped[0].Rule)
}

func TestParseErrors(t *testing.T) {
	_, err := Parse([]byte(`{"a":1,"a":2}`))
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrInvalid)
	ve := (*ValidationError)(nil)
	require.ErrorAs(t, err, &ve)
	assert.True(t, ve.Has("json-duplicate-member"), ve.Error())

	_, err = Parse([]byte(`[]`))
	assert.ErrorIs(t, err, ErrNotObject)
	assert.NotErrorIs(t, err, ErrInvalid)
}

// A card that states it offers no tool or API keeps saying so through a
// round trip; a card that does not say stays silent.
func TestNoInterfacesStated(t *testing.T) {
	c, err := Parse([]byte(`{"name":"Tea","interfaces":[],"contact":{"email":"a@tea.example"}}`))
	require.NoError(t, err)
	require.NotNil(t, c.Interfaces)
	assert.Empty(t, c.Interfaces)
	b, err := c.Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(b), `"interfaces": []`)
	c, err = Parse([]byte(`{"name":"Tea","contact":{"email":"a@tea.example"}}`))
	require.NoError(t, err)
	assert.Nil(t, c.Interfaces)
	b, err = c.Marshal()
	require.NoError(t, err)
	assert.NotContains(t, string(b), `interfaces`)
}
