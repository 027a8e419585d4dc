package linkheader_test

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/agentweb/agentweb/internal/linkheader"
)

func ExampleParse() {
	h := http.Header{}
	h.Add("Link", `</TheBook/chapter2>; rel="previous"; title*=UTF-8'de'letztes%20Kapitel, </TheBook/chapter4>; rel="next"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel`)
	h.Add("Link", `</.well-known/knowledge-linkset>; rel="describedby"; type="application/linkset+json"`)
	base, _ := url.Parse("https://example.com/TheBook/chapter3")

	links, err := linkheader.Parse(h.Values("Link"), base)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range links {
		fmt.Printf("%s %v title=%q type=%q\n", l.Target, l.Rel, l.Title, l.Type)
	}
	for _, l := range links {
		if l.HasRel("describedby") {
			fmt.Println("described by", l.Target)
		}
	}
	// Output:
	// https://example.com/TheBook/chapter2 [previous] title="letztes Kapitel" type=""
	// https://example.com/TheBook/chapter4 [next] title="nächstes Kapitel" type=""
	// https://example.com/.well-known/knowledge-linkset [describedby] title="" type="application/linkset+json"
	// described by https://example.com/.well-known/knowledge-linkset
}

func ExampleFormat() {
	fmt.Println(linkheader.Format(
		linkheader.Link{Target: "/.well-known/knowledge-linkset", Rel: []string{"describedby"}, Type: "application/linkset+json"},
		linkheader.Link{Target: "/c4", Rel: []string{"next"}, Title: "nächstes Kapitel"},
	))
	// Output:
	// </.well-known/knowledge-linkset>; rel="describedby"; type="application/linkset+json", </c4>; rel="next"; title*=UTF-8''n%C3%A4chstes%20Kapitel
}

// A field as real sites send it: the media type unquoted, which the
// section 3 grammar refuses and Appendix B reads.
func ExampleParseStrict() {
	field := []string{`</llms.txt>; rel=describedby; type=text/plain`}
	base, _ := url.Parse("https://example.com/")

	if _, err := linkheader.ParseStrict(field, base); err != nil {
		fmt.Println("publisher:", err)
	}
	links, _ := linkheader.Parse(field, base)
	fmt.Println("reader:", links[0].Target, links[0].Rel, links[0].Type)
	// Output:
	// publisher: linkheader: Link field value 0, byte offset 39: parameter type: character '/' is not allowed in a token (quote the value)
	// reader: https://example.com/llms.txt [describedby] text/plain
}
