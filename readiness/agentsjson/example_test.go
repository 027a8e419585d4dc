package agentsjson_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agentweb/agentweb/readiness/agentsjson"
)

func ExampleParse() {
	// A wild-card-ai agents.json: its sources are OpenAPI documents.
	c, err := agentsjson.Parse([]byte(`{
	  "agentsJson": "0.1.0",
	  "info": {"title": "Shop flows", "version": "0.1.0", "description": "Order and track."},
	  "sources": [{"id": "shop", "path": "/openapi.yaml"}],
	  "flows": [{"id": "order", "actions": [{"id": "a", "sourceId": "shop", "operationId": "order"}]}]
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Format, c.Name)
	for _, it := range c.Interfaces {
		fmt.Println(it.Type, it.URL)
	}
	// Output:
	// wild-card-ai Shop flows
	// openapi /openapi.yaml
}

func ExampleHandler() {
	h, err := agentsjson.Handler(&agentsjson.Card{
		Name:       "Example Shop",
		URL:        "https://shop.example/",
		Interfaces: []agentsjson.Interface{{Type: "mcp", URL: "https://shop.example/mcp", Auth: "oauth2"}},
		Contact:    &agentsjson.Contact{Email: "agents@shop.example"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/.well-known/agents.json", nil))
	fmt.Println(w.Code, w.Header().Get("Content-Type"), w.Header().Get("Access-Control-Allow-Origin"))
	fmt.Print(w.Body.String())
	// Output:
	// 200 application/json *
	// {
	//   "name": "Example Shop",
	//   "url": "https://shop.example/",
	//   "interfaces": [
	//     {
	//       "type": "mcp",
	//       "url": "https://shop.example/mcp",
	//       "auth": "oauth2"
	//     }
	//   ],
	//   "contact": {
	//     "email": "agents@shop.example"
	//   }
	// }
}
