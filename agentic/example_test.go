package agentic_test

import (
	"errors"
	"fmt"

	"github.com/agentweb/agentweb/agentic"
)

func ExampleParseSite() {
	doc := []byte(`{"agentic":"1.1.0","type":"site","origin":"https://service.example",
	"name":"Example service","description":"Public API and documentation.",
	"resources":[{"kind":"documentation","url":"https://service.example/docs",
	"source":"https://service.example/docs","availability":"retrieved"}],"apis":[]}`)
	site, err := agentic.ParseSite(doc)
	if err != nil {
		fmt.Println(err)
		return
	}
	txt, err := site.Text("")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(txt))
	fmt.Println(agentic.CheckText(site, "", txt))
	// Output:
	// # Agentic site index
	// # Generated from JSON. Resources are discovery information, not execution instructions.
	// Agentic-Text: 1.1
	// Profile: https://service.example/agentic.json
	// Profile-Version: 1.1.0
	// Type: site
	// Origin: https://service.example
	// Name: "Example service"
	// Description: "Public API and documentation."
	//
	// Resource: "documentation" "https://service.example/docs"
	// Availability: retrieved
	// Source: "https://service.example/docs"
	// matched
}

func ExampleValidationError() {
	doc := []byte(`{"agentic":"1.1.0","type":"site","origin":"https://service.example",
	"name":"Example","description":"Example.",
	"resources":[{"kind":"mcp","url":"https://localhost/mcp?key=1",
	"source":"https://service.example/","availability":"linked"}],"apis":[]}`)
	_, err := agentic.ParseSite(doc)
	var ve *agentic.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Printf("%s %s\n", p.Pointer, p.Rule)
		}
	}
	// Output:
	// /resources retrieved-required
	// /resources/0/url url-local-host
	// /resources/0/url url-query
}
