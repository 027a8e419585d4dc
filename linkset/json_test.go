package linkset

import (
	"encoding/json"
	"testing"

	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSONStrings compares the string decoding Parse relies on
// (strictjson.DecodeOrdered) with encoding/json's, and the writer's escaping
// (strictjson.AppendString) with a decode of its output.
func TestJSONStrings(t *testing.T) {
	for _, src := range []string{
		`"plain"`, `""`, `"\"\\\/\b\f\n\r\t"`, `"\u00e9\u2028\u0000\u001f"`, `"caf\u00E9 😀 \ud83d\ude00"`,
		`"a\u0041b"`, `"tab	inside"`, `"€ and \u20ac"`,
	} {
		t.Run(src, func(t *testing.T) {
			var want string
			if err := json.Unmarshal([]byte(src), &want); err != nil {
				// Raw control characters are not JSON; the tree refuses them too.
				_, err := strictjson.DecodeOrdered([]byte(src))
				assert.Error(t, err)
				return
			}
			n, err := strictjson.DecodeOrdered([]byte(src))
			require.NoError(t, err)
			assert.Equal(t, want, n.Text)
			var back string
			require.NoError(t, json.Unmarshal(strictjson.AppendString(nil, want), &back))
			assert.Equal(t, want, back)
		})
	}
	assert.Equal(t, "\"a\ufffdb\"", string(strictjson.AppendString(nil, "a\xffb")), "invalid UTF-8 is written as U+FFFD")
	assert.Equal(t, "\"\\u0001\\u001f\x7f\"", string(strictjson.AppendString(nil, "\x01\x1f\x7f")), "control characters are escaped, DEL is not (RFC 8785)")
}
