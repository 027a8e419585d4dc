package linkset_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing/fstest"
	"time"

	"github.com/agentweb/agentweb/linkset"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// A node builds its canonical discovery document from its artefacts.
func ExampleBuilder() {
	b := &linkset.Builder{
		BundleIRI:     "https://example.org/",
		SourceDate:    time.Date(2026, 10, 9, 8, 15, 0, 0, time.UTC),
		SpecVersion:   "1.0.0-rc.6",
		BundleVersion: "v1.4.0",
		Counts:        map[string]int{"concepts": 142},
	}
	b.Artefacts = append(b.Artefacts,
		linkset.Artefact{Relation: "describedby", Href: "https://example.org/graph.jsonld", Type: "application/ld+json", Body: []byte(`{"@graph":[]}`)},
		linkset.Artefact{Relation: linkset.RelGraph, Href: "https://example.org/graph.nq", Type: "application/n-quads", Reader: strings.NewReader("<a> <b> <c> .\n")},
		linkset.Artefact{Relation: "license", Href: "https://example.org/legal/"},
	)
	doc, body, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Evaluate(linkset.ModeStrict).Form)
	fmt.Print(string(body))
	// Output:
	// full
	// {"linkset":[{"anchor":"https://example.org/","describedby":[{"agsc-bundle-hash":["sha-256=:juW1MvSM7kzXPE9Onbr34muNSU9fn7ZNjUYLHIXkvB0=:"],"agsc-bundle-version":["v1.4.0"],"agsc-counts":["concepts=142"],"agsc-generated-at":["2026-10-09T08:15:00Z"],"agsc-spec-version":["1.0.0-rc.6"],"digest":["sha-256=:YwvpSACPcIVNV+pz/A7hdydVD4A3yuSf9QBm7BjR/xE=:"],"href":"https://example.org/graph.jsonld","type":"application/ld+json"}],"https://w3id.org/agentic-system-core/rel#graph":[{"digest":["sha-256=:juW1MvSM7kzXPE9Onbr34muNSU9fn7ZNjUYLHIXkvB0=:"],"href":"https://example.org/graph.nq","type":"application/n-quads"}],"license":[{"href":"https://example.org/legal/"}]}]}
}

// A validator parses a document and lists every problem with its JSON
// Pointer, rule and draft section.
func ExampleDocument_Evaluate() {
	data := []byte(`{"linkset":[{"anchor":"https://example.org/",
	  "describedby":[{"href":"https://example.org/graph.jsonld","type":"application/ld+json"}],
	  "license":[{"href":"https://example.org/b"},{"href":"https://example.org/a"}],
	  "licence":[{"href":"legal"}]}]}`)
	doc, err := linkset.Parse(data)
	if err != nil {
		fmt.Println(err)
		return
	}
	report := doc.Evaluate(linkset.ModePublisher)
	fmt.Println(report.Form)
	for _, p := range report.Problems {
		fmt.Println(p)
	}
	// Output:
	// not conformant
	// /linkset/0/license/1/href: href "https://example.org/a" comes before "https://example.org/b" in code point order; links within a relation are ordered by href [href-order, section 4.1]
	// /linkset/0/licence: "licence" is neither a registered relation short name nor a relation URI [relation-unregistered, section 4.2]
}

