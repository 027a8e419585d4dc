package agentic

import (
	"fmt"
	"testing"

	"github.com/agentweb/agentweb/internal/benchratio"
)

// maximalSite is a profile at the count limits: 40 resources and 5 APIs of
// 160 operations each, within the 64 KiB size limit.
func maximalSite(tb testing.TB) []byte {
	s := &Site{Agentic: Version, Type: TypeSite, Origin: "https://max.example", Name: "Maximal", Description: "A profile at the count limits."}
	for i := 0; i < maxResources; i++ {
		r := Resource{Kind: KindDocumentation, URL: fmt.Sprintf("https://max.example/d/%d", i), Source: "https://max.example/", Availability: AvailabilityLinked}
		if i < maxAPIs {
			r.Kind, r.URL, r.Availability = KindOpenAPI, fmt.Sprintf("https://max.example/o%d.json", i), AvailabilityRetrieved
		}
		s.Resources = append(s.Resources, r)
	}
	for a := 0; a < maxAPIs; a++ {
		api := API{Document: fmt.Sprintf("https://max.example/o%d.json", a), OpenAPI: "3.1.0"}
		for i := 0; i < maxOperations; i++ {
			op := Operation{Method: methods()[i%8], Path: fmt.Sprintf("/r%d", i/8)}
			if i%2 == 0 {
				op.OperationID = fmt.Sprintf("o%d", i)
			}
			api.Operations = append(api.Operations, op)
		}
		s.APIs = append(s.APIs, api)
	}
	b, err := s.JSON()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// BenchmarkParseSiteMaximal and BenchmarkDecodeAnyMaximal run in one
// `go test -bench Maximal` to give the ParseSite / encoding/json ratio.
func BenchmarkParseSiteMaximal(b *testing.B) {
	benchratio.Bytes(b, maximalSite(b), parseSite)
}

// parseSite is ParseSite for a benchmark, without the profile.
func parseSite(data []byte) error { _, err := ParseSite(data); return err }

func BenchmarkDecodeAnyMaximal(b *testing.B) {
	benchratio.Bytes(b, maximalSite(b), benchratio.DecodeAny)
}

// BenchmarkParseSiteRatio interleaves ParseSite with encoding/json
// decoding into any on the maximal profile, so that machine load affects
// both alike, and reports the ratio of their times (the budget is 4x).
func BenchmarkParseSiteRatio(b *testing.B) {
	data := maximalSite(b)
	b.SetBytes(int64(len(data)))
	benchratio.Run(b,
		func() error { return parseSite(data) },
		func() error { return benchratio.DecodeAny(data) })
}

func BenchmarkTextMaximal(b *testing.B) {
	s, err := ParseSite(maximalSite(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Text(""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseTextMaximal(b *testing.B) {
	s, err := ParseSite(maximalSite(b))
	if err != nil {
		b.Fatal(err)
	}
	txt, err := s.Text("")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(txt)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseText(txt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseOpenAPI(b *testing.B) {
	doc := shopOpenAPI()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseOpenAPI(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseHTML(b *testing.B) {
	var page []byte
	page = append(page, "<html><head><title>Docs</title><meta name=description content=x></head><body>"...)
	for i := 0; i < 300; i++ {
		page = fmt.Appendf(page, `<p>Text %d <a href="/docs/p%d">Page %d</a></p>`, i, i, i)
	}
	u := mustURL(b, "https://shop.example/")
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		parseHTML(page, u)
	}
}

func BenchmarkCheckTextMaximal(b *testing.B) {
	s, err := ParseSite(maximalSite(b))
	if err != nil {
		b.Fatal(err)
	}
	txt, err := s.PublicationText("")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if CheckText(s, "", txt) != TextStatusMatched {
			b.Fatal("mismatch")
		}
	}
}
