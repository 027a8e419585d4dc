package agentsjson

import "testing"

func TestParseWildCardShapes(t *testing.T) {
	testShapes(t, []shapeCase{
		{"flow naming an unknown source", `{"info":{"title":"t"},"sources":[{"id":"a","path":"/a.yaml"}],"flows":[{"actions":[{"sourceId":"b"}]}]}`, FormatWildCard, 1, "", []string{"/flows/0/actions/0/sourceId"}},
		{"singular source object, absolute URL", `{"source":{"type":"openapi","url":"https://api.shop.example/openapi.json"},"flows":[]}`, FormatWildCard, 1, "", nil},
		{"singular source object with path and id", `{"agentsJson":"0.1.0","source":{"id":"shop","path":"openapi.yaml"},"flows":[{"actions":[{"sourceId":"shop"}]}]}`, FormatWildCard, 1, "", nil},
		{"singular source as a URL string", `{"source":"/openapi.json","flows":[{"actions":[{"sourceId":"any"}]}]}`, FormatWildCard, 1, "", nil},
		{"singular source without a URL", `{"source":{"type":"openapi"},"flows":[]}`, "", 0, "", []string{"/source"}},
		{"singular source of the wrong shape", `{"source":["/openapi.json"],"flows":[]}`, "", 0, "", []string{"/source"}},
		{"sources entries with url instead of path", `{"sources":[{"id":"a","url":"/a.json"},{"id":"b","type":"graphql","url":"/graphql"}],"flows":[]}`, FormatWildCard, 2, "", nil},
	})
}
