package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentweb/agentweb/readiness/mcpserver"
)

// A Server mounted at /mcp of a site's mux, called by an MCP client: an
// agent validates the agents.json card it just wrote.
func Example() {
	srv, err := mcpserver.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", srv.Handler())
	site := httptest.NewServer(mux)
	defer site.Close()

	client := mcp.NewClient(&mcp.Implementation{Name: "example-agent", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: site.URL + "/mcp"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name:      "validate_document",
		Arguments: map[string]any{"kind": "agents_json", "content": `{"name": "Tea Shop", "url": "https://tea.example"}`},
	})
	if err != nil {
		log.Fatal(err)
	}
	var v struct {
		Valid    bool `json:"valid"`
		Problems []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
		} `json:"problems"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &v); err != nil {
		log.Fatal(err)
	}
	fmt.Println("valid:", v.Valid)
	for _, p := range v.Problems {
		fmt.Printf("%s: %s\n", p.Rule, p.Message)
	}
	// Output:
	// valid: false
	// card-empty: the card names no publication, interface, sign-in or contact
}
