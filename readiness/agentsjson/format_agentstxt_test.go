package agentsjson

import "testing"

func TestParseAgentsTxtShapes(t *testing.T) {
	testShapes(t, []shapeCase{
		{"capabilities as names only", `{"capabilities":["search","browse"]}`, "", 0, "", nil},
		{"capability without endpoint", `{"site":{"name":"x"},"capabilities":[{"name":"search"}]}`, FormatAgentsTxt, 0, "", []string{"/capabilities/0"}},
	})
}
