package oauthmeta

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestResourceComparedAfterRFC3986Normalization: a server that writes its
// host in capitals, its default port or a percent-encoded unreserved
// character names the same resource (RFC 9728 Section 3.3, RFC 3986
// Section 6); another path, query or host does not.
func TestResourceComparedAfterRFC3986Normalization(t *testing.T) {
	const endpoint = "https://mcp.example/mcp"
	tests := []struct {
		resource string
		same     bool
	}{
		{"https://mcp.example/mcp", true},
		{"https://mcp.example/mcp/", true},
		{"https://MCP.Example/mcp", true},
		{"HTTPS://mcp.example:443/mcp", true},
		{"https://mcp.example./mcp", true},
		{"https://mcp.example/%6Dcp", true},
		{"https://mcp.example/MCP", false},
		{"https://mcp.example/mcp?x=1", false},
		{"https://mcp.example/mcp#f", false},
		{"https://mcp.example:8443/mcp", false},
		{"http://mcp.example/mcp", false},
		{"https://other.example/mcp", false},
		{"https://user@mcp.example/mcp", false},
		{"", false},
		{"/mcp", false},
	}
	for _, tc := range tests {
		t.Run(tc.resource, func(t *testing.T) {
			assert.Equal(t, tc.same, SameResource(tc.resource, endpoint))
		})
	}
	assert.True(t, SameResource("https://mcp.example/a%2fb", "https://mcp.example/a%2Fb"), "percent-encoding case")
	assert.False(t, SameResource("https://mcp.example/a%2Fb", "https://mcp.example/a/b"), "an encoded reserved character is not its decoded form")
	assert.True(t, SameResource("https://MCP.example", "https://mcp.example/"), "an empty path is /")
	assert.True(t, SameResource("https://thé.example/mcp", "https://xn--th-cja.example/mcp"), "an IDN and its A-label form")
	assert.True(t, SameResource("https://mcp.example/mcp?a=%7e", "https://mcp.example/mcp?a=~"), "percent-encodings in the query too")
	assert.False(t, SameResource("https://thé.example/mcp", "https://the.example/mcp"), "another IDN")
}
