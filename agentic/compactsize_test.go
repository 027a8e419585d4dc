package agentic

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompactSizeOfDecidesAsCompactSize: the size rule reads the bytes
// instead of writing the tree when that cannot change the verdict. On
// pretty-printed, escaped and oversized documents, it finds a profile over
// the limit exactly when writing the tree does. It is exact when it reports
// an excess or the document has no escape.
func TestCompactSizeOfDecidesAsCompactSize(t *testing.T) {
	maximal := maximalSite(t)
	var indented bytes.Buffer
	require.NoError(t, json.Indent(&indented, maximal, "", "    "))
	escaped := strings.ReplaceAll(string(maximal), `"https:`, `"\u0068ttps\/`)
	big := strings.Replace(string(maximal), `"description":"`, `"description":"`+strings.Repeat("x", 70<<10), 1)
	bigEscaped := strings.Replace(string(maximal), `"description":"`, `"description":"`+strings.Repeat(`\u00e9`, 12<<10), 1)
	bigShrinks := strings.Replace(string(maximal), `"description":"`, `"description":"`+strings.Repeat(`\/`, 40<<10), 1)
	for name, doc := range map[string]string{
		"maximal": string(maximal), "indented": indented.String(), "escaped": escaped,
		"over the limit": big, "over the limit, escaped": bigEscaped, "under once unescaped": bigShrinks,
		"minimal": string(readFile(t, "testdata/valid/minimal.json")), "shop": string(readFile(t, "testdata/valid/shop.json")),
	} {
		t.Run(name, func(t *testing.T) {
			tree, err := strictjson.Decode([]byte(doc))
			require.NoError(t, err)
			exact := compactSize(tree)
			got := compactSizeOf([]byte(doc), tree)
			assert.GreaterOrEqual(t, got, exact, "an upper bound")
			assert.Equal(t, exact > maxProfileBytes, got > maxProfileBytes, "the same verdict")
			if got > maxProfileBytes || !strings.Contains(doc, `\`) {
				assert.Equal(t, exact, got)
			}
		})
	}
}
