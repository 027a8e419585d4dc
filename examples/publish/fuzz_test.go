package main

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

// headFacts never panics, and what it returns is trimmed, single-spaced
// text.
func FuzzHeadFacts(f *testing.F) {
	for _, s := range []string{
		`<title>A &amp; B</title><meta name=description content=" x  y ">`,
		`<html><head><title>T</title></head><body><title>no</title></body>`,
		`<title>unclosed`, `<meta name="DESCRIPTION" content="d">`, `<!-- <title>c</title> -->`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		title, desc, err := headFacts(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, s := range []string{title, desc} {
			if s != clean(s) {
				t.Fatalf("not cleaned: %q", s)
			}
			if utf8.ValidString(string(data)) && !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 from valid input: %q", s)
			}
		}
	})
}

// parseConfig never panics, and a config it accepts either becomes a Site
// or is refused with an error.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(teaConfig))
	f.Add([]byte(`{"crawlers": {"training": "maybe"}}`))
	f.Add([]byte(`{"pages": [{"path": "/", "title": "T", "updated": "2026-11-20T08:00:00Z"}]}`))
	f.Add([]byte(`{"lang": "en"}`))
	f.Add([]byte(`{} {}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig(data)
		if err != nil {
			return
		}
		s, err := c.site()
		if err == nil && s == nil {
			t.Fatal("no site and no error")
		}
		if err == nil {
			_, _ = s.Handler(nil)
		}
	})
}
