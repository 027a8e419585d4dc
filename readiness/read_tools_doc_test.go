package readiness

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFindScriptTools(t *testing.T) {
	tests := []struct {
		name string
		js   string
		want []scriptTool
	}{
		{"no modelContext", `registerTool({name: "x", description: "y"})`, nil},
		{"new API", `document.modelContext.registerTool({name: "a", description: "b"});`,
			[]scriptTool{{api: "document.modelContext", call: "registerTool", name: "a", description: true, literal: true}}},
		{"old API, template strings", "navigator.modelContext.registerTool({name: `a`, description: ``});",
			[]scriptTool{{api: "navigator.modelContext", call: "registerTool", name: "a", literal: true}}},
		{"provideContext", `navigator.modelContext.provideContext({tools: [{name: 'x', description: 'y'}]})`,
			[]scriptTool{{api: "navigator.modelContext", call: "provideContext", name: "x", description: true, literal: true}}},
		{"two calls keep their own properties", `const m = document.modelContext; m.registerTool(t1); m.registerTool({name: "b", description: "d"})`,
			[]scriptTool{{api: "document.modelContext", call: "registerTool"}, {api: "document.modelContext", call: "registerTool", name: "b", description: true, literal: true}}},
		{"the draft's annotations and options", `await document.modelContext.registerTool({name: "a", description: "b", annotations: {readOnlyHint: true, untrustedContentHint: false}}, {signal, exposedTo: ["https://x.example"]})`,
			[]scriptTool{{api: "document.modelContext", call: "registerTool", name: "a", description: true, readOnly: true, untrusted: true, exposedTo: true, signal: true, literal: true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, findScriptTools(tc.js))
		})
	}
}

func FuzzFindScriptTools(f *testing.F) {
	for _, s := range []string{"", `document.modelContext.registerTool({name: "a", description: "b"})`, "navigator.modelContext.registerTool(`", "document.modelContext.provideContext({tools:[{name:'x'}]})"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, js string) {
		ts := findScriptTools(js)
		if len(ts) > maxScriptTools {
			t.Fatalf("%d tools", len(ts))
		}
	})
}
