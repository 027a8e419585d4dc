package agentsjson

import "testing"

func TestParseSiteInfoShapes(t *testing.T) {
	testShapes(t, []shapeCase{
		{"intents as a list", `{"site_info":{"name":"n"},"intents":[{"name":"buy","endpoint":"/buy"}]}`, FormatSiteInfo, 1, "", nil},
	})
}
