package readiness

import (
	"testing"

	"github.com/agentweb/agentweb/internal/strictjson"
)

func FuzzServerCardEndpoint(f *testing.F) {
	for _, s := range []string{`{"name": "x", "remotes": [{"type": "streamable-http", "url": "https://a.example/mcp"}]}`, `{"transport": {"url": "u"}}`, `{"url": 1, "endpoint": "e"}`, `[]`, `{"remotes": [1, {"url": ""}, {"url": "x", "type": "sse"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := strictjson.Decode(b)
		if err != nil {
			return
		}
		if m, ok := v.(map[string]any); ok {
			_ = serverCardEndpoint(m)
		}
	})
}
