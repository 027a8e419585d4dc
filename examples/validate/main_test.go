package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func runJSON(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	var m map[string]any
	if stdout.Len() > 0 {
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &m), stdout.String())
	}
	return code, m, stderr.String()
}

// TestValidateDetectsAndValidatesFiveKinds: one program validates any of
// the five documents from a file, detecting its kind, and prints the one
// shape every validator program prints.
func TestValidateDetectsAndValidatesFiveKinds(t *testing.T) {
	tests := []struct {
		kind, file string
		// break makes the document invalid.
		breakIt func(string) string
	}{
		{"agentic_site", "../../agentic/testdata/valid/shop.json", func(s string) string { return strings.Replace(s, `"https://`, `"http://`, 1) }},
		{"openagent", "../../openagent/testdata/openagent-example.json", func(s string) string { return strings.Replace(s, `"0.1"`, `"1.2"`, 1) }},
		{"knowledge_linkset", "../../linkset/testdata/knowledge-linkset-appendix-a-reduced.json", func(s string) string { return strings.Replace(s, `"https://`, `"ftp://`, 1) }},
		{"agent_signup", "../../agentsignup/testdata/agent-signup-example.json", func(s string) string { return strings.Replace(s, `"https://`, `"http://`, 1) }},
		{"agents_json", "../../readiness/agentsjson/testdata/method-shop.json", nil},
	}
	dir := t.TempDir()
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			data, err := os.ReadFile(tc.file)
			require.NoError(t, err)
			code, m, stderr := runJSON(t, tc.file)
			require.Equal(t, 0, code, "%v %s", m, stderr)
			assert.Equal(t, tc.kind, m["kind"])
			assert.Equal(t, true, m["valid"])
			assert.Equal(t, tc.file, m["source"])
			keys := slices.Sorted(func(yield func(string) bool) {
				for k := range m {
					if !yield(k) {
						return
					}
				}
			})
			assert.Subset(t, []string{"details", "kind", "problems", "source", "valid"}, keys, "the one shape")

			if tc.breakIt == nil {
				return
			}
			bad := filepath.Join(dir, tc.kind+".json")
			require.NoError(t, os.WriteFile(bad, []byte(tc.breakIt(string(data))), 0o644))
			code, m, _ = runJSON(t, bad)
			assert.Equal(t, 1, code)
			assert.Equal(t, tc.kind, m["kind"])
			assert.Equal(t, false, m["valid"])
			require.NotEmpty(t, m["problems"])
			for _, p := range m["problems"].([]any) {
				assert.NotEmpty(t, p.(map[string]any)["section"], "%v cites its section", p)
			}

			code, m, _ = runJSON(t, "-kind", tc.kind, bad)
			assert.Equal(t, 1, code)
			assert.Equal(t, tc.kind, m["kind"], "-kind names it")
		})
	}
}

func TestValidateUsage(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.json")
	require.NoError(t, os.WriteFile(other, []byte(`[1, 2]`), 0o644))
	for _, args := range [][]string{nil, {other}, {"-kind", "nope", other}, {filepath.Join(dir, "missing.json")}} {
		code, _, stderr := runJSON(t, args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.NotEmpty(t, stderr)
	}
}
