package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A tool a script registers from a variable (name, description and schema
// built before the call) cannot be judged without running the script. So
// page_tool_quality is unverified, not fail. The scoring method, Section 06:
// could not check is never a pass. An unread description is no missing one
// (the check catalogue, Act). A literal registration is still judged.
func TestStaticToolQualityOfUnreadRegistrationIsUnverified(t *testing.T) {
	for _, tc := range []struct {
		name, js string
		want     Verdict
	}{
		{"from a variable", `const tool = {name: "search", description: "Search the teas.", inputSchema: {type: "object", properties: {q: {type: "string", description: "words"}}}, execute: (a) => a};
document.modelContext.registerTool(tool);`, VerdictUnverified},
		{"a literal", `document.modelContext.registerTool({name: "search", description: "Search the teas.", execute() {}});`, VerdictPass},
		{"a literal without description", `document.modelContext.registerTool({name: "search", execute() {}});`, VerdictFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Teas</title></head><body><h1>Teas</h1><p>%s</p><script>%s</script></body></html>`, strings.Repeat("Tea from small gardens. ", 12), tc.js)
			})
			r := scanWith(t, mux, &Options{MaxPages: -1})
			c := checkByID(r, "page_tool_quality")
			assert.Equal(t, tc.want, c.Verdict, "%s %q", c.Receipt.Received, c.Receipt.Notes)
		})
	}
}
