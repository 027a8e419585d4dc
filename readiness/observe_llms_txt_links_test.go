package readiness

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// llmsTxtLinksCases are the cases of the llms_txt_links observation.
func llmsTxtLinksCases(t testing.TB) []observationCase {
	manyLinks := "# Shop\n\n" + strings.Repeat("- [Products](https://shop.example/products)\n- [About](/about)\n", 10)
	for i := range 200 {
		manyLinks += fmt.Sprintf("- [Page %d](/page-%d)\n", i, i)
	}
	return []observationCase{
		{name: "llms links: all answer", id: "llms_txt_links",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "# Shop\n\n> Gear.\n\n- [Products](https://shop.example/products): what we sell\n- [About](/about \"About us\")\n- [Elsewhere](https://other.example/x)\n")},
			want:  ObservationFound,
			check: func(t *testing.T, o Observation) {
				assert.Equal(t, "2 of 2 links checked answer 200", o.Receipt.Received)
			}},
		{name: "llms links: one is broken", id: "llms_txt_links",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", "# Shop\n\n- [Products](/products)\n- [Gone](/gone)\n")},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Contains(t, o.Receipt.Notes, "https://shop.example/gone answered 404")
			}},
		{name: "llms links: no llms.txt", id: "llms_txt_links",
			paths: map[string]http.HandlerFunc{"/llms.txt": status(http.StatusNotFound)},
			want:  ObservationAbsent},
		{name: "llms links: hundreds of links, five fetched", id: "llms_txt_links",
			paths: map[string]http.HandlerFunc{"/llms.txt": text("text/plain", manyLinks)},
			want:  ObservationInvalid,
			check: func(t *testing.T, o Observation) {
				assert.Len(t, o.Receipt.Requests, 1+maxLLMsLinksChecked)
				assert.Contains(t, o.Receipt.Notes, "checked the first 5 of 202 same-site links")
			}},
	}
}
