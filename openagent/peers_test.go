package openagent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/schema"
)

// The LogicSRC reference's own vectors (testdata/peers/logicsrc, see its
// SOURCES file): its fixture and the OpenAgent page's example are valid
// profiles, and its agent schema is the one this package embeds.
func TestPeerLogicSRCVectors(t *testing.T) {
	dir := filepath.Join("testdata", "peers", "logicsrc")
	t.Run("fixture agent.json is valid", func(t *testing.T) {
		p, err := Parse(readPeer(t, dir, "agent.json"))
		require.NoError(t, err)
		assert.Equal(t, "qa-agent-01.coinpay", p.DID)
		assert.Equal(t, PricingPerTask, p.Pricing.Model)
	})
	t.Run("the page's example is valid", func(t *testing.T) {
		p, err := Parse(readPeer(t, dir, "openagent-doc-example.json"))
		require.NoError(t, err)
		assert.Equal(t, "research.coinpay", p.DID)
	})
	t.Run("agent.yaml is the same fixture", func(t *testing.T) {
		// Not parsed: OpenAgent 0.1 profiles are JSON ("The record"); the
		// YAML file is the reference's authoring form of agent.json. Check
		// that the two still say the same, line by line.
		yaml := string(readPeer(t, dir, "agent.yaml"))
		var obj map[string]any
		require.NoError(t, json.Unmarshal(readPeer(t, dir, "agent.json"), &obj))
		for _, k := range []string{"type", "name", "did", "owner_did", "description"} {
			assert.Contains(t, yaml, k+": "+obj[k].(string))
		}
		for _, s := range obj["permissions_requested"].([]any) {
			assert.Contains(t, yaml, "  - "+s.(string))
		}
	})
	t.Run("the embedded schema is the reference's", func(t *testing.T) {
		// The same keywords, member for member; only $id, title and
		// description differ, and the reference's $defs/did is inlined.
		ref := readPeer(t, dir, "logicsrc-agent.schema.json")
		var a, b map[string]any
		require.NoError(t, json.Unmarshal(ref, &a))
		require.NoError(t, json.Unmarshal(schemaJSON, &b))
		did := a["$defs"].(map[string]any)["did"]
		props := a["properties"].(map[string]any)
		props["did"], props["owner_did"] = did, did
		// The reference types the pricing model as a string as well as
		// enumerating it; the enum alone already implies it.
		pm := props["pricing"].(map[string]any)["properties"].(map[string]any)["model"].(map[string]any)
		delete(pm, "type")
		for _, m := range []map[string]any{a, b} {
			delete(m, "$id")
			delete(m, "title")
			delete(m, "description")
			delete(m, "$defs")
		}
		assert.Equal(t, a, b)
	})
}

// TestPeerLogicSRCWebhookURL holds webhook_url to the reference's outcome:
// the reference validates "format": "uri" with ajv-formats, whose uri is
// the RFC 3986 grammar (Section 3), so a space or a non-ASCII host is
// refused; a Go URL parser accepts both. The reference schema compiled by
// this module's schema library (Go's parser for "uri") is shown to accept
// what the reference refuses, so the RFC 3986 check of Parse is what makes
// the two agree.
func TestPeerLogicSRCWebhookURL(t *testing.T) {
	refSchema := schema.MustCompile("https://schemas.logicsrc.com/logicsrc-agent.schema.json",
		readPeer(t, filepath.Join("testdata", "peers", "logicsrc"), "logicsrc-agent.schema.json"))
	tests := []struct {
		url       string
		reference bool // the outcome of Ajv with ajv-formats "uri": valid
		goLenient bool // the outcome of the Go schema library on the reference schema
	}{
		{"https://hooks.example.com/agents/research", true, true},
		{"https://hooks.example.com/a?x=1&y=2#frag", true, true},
		{"https://[2001:db8::1]:8443/hook", true, true},
		{"https://user@hooks.example.com/", true, true},
		{"https://xn--bcher-kva.example/hook", true, true},
		{"https://hooks.example.com/a%20b", true, true},
		{"urn:isbn:0451450523", true, true},
		{"mailto:ops@example.com", true, true},
		{"https://hooks.example.com/with space", false, true},
		{"https://bücher.example/hook", false, true},
		{"https://hooks.example.com/ü", false, true},
		{"https://hooks.example.com/a?x=<1>", false, true},
		{"https://hooks.example.com/a%2", false, false},
		{"https://[::1%25eth0]/", false, false},
		{"https://host:port/", false, false},
		{"relative/path", false, false},
		{"//hooks.example.com/x", false, false},
		{"1https://x.example/", false, false},
		{"", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.url, func(t *testing.T) {
			doc := map[string]any{"type": Type, "version": Version, "name": "Hook agent", "did": "hook.example",
				"owner_did": "ops.example", "skills": []any{"hooks"}, "permissions_requested": []any{}, "webhook_url": tc.url}
			data, err := json.Marshal(doc)
			require.NoError(t, err)
			_, err = Parse(data)
			if tc.reference {
				assert.NoError(t, err)
			} else if assert.Error(t, err) {
				ve := asValidationError(t, err)
				assert.Equal(t, []string{RuleURLSyntax}, ve.Rules())
				assert.Equal(t, "/webhook_url", ve.Problems[0].Pointer)
			}
			var tree any
			require.NoError(t, json.Unmarshal(data, &tree))
			assert.Equal(t, tc.goLenient, len(refSchema.Validate(tree)) == 0, "Go's uri format")
		})
	}
}

func asValidationError(t *testing.T, err error) *ValidationError {
	t.Helper()
	ve, ok := err.(*ValidationError)
	require.True(t, ok, "%T", err)
	return ve
}

func readPeer(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	return []byte(strings.TrimPrefix(string(b), "\ufeff"))
}
