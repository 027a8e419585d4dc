package linkheader

import (
	"net/url"
	"strings"
	"testing"
)

func BenchmarkParse(b *testing.B) {
	base, err := url.Parse("https://example.com/dir/page")
	if err != nil {
		b.Fatal(err)
	}
	values := []string{
		`</.well-known/knowledge-linkset>; rel="describedby"; type="application/linkset+json"`,
		`</TheBook/chapter2>; rel="previous"; title*=UTF-8'de'letztes%20Kapitel, </TheBook/chapter4>; rel="next"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel`,
		`</style.css>; rel=preload; as=style; crossorigin, <https://cdn.example/app.js>; rel="preload modulepreload"; as=script`,
	}
	many := []string{strings.Repeat(`</a>; rel="item"; title="an item, with a comma"; hreflang=en, `, 200)}
	loose := []string{`</llms.txt>; rel=describedby; type=text/plain, </.well-known/agents.json>; rel=alternate; type=application/json; title*=UTF-8''card`}
	for _, tc := range []struct {
		name   string
		values []string
	}{{"typical", values}, {"200-links", many}, {"unquoted", loose}} {
		size := 0
		for _, v := range tc.values {
			size += len(v)
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(tc.values, base); err != nil {
					b.Fatal(err)
				}
			}
		})
		if tc.name == "unquoted" {
			continue // the grammar refuses it
		}
		b.Run("strict/"+tc.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ParseStrict(tc.values, base); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFormat(b *testing.B) {
	links := []Link{
		{Target: "https://example.com/.well-known/knowledge-linkset", Rel: []string{"describedby"}, Type: "application/linkset+json"},
		{Target: "https://example.com/c4", Rel: []string{"next"}, Title: "nächstes Kapitel", Hreflang: []string{"de"}},
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Format(links...)
	}
}
