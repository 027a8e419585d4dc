package agentsjson

import "testing"

func TestParseMethodShapes(t *testing.T) {
	testShapes(t, []shapeCase{
		{"interfaces keyed by name", `{"interfaces":{"mcp":"https://a.example/mcp","api":{"type":"openapi","url":"/openapi.json"}}}`, FormatMethod, 2, "", nil},
		{"a source member without flows is not read", `{"name":"Shop","source":{"url":"/openapi.json"},"contact":{"email":"a@shop.example"}}`, FormatMethod, 0, "", nil},
		{"interfaces not a list", `{"interfaces":"mcp"}`, "", 0, "", []string{"/interfaces"}},
	})
}
