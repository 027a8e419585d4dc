package readiness

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// identity_node's logo must answer when it alone completes the node: a
// logo URL that answers 404 is no logo (the check catalogue, Understand:
// name, url, and logo or sameAs).
func TestIdentityNodeLogoMustAnswer(t *testing.T) {
	for _, tc := range []struct {
		name, node string
		logo       int
		want       Verdict
	}{
		{"a logo that answers", `"logo":"/logo.png"`, http.StatusOK, VerdictPass},
		{"a logo that is 404", `"logo":"/logo.png"`, http.StatusNotFound, VerdictPartial},
		{"an ImageObject that is 404", `"logo":{"@type":"ImageObject","url":"https://shop.example/logo.png"}`, http.StatusNotFound, VerdictPartial},
		{"sameAs beside a 404 logo", `"logo":"/logo.png","sameAs":["https://social.example/shop"]`, http.StatusNotFound, VerdictPass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/logo.png", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(tc.logo) })
			mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Shop</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Shop","url":"https://shop.example/",%s}</script></head><body><h1>Shop</h1></body></html>`, tc.node)
			})
			r := scanWith(t, mux, &Options{MaxPages: -1})
			c := checkByID(r, "identity_node")
			assert.Equal(t, tc.want, c.Verdict, c.Receipt.Received)
		})
	}
}
