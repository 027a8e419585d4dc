package service_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/agentweb/agentweb/readiness/service"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// A scanning site on SQLite, asked for a scan of a site on a fake internet:
// 202 and the scan's id, then the finished scan, then the cached answer.
func Example() {
	network := fetchtest.New()
	defer network.Close()
	network.Site("shop.example", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html lang="en"><title>Shop</title><h1>Tea and teapots</h1></html>`)
	}))

	store, err := service.OpenSQLite(":memory:")
	if err != nil {
		panic(err)
	}
	defer store.Close()
	svc, err := service.New(context.Background(), &service.Options{
		Client: network.Client(), // production: nil, safefetch.Default()
		Store:  store,
		Origin: "https://scan.example",
	})
	if err != nil {
		panic(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(svc)
	defer srv.Close()

	type scan struct {
		ID, Status string
		Cached     bool
	}
	post := func() (int, scan) {
		resp, err := http.Post(srv.URL+"/api/scans", "application/json", strings.NewReader(`{"url": "https://shop.example/"}`))
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		var s scan
		json.NewDecoder(resp.Body).Decode(&s)
		return resp.StatusCode, s
	}

	code, s := post()
	fmt.Println(code, len(s.ID) == 32)
	for s.Status != "done" && s.Status != "failed" {
		time.Sleep(10 * time.Millisecond)
		resp, err := http.Get(srv.URL + "/api/scans/" + s.ID)
		if err != nil {
			panic(err)
		}
		json.NewDecoder(resp.Body).Decode(&s)
		resp.Body.Close()
	}
	fmt.Println(s.Status)
	code, s = post()
	fmt.Println(code, s.Status, s.Cached)
	// Output:
	// 202 true
	// done
	// 200 done true
}
