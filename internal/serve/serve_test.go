package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testDoc = Document{
	Body:         []byte(`{"version":"1.1"}`),
	ContentType:  "application/json",
	CacheControl: "max-age=300",
	Header: http.Header{
		"access-control-allow-origin": {"*"},
		"Link":                        {`</schema.json>; rel="describedby"`},
		"Vary":                        {"Origin"},
		"Etag":                        {`"spoofed"`},
		"Content-Length":              {"1"},
	},
}

func TestETag(t *testing.T) {
	body := []byte("hello")
	sum := sha256.Sum256(body)
	assert.Equal(t, `"`+hex.EncodeToString(sum[:])+`"`, ETag(body))
	assert.Equal(t, `"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"`, ETag(nil))
}

func TestHandler(t *testing.T) {
	etag := ETag(testDoc.Body)
	tests := []struct {
		name       string
		method     string
		inm        []string
		wantStatus int
		wantBody   string
		wantHeader map[string]string // "" means absent
	}{
		{"get", http.MethodGet, nil, 200, `{"version":"1.1"}`, map[string]string{
			"Content-Type": "application/json", "Content-Length": "17", "Etag": etag, "Cache-Control": "max-age=300",
			"Access-Control-Allow-Origin": "*", "Link": `</schema.json>; rel="describedby"`, "Vary": "Origin", "Allow": ""}},
		{"head", http.MethodHead, nil, 200, "", map[string]string{
			"Content-Type": "application/json", "Content-Length": "17", "Etag": etag, "Access-Control-Allow-Origin": "*"}},
		{"if-none-match exact", http.MethodGet, []string{etag}, 304, "", map[string]string{
			"Etag": etag, "Cache-Control": "max-age=300", "Access-Control-Allow-Origin": "*", "Vary": "Origin",
			"Link": `</schema.json>; rel="describedby"`, "Content-Type": "", "Content-Length": ""}},
		{"if-none-match weak", http.MethodGet, []string{"W/" + etag}, 304, "", map[string]string{"Etag": etag}},
		{"if-none-match list", http.MethodGet, []string{`"a", "b,c" ,` + etag}, 304, "", map[string]string{"Etag": etag}},
		{"if-none-match second field", http.MethodGet, []string{`"a"`, `W/"b", ` + etag}, 304, "", map[string]string{"Etag": etag}},
		{"if-none-match star", http.MethodGet, []string{"*"}, 304, "", map[string]string{"Etag": etag}},
		{"if-none-match head", http.MethodHead, []string{etag}, 304, "", map[string]string{"Etag": etag}},
		{"if-none-match other", http.MethodGet, []string{`"0000"`, `W/"x"`}, 200, `{"version":"1.1"}`, map[string]string{"Etag": etag}},
		{"if-none-match unquoted", http.MethodGet, []string{strings.Trim(etag, `"`)}, 200, `{"version":"1.1"}`, nil},
		{"if-none-match malformed before match", http.MethodGet, []string{`"unterminated, ` + etag}, 200, `{"version":"1.1"}`, nil},
		{"if-none-match empty", http.MethodGet, []string{""}, 200, `{"version":"1.1"}`, nil},
		{"post", http.MethodPost, nil, 405, "method not allowed\n", map[string]string{"Allow": "GET, HEAD", "Etag": "", "Cache-Control": ""}},
		{"put", http.MethodPut, nil, 405, "method not allowed\n", map[string]string{"Allow": "GET, HEAD"}},
		{"delete", http.MethodDelete, nil, 405, "method not allowed\n", map[string]string{"Allow": "GET, HEAD"}},
		{"options", http.MethodOptions, nil, 405, "method not allowed\n", map[string]string{"Allow": "GET, HEAD"}},
		{"post with matching etag", http.MethodPost, []string{etag}, 405, "method not allowed\n", map[string]string{"Allow": "GET, HEAD"}},
	}
	h := Handler(testDoc)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "https://shop.example/agentic.json", nil)
			for _, v := range tc.inm {
				r.Header.Add("If-None-Match", v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			assert.Equal(t, tc.wantStatus, w.Code)
			assert.Equal(t, tc.wantBody, w.Body.String())
			for k, want := range tc.wantHeader {
				if want == "" {
					assert.Empty(t, w.Header().Values(k), "header %s", k)
				} else {
					assert.Equal(t, []string{want}, w.Header().Values(k), "header %s", k)
				}
			}
		})
	}
}

