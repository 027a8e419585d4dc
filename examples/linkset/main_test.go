package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidateExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	a := write("a.json", `{"linkset":[{"anchor":"https://a.example/","describedby":[{"href":"https://a.example/g.jsonld","type":"application/ld+json"}],"https://w3id.org/agentic-system-core/rel#peer":[{"href":"https://b.example/.well-known/knowledge-linkset"}]}]}`+"\n")
	b := write("b.json", `{"linkset":[{"anchor":"https://b.example/","describedby":[{"href":"https://b.example/g.jsonld","type":"application/ld+json"}],"https://w3id.org/agentic-system-core/rel#peer":[{"href":"https://a.example/.well-known/knowledge-linkset"}]}]}`+"\n")
	c := write("c.json", `{"linkset":[{"anchor":"https://c.example/","describedby":[{"href":"https://c.example/g.jsonld","type":"application/ld+json"}]}]}`)
	bad := write("bad.json", `{"linkset":[],"extra":1}`)

	outFile, err := os.Create(filepath.Join(dir, "stdout.jsonl"))
	require.NoError(t, err)
	defer outFile.Close()
	stdout := os.Stdout
	os.Stdout = outFile
	defer func() { os.Stdout = stdout }()

	tests := []struct {
		name string
		args []string
		want int
	}{
		{"conformant file", []string{a}, 0},
		{"strict, canonical", []string{"-strict", a}, 0},
		{"strict, no final LF", []string{"-strict", c}, 1},
		{"not conformant", []string{bad}, 1},
		{"mutual peers", []string{"-peer", a, b}, 0},
		{"one-sided peers", []string{"-peer", a, c}, 1},
		{"missing file", []string{filepath.Join(dir, "none.json")}, 2},
		{"no argument", nil, 2},
		{"-peer with one file", []string{"-peer", a}, 2},
		{"http without dev mode", []string{"http://127.0.0.1:1/"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, validate(tc.args))
		})
	}
	assert.Equal(t, 2, serve([]string{dir}), "a directory without a discovery document")

	// The reports written are JSON with snake_case member names, as every
	// result type of the SDK is.
	written, err := os.ReadFile(outFile.Name())
	require.NoError(t, err)
	require.NotEmpty(t, written)
	nonSnake, err := cli.NonSnakeKeys(written)
	require.NoError(t, err)
	assert.Empty(t, nonSnake, "JSON members not in snake_case")
}
