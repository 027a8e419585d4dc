package oauthmeta

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWellKnown(t *testing.T) {
	for in, want := range map[string][2]string{
		"https://a.example":         {"https://a.example/.well-known/openid-configuration", ""},
		"https://a.example/":        {"https://a.example/.well-known/openid-configuration", ""},
		"https://a.example/tenant1": {"https://a.example/.well-known/openid-configuration/tenant1", "https://a.example/tenant1/.well-known/openid-configuration"},
		"https://a.example:8443/t/": {"https://a.example:8443/.well-known/openid-configuration/t", "https://a.example:8443/t/.well-known/openid-configuration"},
	} {
		got, ok := WellKnownInsert(in, "openid-configuration")
		assert.True(t, ok, in)
		assert.Equal(t, want[0], got, in)
		app, ok := WellKnownAppend(in, "openid-configuration")
		assert.Equal(t, want[1] != "", ok, in)
		assert.Equal(t, want[1], app, in)
	}
	_, ok := WellKnownInsert("not a url", "x")
	assert.False(t, ok)
}

// TestSameIdentifierAllowsOneTerminatingSlash: both spellings give one
// well-known URL (RFC 8414 Section 3.1), so either is the issuer the URL
// was built from; anything else is not identical (Section 3.3).
func TestSameIdentifierAllowsOneTerminatingSlash(t *testing.T) {
	for _, tc := range []struct {
		got, want string
		same      bool
	}{
		{"https://a.example", "https://a.example", true},
		{"https://a.example/", "https://a.example", true},
		{"https://a.example/t1", "https://a.example/t1/", true},
		{"https://A.example", "https://a.example", false},
		{"https://a.example/t1", "https://a.example/t2", false},
		{"", "", false},
	} {
		u1, _ := WellKnownInsert(tc.got, "oauth-authorization-server")
		u2, _ := WellKnownInsert(tc.want, "oauth-authorization-server")
		if tc.same {
			assert.Equal(t, u1, u2, "one well-known URL for %q and %q", tc.got, tc.want)
		}
		assert.Equal(t, tc.same, SameIdentifier(tc.got, tc.want), "%q %q", tc.got, tc.want)
	}
}

type asMeta struct {
	Issuer                        string   `json:"issuer"`
	CodeChallengeMethodsSupported []string `json:"code_challenge_methods_supported"`
}

const as = `{"issuer": "https://auth.example", "authorization_endpoint": "https://auth.example/authorize", "token_endpoint": "https://auth.example/token", "code_challenge_methods_supported": ["S256"]}`

func TestDecode(t *testing.T) {
	for _, in := range []string{`[]`, `{"issuer": 1}`, `{"issuer": "a", "issuer": "b"}`, `{`} {
		err := Decode([]byte(in), &asMeta{})
		assert.True(t, errors.Is(err, ErrMetadata), in)
	}
	m := &asMeta{}
	require.NoError(t, Decode([]byte(as), m))
	assert.Equal(t, []string{"S256"}, m.CodeChallengeMethodsSupported)
}

func TestMissingEndpoints(t *testing.T) {
	assert.Empty(t, MissingEndpoints("https://a.example/authorize", "https://a.example/token"))
	assert.Equal(t, []string{"no authorization_endpoint", "no token_endpoint"}, MissingEndpoints("", ""))
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{as, `{}`, `[]`, `{"authorization_servers": "x"}`, `{"a": {"b": [1, 2, {"c": null}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m := &asMeta{}
		if err := Decode(b, m); err != nil && !errors.Is(err, ErrMetadata) {
			t.Fatalf("unclassified error %v", err)
		}
	})
}