// TestHandlerOverRealServer checks the handler through net/http's server,
// which is where HEAD bodies, Content-Length and 304 framing are enforced.
func TestHandlerOverRealServer(t *testing.T) {
	srv := httptest.NewServer(Handler(testDoc))
	t.Cleanup(srv.Close)
	etag := ETag(testDoc.Body)

	resp, err := srv.Client().Get(srv.URL)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, testDoc.Body, body)
	assert.Equal(t, int64(len(testDoc.Body)), resp.ContentLength)
	assert.Equal(t, etag, resp.Header.Get("ETag"))

	req, err := http.NewRequestWithContext(t.Context(), http.MethodHead, srv.URL, nil)
	require.NoError(t, err)
	resp, err = srv.Client().Do(req)
	require.NoError(t, err)
	body, err = io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, 200, resp.StatusCode)
	assert.Empty(t, body)
	assert.Equal(t, int64(len(testDoc.Body)), resp.ContentLength)

	req, err = http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
	require.NoError(t, err)
	req.Header.Set("If-None-Match", etag)
	resp, err = srv.Client().Do(req)
	require.NoError(t, err)
	body, err = io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	assert.Empty(t, body)
	assert.Equal(t, etag, resp.Header.Get("ETag"))
	assert.Equal(t, "max-age=300", resp.Header.Get("Cache-Control"))
}

func TestHandlerCopiesInput(t *testing.T) {
	body := []byte("original")
	hdr := http.Header{"X-Extra": {"one"}}
	h := Handler(Document{Body: body, ContentType: "text/plain", Header: hdr})
	copy(body, "mutated!")
	hdr.Set("X-Extra", "two")

	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	assert.Equal(t, "original", w.Body.String())
	assert.Equal(t, "one", w.Header().Get("X-Extra"))
	assert.Equal(t, ETag([]byte("original")), w.Header().Get("ETag"))
	assert.Empty(t, w.Header().Get("Cache-Control"))
}

func TestHandlerDefaultContentType(t *testing.T) {
	w := httptest.NewRecorder()
	Handler(Document{Body: []byte("<html>")}).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
	assert.Equal(t, "application/octet-stream", w.Header().Get("Content-Type"))
}

func TestNoneMatch(t *testing.T) {
	const tag = `"abc"`
	tests := []struct {
		name   string
		values []string
		want   bool
	}{
		{"none", nil, false},
		{"exact", []string{`"abc"`}, true},
		{"weak", []string{`W/"abc"`}, true},
		{"star", []string{`*`}, true},
		{"list", []string{`"x", W/"y",  "abc"`}, true},
		{"comma inside tag", []string{`"a,bc", "abc"`}, true},
		{"prefix only", []string{`"ab"`}, false},
		{"longer", []string{`"abcd"`}, false},
		{"unquoted", []string{`abc`}, false},
		{"lower-case weak prefix", []string{`w/"abc"`}, false},
		{"empty elements", []string{` , ,"abc"`}, true},
		{"unterminated", []string{`"abc`}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, NoneMatch(tc.values, tag))
			assert.Equal(t, tc.want, NoneMatch(tc.values, "W/"+tag), "weak own tag")
		})
	}
}

func BenchmarkHandler(b *testing.B) {
	h := Handler(Document{Body: []byte(strings.Repeat("x", 4096)), ContentType: "application/json", CacheControl: "max-age=60",
		Header: http.Header{"Access-Control-Allow-Origin": {"*"}}})
	etag := ETag([]byte(strings.Repeat("x", 4096)))
	for _, tc := range []struct {
		name string
		inm  string
	}{{"200", ""}, {"304", `"other", ` + etag}} {
		b.Run(tc.name, func(b *testing.B) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			if tc.inm != "" {
				r.Header.Set("If-None-Match", tc.inm)
			}
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
			}
		})
	}
}
