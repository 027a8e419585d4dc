package htmlhead

import (
	"bytes"
	"errors"
	"net/url"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that Parse never panics, that it respects its bounds,
// that only limit errors are returned for in-memory input, and that every
// link it reports with a resolved href is absolute when the page URL is.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`<!doctype html><html lang=en><head><title>t</title><base href="/b/"><link rel="describedby alternate" href="x" type="a/b" hreflang=en title=T media=screen><meta name=description content=d></head><body>`,
		`<!-- <link href=/c> --><script><link href=/s></script><noscript><link href=/n></noscript><template><link href=/t></template><link href=/ok>`,
		`<html><head><html lang=fr><link href="  /a\tb ">`,
		"\uFEFF<title>a <b> c</title><style></style><link rel=a rel=b href=1 href=2>",
		`<link href="http://[::1"><base href="javascript:alert(1)"><link href=x>`,
		`<template><template></template><link href=/t></template>`,
		`<script/><link href=/x></script>`,
	} {
		f.Add([]byte(s))
	}
	page, _ := url.Parse("https://shop.example/dir/page.html")
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Parse(bytes.NewReader(data), page)
		if h == nil {
			t.Fatal("nil head")
		}
		if err != nil && !errors.Is(err, ErrLimit) {
			t.Fatalf("unexpected error %v", err)
		}
		if len(h.Links) > MaxLinks || len(h.Metas) > MaxMetas {
			t.Fatalf("bounds exceeded: %d links, %d metas", len(h.Links), len(h.Metas))
		}
		for _, l := range h.Links {
			if l.Href == "" {
				continue
			}
			u, err := url.Parse(l.Href)
			if err != nil {
				t.Fatalf("resolved href %q does not parse: %v", l.Href, err)
			}
			if !u.IsAbs() && h.Base == "" {
				t.Fatalf("href %q not absolute against an absolute page URL", l.Href)
			}
			for _, r := range l.Rel {
				if r == "" || bytes.ContainsAny([]byte(r), " \t\n\f\r") {
					t.Fatalf("bad rel token %q", r)
				}
			}
		}
		if utf8.Valid(data) && !utf8.ValidString(h.Title) {
			t.Fatalf("title %q not UTF-8 from UTF-8 input", h.Title)
		}
	})
}
