package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/agentweb/agentweb/safefetch"
)

func TestDemo(t *testing.T) {
	var out bytes.Buffer
	demo(&out)
	got := out.String()
	for _, want := range []string{
		"final     200 https://shop.example/agentic.json from 93.184.215.1:443",
		"header    Content-Type: application/json",
		"body      15 bytes",
		"hop 1     301 https://acme.example/  (from 93.184.215.2:443) -> https://www.acme.example/",
		"final     200 https://www.acme.example/ from 93.184.215.3:443",
		"matches   safefetch.ErrForbiddenAddress",
		`because   10.0.0.7 of "intranet.example" is in 10.0.0.0/8 (Private-Use)`,
		"safefetch.ErrRedirectRefused",
		"matches   safefetch.ErrTooLarge",
	} {
		assert.Contains(t, got, want)
	}
	assert.Equal(t, 5, strings.Count(got, "== "), got)
	assert.Equal(t, 3, strings.Count(got, "REFUSED"), got)
}

func TestFetchRefusesWithoutNetwork(t *testing.T) {
	var out bytes.Buffer
	ok := fetch(&out, safefetch.New(nil), "http://127.0.0.1:1/")
	assert.False(t, ok)
	assert.Contains(t, out.String(), "matches   safefetch.ErrForbiddenURL")
	assert.NotContains(t, out.String(), "FAILED")
	assert.Contains(t, out.String(), `because   rule "address"`)
}
