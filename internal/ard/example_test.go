package ard_test

import (
	"fmt"

	"github.com/agentweb/agentweb/internal/ard"
)

func Example() {
	r := ard.Validate([]byte(`{"specVersion": "1.0", "entries": [
  {"identifier": "urn:air:shop.example:mcp:orders", "displayName": "Orders",
   "type": "application/mcp-server-card+json", "url": "https://shop.example/.well-known/mcp/server-card.json"}]}`))
	fmt.Println(r.Entries, r.Errors())
	for _, f := range r.Findings {
		fmt.Println(f)
	}
	// Output:
	// 1 0
	// warning /entries/0/representativeQueries: Missing 'representativeQueries'. 2 to 5 queries are recommended for vector index embedding.
}
