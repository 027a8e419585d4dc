package cli

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestValidateOneShapeForEveryKind: whatever the kind, and valid or not,
// a validation prints the same members, so the validator programs print
// one JSON shape.
func TestValidateOneShapeForEveryKind(t *testing.T) {
	for _, kind := range append(slices.Clone(Kinds), KindAgenticAction) {
		for _, doc := range []string{`{}`, `not json`} {
			v := Validate("f.json", kind, []byte(doc))
			b, err := json.Marshal(v)
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(b, &m))
			delete(m, "details")
			assert.Equal(t, []string{"kind", "problems", "source", "valid"}, slices.Sorted(maps.Keys(m)), "%s %s", kind, doc)
			assert.False(t, v.Valid, "%s %s", kind, doc)
			assert.Equal(t, ExitInvalid, v.Code())
		}
	}
	k, err := DetectKind([]byte(`{"agentic": "1.0.0", "origin": "https://a.example", "actions": []}`))
	require.NoError(t, err)
	assert.Equal(t, KindAgenticSite, k)
	assert.Equal(t, KindAgenticAction, Validate("a.json", k, []byte(`{"agentic": "1.0.0", "origin": "https://a.example", "actions": []}`)).Kind)
}