// A client verifies retrieved artefacts against the links' digests.
func ExampleLink_VerifyDigest() {
	doc, err := linkset.Parse([]byte(`{"linkset":[{"anchor":"https://example.org/","alternate":[
	  {"href":"https://example.org/llms-full.txt","type":"text/plain","digest":["sha-256=:jvCwSK1RqdLMr5F3cW18gxWaHYwi/TeqK30DwRshtA0=:"]},
	  {"href":"https://example.org/llms.txt","type":"text/plain","digest":["sha-256=:jvCwSK1RqdLMr5F3cW18gxWaHYwi/TeqK30DwRshtA0=:"]},
	  {"href":"https://example.org/now.md","type":"text/markdown"}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	retrieved := map[string]string{
		"https://example.org/llms-full.txt": "# Example, changed\n",
		"https://example.org/llms.txt":      "# Example\n",
		"https://example.org/now.md":        "Now.\n",
	}
	for _, l := range doc.Bundle().Relation("alternate") {
		fmt.Println(l.Href, l.VerifyDigest([]byte(retrieved[l.Href])))
	}
	// Output:
	// https://example.org/llms-full.txt mismatch
	// https://example.org/llms.txt verified
	// https://example.org/now.md unverified
}

// A node serves its discovery document at the well-known path, its
// artefacts with the CORS headers of Section 3.3, and advertises the
// document on its root route (Section 5).
func ExampleHandler() {
	doc, _, err := (&linkset.Builder{BundleIRI: "https://example.org/", Reduced: true, Artefacts: []linkset.Artefact{
		{Relation: "describedby", Href: "https://example.org/graph.jsonld", Type: "application/ld+json"},
	}}).Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := linkset.Handler(doc, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle(linkset.WellKnownPath, h)
	mux.Handle("/", linkset.CORS(http.FileServerFS(fstest.MapFS{"graph.jsonld": {Data: []byte(`{}`)}})))
	site := linkset.Advertise(mux)

	rec := httptest.NewRecorder()
	site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://example.org"+linkset.WellKnownPath, nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))
	fmt.Println(rec.Header().Get("Cache-Control"), rec.Header().Get("Access-Control-Allow-Origin"))
	fmt.Print(rec.Body.String())

	again := httptest.NewRequest(http.MethodGet, "https://example.org"+linkset.WellKnownPath, nil)
	again.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec = httptest.NewRecorder()
	site.ServeHTTP(rec, again)
	fmt.Println(rec.Code)

	rec = httptest.NewRecorder()
	site.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "https://example.org/", nil))
	fmt.Println(rec.Header().Get("Link"))
	// Output:
	// 200 application/linkset+json; profile="https://w3id.org/agentic-system-core/profile/agentic-knowledge"
	// no-cache *
	// {"linkset":[{"anchor":"https://example.org/","describedby":[{"href":"https://example.org/graph.jsonld","type":"application/ld+json"}]}]}
	// 304
	// </.well-known/knowledge-linkset>; rel="describedby"; type="application/linkset+json"
}

// A client walks the peer network from a node (Section 7.2). The fake
// internet of fetchtest stands in for the real one.
func ExampleWalk() {
	n := fetchtest.New()
	defer n.Close()
	node := func(host string, peers ...string) {
		b := &linkset.Builder{BundleIRI: "https://" + host + "/", Reduced: true}
		b.Artefacts = append(b.Artefacts, linkset.Artefact{Relation: "describedby", Href: "https://" + host + "/graph.jsonld", Type: "application/ld+json"})
		for _, p := range peers {
			b.Artefacts = append(b.Artefacts, linkset.Artefact{Relation: linkset.RelPeer, Href: "https://" + p + linkset.WellKnownPath, Type: linkset.MediaType})
		}
		doc, _, err := b.Build()
		if err != nil {
			panic(err)
		}
		h, err := linkset.Handler(doc, nil)
		if err != nil {
			panic(err)
		}
		mux := http.NewServeMux()
		mux.Handle(linkset.WellKnownPath, h)
		n.Site(host, mux)
	}
	node("a.example", "b.example", "c.example")
	node("b.example", "a.example")
	node("c.example", "down.example")
	n.Site("down.example", http.NotFoundHandler())

	res, err := linkset.Walk(context.Background(), "https://a.example/", &linkset.WalkOptions{Client: n.Client()})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("complete:", res.Complete, "requests:", res.Requests)
	for _, node := range res.Nodes {
		fmt.Println(node.Depth, node.URL, node.State, "untrusted:", node.Untrusted)
	}
	// Output:
	// complete: true requests: 4
	// 0 https://a.example/.well-known/knowledge-linkset visited untrusted: false
	// 1 https://b.example/.well-known/knowledge-linkset visited untrusted: true
	// 1 https://c.example/.well-known/knowledge-linkset visited untrusted: true
	// 2 https://down.example/.well-known/knowledge-linkset unreachable untrusted: true
}

// A client that kept the ledger head of an earlier retrieval tells an
// ordinary update from a rollback or a replacement (Section 9.1).
func ExampleLedgerExtends() {
	earlier := []byte("{\"seq\":1}\n{\"seq\":2}\n")
	head, _ := linkset.LedgerHead(earlier)

	for _, now := range []string{
		"{\"seq\":1}\n{\"seq\":2}\n{\"seq\":3}\n",
		"{\"seq\":1}\n",
		"{\"seq\":1}\n{\"seq\":2,\"edited\":true}\n",
	} {
		extends, err := linkset.LedgerExtends(head, []byte(now))
		fmt.Println(extends, err)
	}
	// Output:
	// true <nil>
	// false <nil>
	// false <nil>
}

// Two local documents are peers when each names the other (Section 7.2).
func ExampleMutual() {
	doc := func(self, peer string) *linkset.Document {
		d, err := linkset.Parse([]byte(`{"linkset":[{"anchor":"https://` + self + `/",
		  "https://w3id.org/agentic-system-core/rel#peer":[{"href":"https://` + peer + `/.well-known/knowledge-linkset"}]}]}`))
		if err != nil {
			panic(err)
		}
		return d
	}
	r, err := linkset.Mutual(doc("a.example", "b.example"), doc("b.example", "a.example"))
	fmt.Println(r.Mutual, err)
	r, err = linkset.Mutual(doc("a.example", "b.example"), doc("b.example", "c.example"))
	fmt.Println(r.AToB, r.BToA, r.Mutual, err)
	// Output:
	// true <nil>
	// true false false <nil>
}
