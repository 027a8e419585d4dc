package problem

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestURLMessageOneWordingPerRule: a URL rule reads the same whichever
// package reports it: the value quoted, then the rule's phrase.
func TestURLMessageOneWordingPerRule(t *testing.T) {
	assert.Equal(t, `"http://a.example/" is not an https URL`, URLMessage(RuleURLHTTPS, "http://a.example/", ""))
	assert.Equal(t, `"x" is not an absolute URL with a host`, URLMessage(RuleURLSyntax, "x", " with a host"))
	long := URLMessage(RuleURLQuery, "https://a.example/?"+string(make([]byte, 200)), "")
	assert.Contains(t, long, `..." has a query`)
	for rule := range urlPhrases {
		assert.NotEqual(t, `"v"`, URLMessage(rule, "v", ""), rule)
	}
}
