package agentic

import (
	"errors"
	"net/url"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

func addSeeds(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		files, err := filepath.Glob(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			f.Add(readFile(f, name))
		}
	}
}

// FuzzParseSite: ParseSite never panics. Whatever it accepts writes back to
// JSON that it accepts again. Its TXT is one CheckText matches, or is
// refused only for the TXT size limit.
func FuzzParseSite(f *testing.F) {
	addSeeds(f, "testdata/*.json", "testdata/valid/*.json", "testdata/invalid/*.json", "testdata/golden/*.json", "testdata/action/*.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSite(data)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) && !errors.Is(err, ErrActionProfile) {
				t.Fatalf("error of unexpected type %T: %v", err, err)
			}
			if ve != nil && len(ve.Problems) == 0 {
				t.Fatal("ValidationError without problems")
			}
			return
		}
		out, err := s.JSON()
		if err != nil {
			t.Fatalf("accepted profile does not write back: %v", err)
		}
		if _, err := ParseSite(out); err != nil {
			t.Fatalf("written profile is refused: %v", err)
		}
		txt, err := s.Text("")
		if errors.Is(err, ErrTextTooLarge) {
			return
		}
		if err != nil {
			t.Fatalf("Text: %v", err)
		}
		if !utf8.Valid(txt) || CheckText(s, "", txt) != TextStatusMatched {
			t.Fatal("generated TXT is not UTF-8 or does not match")
		}
		idx, err := ParseText(txt)
		if err != nil {
			t.Fatalf("generated TXT does not parse: %v", err)
		}
		if len(idx.Resources) != len(s.Resources) || len(idx.APIs) != len(s.APIs) {
			t.Fatal("TXT records lost")
		}
	})
}

// FuzzParseText: ParseText never panics, reports line numbers inside the
// file, and returns UTF-8 strings.
func FuzzParseText(f *testing.F) {
	addSeeds(f, "testdata/*.txt", "testdata/golden/*.txt", "testdata/action/*.txt")
	f.Add([]byte("# Agentic site index\nAgentic-Text: 1.1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, err := ParseText(data)
		if err != nil {
			var se *TextSyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error of unexpected type %T", err)
			}
			if se.Line < 0 || se.Line > len(data)+1 {
				t.Fatalf("line %d outside the file", se.Line)
			}
			return
		}
		for _, r := range idx.Resources {
			if !utf8.ValidString(r.URL) || !utf8.ValidString(r.Title) || !utf8.ValidString(r.Source) {
				t.Fatal("invalid UTF-8 in a record")
			}
		}
		if idx.Kind == "site" {
			if s, err := idx.Site(); err == nil {
				if _, err := s.Text(""); err != nil && !errors.Is(err, ErrTextTooLarge) {
					t.Fatalf("rebuilt site has no TXT: %v", err)
				}
			}
		}
	})
}

// FuzzParseOpenAPI: the OpenAPI reader never panics, and every operation it
// returns has one of the eight methods.
func FuzzParseOpenAPI(f *testing.F) {
	f.Add(shopOpenAPI())
	f.Add([]byte(auditOpenAPI))
	f.Add([]byte(`{"openapi":"3.0.0","paths":{"/a":{"get":{"operationId":1}},"b":[]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := parseOpenAPI(data)
		if err != nil {
			return
		}
		if len(d.ops) > maxOperationsRead {
			t.Fatalf("%d operations read", len(d.ops))
		}
		for _, o := range d.ops {
			if !validMethod(o.method) {
				t.Fatalf("method %q", o.method)
			}
		}
	})
}

// FuzzParseHTML: the page reader never panics and returns at most
// maxLinksPerDocument absolute http(s) links without fragments.
func FuzzParseHTML(f *testing.F) {
	f.Add([]byte(`<title>x</title><a href="/docs#a">d</a><link rel="service-desc" href="o.json">`))
	f.Add([]byte(`<base href="https://other.example/"><a href="x">`))
	f.Add([]byte(`<script><a href="/s"></script><template><a href="/t"></template>`))
	u, err := url.Parse("https://shop.example/page")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := parseHTML(data, u)
		if len(p.links) > maxLinksPerDocument {
			t.Fatalf("%d links", len(p.links))
		}
		for _, l := range p.links {
			lu, err := url.Parse(l.href)
			if err != nil || (lu.Scheme != "https" && lu.Scheme != "http") || lu.Fragment != "" {
				t.Fatalf("bad link %q", l.href)
			}
		}
	})
}
