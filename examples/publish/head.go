package main

import (
	"errors"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxTokens bounds the tokens read from one page's head.
const maxTokens = 20000

// headFacts reads an HTML document's <title> text and its
// <meta name="description"> content, stopping at <body> or </head>.
func headFacts(r io.Reader) (title, description string, err error) {
	z := html.NewTokenizer(r)
	z.SetMaxBuf(1 << 20)
	var inTitle bool
	var text strings.Builder
	for range maxTokens {
		switch z.Next() {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return clean(text.String()), description, nil
			}
			return "", "", z.Err()
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			switch tok.DataAtom {
			case atom.Body:
				return clean(text.String()), description, nil
			case atom.Title:
				inTitle = text.Len() == 0
			case atom.Meta:
				if d, ok := metaDescription(tok); ok && description == "" {
					description = d
				}
			}
		case html.EndTagToken:
			switch z.Token().DataAtom {
			case atom.Head:
				return clean(text.String()), description, nil
			case atom.Title:
				inTitle = false
			}
		case html.TextToken:
			if inTitle {
				text.Write(z.Text())
			}
		}
	}
	return clean(text.String()), description, nil
}

func metaDescription(tok html.Token) (string, bool) {
	var name, content string
	for _, a := range tok.Attr {
		switch a.Key {
		case "name":
			name = a.Val
		case "content":
			content = a.Val
		}
	}
	if !strings.EqualFold(name, "description") {
		return "", false
	}
	return clean(content), true
}

// clean collapses runs of white space and trims the ends.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }
