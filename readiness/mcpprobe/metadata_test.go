package mcpprobe

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentweb/agentweb/readiness/internal/oauthmeta"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseChallenge(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]string
		ok   bool
	}{
		{"", nil, false},
		{"Basic realm=\"x\"", nil, false},
		{"Bearer", map[string]string{}, true},
		{`Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp"`,
			map[string]string{"resource_metadata": "https://a.example/.well-known/oauth-protected-resource/mcp"}, true},
		{`Basic realm="a, b", Bearer realm="shop", error="invalid_token", Resource_Metadata="https://a.example/m?x=1,2"`,
			map[string]string{"realm": "shop", "error": "invalid_token", "resource_metadata": "https://a.example/m?x=1,2"}, true},
		{`Bearer realm=shop, scope="a b", DPoP algs="ES256"`, map[string]string{"realm": "shop", "scope": "a b"}, true},
		{`Negotiate abc==, bearer error="x\"y"`, map[string]string{"error": `x"y`}, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := parseChallenge(tc.in)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDecodeMetadata(t *testing.T) {
	for _, in := range []string{`[]`, `{"issuer": 1}`, `{"issuer": "a", "issuer": "b"}`, `{`} {
		err := decodeMetadata([]byte(in), &AuthServerMetadata{})
		assert.True(t, errors.Is(err, oauthmeta.ErrMetadata), in)
	}
	m := &AuthServerMetadata{}
	require.NoError(t, decodeMetadata([]byte(as), m))
	assert.True(t, m.HasS256())
}

func FuzzParseChallenge(f *testing.F) {
	for _, s := range []string{"", "Bearer", `Bearer resource_metadata="https://a.example/x"`, `Basic realm="a, b", Bearer error="x\"y"`, `Bearer a=b=, c`, `"`, `Bearer ,,,,=,"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		ps, ok := parseChallenge(v)
		if !ok && ps != nil {
			t.Fatal("params without a challenge")
		}
		if len(ps) > 32 {
			t.Fatalf("%d params", len(ps))
		}
	})
}

func FuzzDecodeMetadata(f *testing.F) {
	for _, s := range []string{prm, as, `{}`, `[]`, `{"authorization_servers": "x"}`, `{"a": {"b": [1, 2, {"c": null}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m := &ProtectedResourceMetadata{}
		if err := decodeMetadata(b, m); err != nil && !errors.Is(err, oauthmeta.ErrMetadata) {
			t.Fatalf("unclassified error %v", err)
		}
		a := &AuthServerMetadata{}
		_ = decodeMetadata(b, a)
		_ = a.HasS256()
	})
}

// TestParseChallengeBounds: parseChallenge reads at most 64 list members
// and keeps at most 32 parameters, as its doc says.
func TestParseChallengeBounds(t *testing.T) {
	var many []string
	for i := range 40 {
		many = append(many, fmt.Sprintf("p%02d=%d", i, i))
	}
	ps, ok := parseChallenge("Bearer " + strings.Join(many, ", "))
	require.True(t, ok)
	assert.Len(t, ps, 32)
	assert.Equal(t, "31", ps["p31"])
	assert.NotContains(t, ps, "p32")

	// Member 0 is the scheme; members 1 to 62 are empty.
	read, ok := parseChallenge("Bearer" + strings.Repeat(",", 63) + "error=x")
	require.True(t, ok)
	assert.Equal(t, map[string]string{"error": "x"}, read, "the 64th member is read")
	unread, ok := parseChallenge("Bearer" + strings.Repeat(",", 64) + "error=x")
	require.True(t, ok)
	assert.Empty(t, unread, "the 65th member is not")
}
