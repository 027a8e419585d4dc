package schema

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentweb/agentweb/internal/strictjson"
)

// The spec packages' schemas, copied into testdata/agreement as
// NAME.schema.json (this package imports none of them), each with
// NAME.docs.json: {"valid": {label: document}, "invalid": {label: document}},
// the package's corpus and the edge cases of its constraints. The packages
// rely on Validate's fast checker alone for speed, so the checker must agree
// with the library on every one of these documents and must answer a certain
// yes for the valid ones. Each package has a test that its embedded schema is
// byte-identical to the copy here.

type agreementCase struct {
	name   string
	schema *Schema
	valid  map[string]any
	bad    map[string]any
}

func agreementCases(t testing.TB) []agreementCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "agreement", "*.schema.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out []agreementCase
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".schema.json")
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		s, err := Compile("https://schemas.agentweb.invalid/agreement/"+name+".json", src)
		require.NoError(t, err, name)
		data, err := os.ReadFile(filepath.Join("testdata", "agreement", name+".docs.json"))
		require.NoError(t, err, name)
		tree, err := strictjson.Decode(data)
		require.NoError(t, err, name)
		groups, ok := tree.(map[string]any)
		require.True(t, ok, name)
		valid, ok1 := groups["valid"].(map[string]any)
		bad, ok2 := groups["invalid"].(map[string]any)
		require.True(t, ok1 && ok2, "%s.docs.json needs objects valid and invalid", name)
		require.NotEmpty(t, valid, name)
		require.NotEmpty(t, bad, name)
		out = append(out, agreementCase{name: name, schema: s, valid: valid, bad: bad})
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestFastCheckerAgreesOnPackageSchemas checks the fast checker against the
// library on every spec package schema and its documents.
func TestFastCheckerAgreesOnPackageSchemas(t *testing.T) {
	for _, c := range agreementCases(t) {
		t.Run(c.name, func(t *testing.T) {
			require.NotNil(t, c.schema.fast, "the fast checker must mirror the %s schema, or its Parse loses the fast path", c.name)
			for _, label := range sortedKeys(c.valid) {
				doc := c.valid[label]
				t.Run("valid/"+label, func(t *testing.T) {
					require.NoError(t, c.schema.s.Validate(doc), "the library must accept this document")
					assert.Equal(t, yes, c.schema.fast.check(doc, 0), "the fast checker must decide a valid document")
					assert.Nil(t, c.schema.Validate(doc))
				})
			}
			for _, label := range sortedKeys(c.bad) {
				doc := c.bad[label]
				t.Run("invalid/"+label, func(t *testing.T) {
					require.Error(t, c.schema.s.Validate(doc), "the library must refuse this document")
					assert.NotEqual(t, yes, c.schema.fast.check(doc, 0), "the fast checker accepts an invalid document")
					assert.NotEmpty(t, c.schema.Validate(doc))
				})
			}
		})
	}
}
