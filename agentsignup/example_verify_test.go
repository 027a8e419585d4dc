package agentsignup_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/safefetch/fetchtest"
)

// brokerKey is the broker's signing key, from a fixed seed so that the
// output below is stable.
var brokerKey = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{42}, ed25519.SeedSize))

// attestation signs an rp_attestation the way a broker would.
func attestation(rpOrigin string, iat, exp time.Time) string {
	b64 := base64.RawURLEncoding.EncodeToString
	header, _ := json.Marshal(map[string]any{"alg": "EdDSA", "typ": "agent-rp-attestation+jwt", "kid": "broker-2026"})
	claims, _ := json.Marshal(map[string]any{
		"iss": "https://agentregistrar.dev",
		"iat": iat.Unix(),
		"exp": exp.Unix(),
		"rp":  map[string]any{"origin": rpOrigin, "audience": "example-rp"},
	})
	input := b64(header) + "." + b64(claims)
	return input + "." + b64(ed25519.Sign(brokerKey, []byte(input)))
}

func exampleDocument(att string) *agentsignup.Document {
	doc, err := agentsignup.NewDocument(agentsignup.Document{
		Audience:        "example-rp",
		ProviderName:    "Example RP",
		IssuerAllowlist: []string{"https://agentregistrar.dev"},
		RequiredScopes:  []string{"tos:accept"},
		Terms: agentsignup.Terms{
			Version: "2026.1",
			URL:     "https://example.com/terms",
			Text:    "Example RP Terms of Service. The agent acts for a verified human owner, and the human owner is bound by these terms.",
		},
		Endpoints:     agentsignup.Endpoints{AgentSignup: "https://example.com/api/signup/agent"},
		RPAttestation: att,
	})
	if err != nil {
		panic(err)
	}
	return doc
}

func ExampleVerifier_Verify() {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	doc := exampleDocument(attestation("https://example.com", now.Add(-time.Hour), now.Add(30*24*time.Hour)))
	keys := agentsignup.StaticKeySet{
		"https://agentregistrar.dev": {{KeyID: "broker-2026", Key: brokerKey.Public().(ed25519.PublicKey)}},
	}
	ctx := context.Background()
	clock := now
	v := agentsignup.NewVerifier(keys, &agentsignup.VerifierConfig{Now: func() time.Time { return clock }})

	res, _ := v.Verify(ctx, doc, "https://example.com")
	fmt.Println(res.Status, res.Claims.RP.Origin)

	// The same document copied to another origin.
	res, _ = v.Verify(ctx, doc, "https://copycat.example")
	fmt.Println(res.Status)

	// Two months later.
	clock = now.Add(60 * 24 * time.Hour)
	res, _ = v.Verify(ctx, doc, "https://example.com")
	fmt.Println(res.Status)

	// A verifier that does not trust the broker's key.
	untrusting := agentsignup.NewVerifier(agentsignup.StaticKeySet{}, &agentsignup.VerifierConfig{Now: func() time.Time { return now }})
	res, _ = untrusting.Verify(ctx, doc, "https://example.com")
	fmt.Println(res.Status)
	// Output:
	// verified https://example.com
	// origin-mismatch
	// expired
	// untrusted-issuer
}

func ExampleFetch() {
	// A fake internet: the relying party's site and the broker's JWK Set.
	n := fetchtest.New()
	defer n.Close()
	now := time.Now()
	h, err := agentsignup.Handler(exampleDocument(attestation("https://example.com", now.Add(-time.Hour), now.Add(time.Hour))), nil)
	if err != nil {
		panic(err)
	}
	n.Site("example.com", h)
	jwks, _ := json.Marshal(map[string]any{"keys": []any{map[string]any{
		"kty": "OKP", "crv": "Ed25519", "kid": "broker-2026",
		"x": base64.RawURLEncoding.EncodeToString(brokerKey.Public().(ed25519.PublicKey)),
	}}})
	n.Site("agentregistrar.dev", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/jwk-set+json")
		w.Write(jwks)
	}))

	keys, err := agentsignup.NewJWKSKeySet("https://agentregistrar.dev", "https://agentregistrar.dev/jwks.json",
		&agentsignup.JWKSOptions{Client: n.Client()})
	if err != nil {
		panic(err)
	}
	f, err := agentsignup.Fetch(context.Background(), "example.com", &agentsignup.FetchOptions{Client: n.Client(), Verifier: agentsignup.NewVerifier(keys, nil)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f.URL)
	fmt.Println(f.ContentType)
	fmt.Println(f.Document.Terms.SHA256 == agentsignup.TermsHash(f.Document.Terms.Text))
	fmt.Println(f.Attestation.Status)
	// Output:
	// https://example.com/.well-known/agent-signup.json
	// application/json
	// true
	// verified
}

func ExampleHandler() {
	doc := exampleDocument("")
	h, err := agentsignup.Handler(doc, nil)
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle(agentsignup.WellKnownPath, h)

	n := fetchtest.New()
	defer n.Close()
	n.Site("example.com", mux)
	resp, err := n.Client().Get(context.Background(), "https://example.com"+agentsignup.WellKnownPath, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"))
	resp, _ = n.Client().Get(context.Background(), "https://example.com"+agentsignup.WellKnownPath,
		http.Header{"If-None-Match": {resp.Header.Get("ETag")}})
	fmt.Println(resp.StatusCode)
	// Output:
	// 200 application/json no-cache
	// 304
}

func ExampleSignAttestation() {
	// A broker's signing key (fixed seed here so that the output is stable).
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	token, err := agentsignup.SignAttestation(agentsignup.AttestationClaims{
		Issuer:   "https://agentregistrar.dev",
		IssuedAt: now,
		Expiry:   now.Add(30 * 24 * time.Hour),
		RP:       agentsignup.AttestedRP{Origin: "https://example.com", Audience: "example-rp"},
	}, key, "broker-2026")
	if err != nil {
		panic(err)
	}
	fmt.Println(token[:strings.Index(token, ".")])

	keys := agentsignup.StaticKeySet{
		"https://agentregistrar.dev": {{KeyID: "broker-2026", Key: key.Public().(ed25519.PublicKey)}},
	}
	v := agentsignup.NewVerifier(keys, &agentsignup.VerifierConfig{Now: func() time.Time { return now }})
	res, _ := v.Verify(context.Background(), exampleDocument(token), "https://example.com")
	fmt.Println(res.Status, res.KeyID)

	// A broker cannot sign what verifiers must reject.
	_, err = agentsignup.SignAttestation(agentsignup.AttestationClaims{
		Issuer:   "https://agentregistrar.dev",
		IssuedAt: now,
		Expiry:   now.Add(time.Hour),
		RP:       agentsignup.AttestedRP{Origin: "https://example.com", Audience: "example-rp"},
		Raw:      json.RawMessage(`{"scopes":["orders:write"]}`),
	}, key, "broker-2026")
	fmt.Println(errors.Is(err, agentsignup.ErrForbiddenClaims))
	// Output:
	// eyJhbGciOiJFZERTQSIsImtpZCI6ImJyb2tlci0yMDI2IiwidHlwIjoiYWdlbnQtcnAtYXR0ZXN0YXRpb24rand0In0
	// verified broker-2026
	// true
}
