package serve_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agentweb/agentweb/internal/serve"
)

func ExampleHandler() {
	h := serve.Handler(serve.Document{
		Body:         []byte(`{"version":"1.1"}`),
		ContentType:  "application/json",
		CacheControl: "max-age=300",
		Header:       http.Header{"Access-Control-Allow-Origin": {"*"}},
	})

	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/agentic.json", nil))
	etag := w.Header().Get("ETag")
	fmt.Println(w.Code, w.Header().Get("Content-Type"), w.Header().Get("Content-Length"), w.Body.String())
	fmt.Println(etag)

	r := httptest.NewRequest(http.MethodGet, "/agentic.json", nil)
	r.Header.Set("If-None-Match", "W/"+etag)
	w = httptest.NewRecorder()
	h.ServeHTTP(w, r)
	fmt.Println(w.Code, w.Header().Get("Cache-Control"), w.Body.Len())

	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/agentic.json", nil))
	fmt.Println(w.Code, w.Header().Get("Allow"))
	// Output:
	// 200 application/json 17 {"version":"1.1"}
	// "88258bf60fb6f6a0a7297512a57991a6b752338065cee4a7a2e1d7cfeb82edc5"
	// 304 max-age=300 0
	// 405 GET, HEAD
}
