package schema_test

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/schema"
	"github.com/agentweb/agentweb/internal/strictjson"
)

func Example() {
	s, err := schema.Compile("https://schemas.agentweb.invalid/example.json", []byte(`{
		"type": "object",
		"required": ["name", "url"],
		"properties": {
			"name": {"type": "string", "maxLength": 8},
			"url": {"type": "string", "format": "uri"}
		},
		"additionalProperties": false
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	doc, err := strictjson.Decode([]byte(`{"name":"a very long name","homepage":"/"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range s.Validate(doc) {
		fmt.Println(v)
	}

	_, err = schema.Compile("https://schemas.agentweb.invalid/remote.json", []byte(`{"$ref":"https://example.com/s.json"}`))
	fmt.Println(err)
	// Output:
	// /homepage: member "homepage" is not allowed here (additionalProperties)
	// /name: length must be <= 8, but got 16 (maxLength)
	// /url: required member "url" is missing (required)
	// schema: loading schemas from URLs is disabled: https://schemas.agentweb.invalid/remote.json needs https://example.com/s.json
}
