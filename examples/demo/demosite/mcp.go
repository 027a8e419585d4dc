package demosite

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// product is one catalogue entry, as the MCP tools and the API return it.
type product struct {
	SKU      string  `json:"sku"`
	Name     string  `json:"name"`
	PriceEUR float64 `json:"price_eur"`
	InStock  bool    `json:"in_stock"`
}

var catalogue = []product{
	{"TENT-2", "Trail Tent 2", 249, true},
	{"BAG-10", "Alpine Bag -10", 189, true},
	{"STOVE-1", "Pocket Stove", 39, false},
}

type searchIn struct {
	Query string `json:"query" jsonschema:"words to look for in product names"`
}
type searchOut struct {
	Products []product `json:"products"`
}
type getIn struct {
	SKU string `json:"sku" jsonschema:"the product's SKU, e.g. TENT-2"`
}
type orderIn struct {
	SKU      string `json:"sku" jsonschema:"the product's SKU"`
	Quantity int    `json:"quantity" jsonschema:"how many, 1 to 10"`
}
type orderOut struct {
	OrderID string `json:"order_id"`
	Status  string `json:"status"`
}

// scopeOrders is the OAuth scope place_order needs.
const scopeOrders = "orders:write"

// mcpServer is the shop's MCP server (official go-sdk): two public
// read-only tools and place_order, which needs a bearer token.
func mcpServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "example-shop", Title: "Example Shop", Version: "1.0.0"},
		&mcp.ServerOptions{Instructions: "Public tools: search_products, get_product. place_order needs an OAuth token (scope orders:write)."})
	mcp.AddTool(srv, &mcp.Tool{Name: "search_products", Description: "Search the Example Shop catalogue by name. Public, read-only.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "Search products"}},
		func(_ context.Context, _ *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, searchOut, error) {
			out := searchOut{Products: []product{}}
			for _, p := range catalogue {
				if strings.Contains(strings.ToLower(p.Name), strings.ToLower(in.Query)) {
					out.Products = append(out.Products, p)
				}
			}
			return nil, out, nil
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "get_product", Description: "Read one product by SKU. Public, read-only.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, Title: "Get product"}},
		func(_ context.Context, _ *mcp.CallToolRequest, in getIn) (*mcp.CallToolResult, product, error) {
			for _, p := range catalogue {
				if p.SKU == in.SKU {
					return nil, p, nil
				}
			}
			return nil, product{}, errors.New("no such product")
		})
	mcp.AddTool(srv, &mcp.Tool{Name: "place_order", Description: "Order a product for the human owner. Needs an OAuth token with scope orders:write.",
		Annotations: &mcp.ToolAnnotations{Title: "Place order"}},
		func(_ context.Context, req *mcp.CallToolRequest, in orderIn) (*mcp.CallToolResult, orderOut, error) {
			ti := req.Extra.TokenInfo
			if ti == nil || !slices.Contains(ti.Scopes, scopeOrders) {
				return nil, orderOut{}, errors.New("place_order needs a bearer token with scope orders:write")
			}
			if in.Quantity < 1 || in.Quantity > 10 {
				return nil, orderOut{}, errors.New("quantity must be 1 to 10")
			}
			return nil, orderOut{OrderID: "ord-" + in.SKU, Status: "awaiting confirmation by the human owner"}, nil
		})
	return srv
}

// oauth is the shop's small authorization server: the authorization code
// grant with PKCE (RFC 7636, S256 only unless the MCPNoPKCE defect is on)
// for a demo human owner who approves every request.
type oauth struct {
	issuer string
	pkce   bool
	now    func() time.Time

	mu     sync.Mutex
	codes  map[string]pendingCode // code -> challenge
	tokens map[string]time.Time   // access token -> expiry
}

type pendingCode struct {
	challenge, redirect, clientID string
	expires                       time.Time
}

const maxPending = 1024

func randomToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// metadata is the RFC 8414 authorization server metadata.
func (o *oauth) metadata() []byte {
	m := map[string]any{
		"issuer":                                o.issuer,
		"authorization_endpoint":                o.issuer + "/oauth/authorize",
		"token_endpoint":                        o.issuer + "/oauth/token",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code"},
		"token_endpoint_auth_methods_supported": []string{"none"},
		"scopes_supported":                      []string{scopeOrders},
		"service_documentation":                 o.issuer + "/docs",
	}
	if o.pkce {
		m["code_challenge_methods_supported"] = []string{"S256"}
	}
	out, _ := json.MarshalIndent(m, "", "  ")
	return append(out, '\n')
}

// authorize approves the demo owner at once and redirects with a code.
func (o *oauth) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("response_type") != "code" || q.Get("client_id") == "" || !redirect.IsAbs() {
		http.Error(w, "invalid_request", http.StatusBadRequest)
		return
	}
	challenge := q.Get("code_challenge")
	if o.pkce && (challenge == "" || q.Get("code_challenge_method") != "S256") {
		http.Error(w, "invalid_request: PKCE S256 is required", http.StatusBadRequest)
		return
	}
	code := randomToken()
	o.mu.Lock()
	if len(o.codes) >= maxPending {
		o.mu.Unlock()
		http.Error(w, "temporarily_unavailable", http.StatusServiceUnavailable)
		return
	}
	o.codes[code] = pendingCode{challenge: challenge, redirect: redirect.String(), clientID: q.Get("client_id"), expires: o.now().Add(time.Minute)}
	o.mu.Unlock()
	v := redirect.Query()
	v.Set("code", code)
	if st := q.Get("state"); st != "" {
		v.Set("state", st)
	}
	redirect.RawQuery = v.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

// token exchanges a code and its verifier for an access token.
func (o *oauth) token(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 8<<10)
	if r.Method != http.MethodPost || r.ParseForm() != nil || r.PostForm.Get("grant_type") != "authorization_code" {
		oauthError(w, "invalid_request")
		return
	}
	code := r.PostForm.Get("code")
	o.mu.Lock()
	pc, ok := o.codes[code]
	delete(o.codes, code)
	o.mu.Unlock()
	if !ok || o.now().After(pc.expires) || pc.redirect != r.PostForm.Get("redirect_uri") || pc.clientID != r.PostForm.Get("client_id") {
		oauthError(w, "invalid_grant")
		return
	}
	if pc.challenge != "" {
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != pc.challenge {
			oauthError(w, "invalid_grant")
			return
		}
	}
	tok := randomToken()
	o.mu.Lock()
	if len(o.tokens) >= maxPending {
		clear(o.tokens)
	}
	o.tokens[tok] = o.now().Add(time.Hour)
	o.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600, "scope": scopeOrders})
}

func oauthError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusBadRequest)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code})
}

// verify is the MCP server's token verifier.
func (o *oauth) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	o.mu.Lock()
	exp, ok := o.tokens[token]
	o.mu.Unlock()
	if !ok || o.now().After(exp) {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Scopes: []string{scopeOrders}, Expiration: exp, UserID: "demo-owner"}, nil
}

// mcpHandler serves the MCP endpoint. Without credentials a client may
// initialize, list and call the public tools. A request that carries a
// bearer token goes through the SDK's RequireBearerToken. It answers an
// invalid token with 401 and the RFC 9728 resource_metadata challenge.
func (s *Site) mcpHandler() http.Handler {
	srv := mcpServer()
	// The fake internet serves every host from a loopback listener, which
	// the SDK's DNS-rebinding protection would refuse for a Host such as
	// shop.example; on a real deployment leave the protection on.
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{JSONResponse: true, DisableLocalhostProtection: true})
	withToken := auth.RequireBearerToken(s.oauth.verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: strings.TrimSuffix(s.URL, "/") + "/.well-known/oauth-protected-resource/mcp",
	})(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			withToken.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}
