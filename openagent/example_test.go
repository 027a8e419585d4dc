package openagent_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/safefetch"
)

func ExampleParse() {
	p, err := openagent.Parse([]byte(`{
	  "type": "logicsrc.agent",
	  "version": "0.1",
	  "name": "Research agent",
	  "did": "research.coinpay",
	  "owner_did": "operator.coinpay",
	  "skills": ["research", "source-verification"],
	  "permissions_requested": ["web:read"],
	  "pricing": {"model": "per_task"}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.DID, "owned (claimed) by", p.OwnerDID)
	fmt.Println("requests:", p.PermissionsRequested)
	fmt.Println("pricing:", p.Pricing)
	// Output:
	// research.coinpay owned (claimed) by operator.coinpay
	// requests: [web:read]
	// pricing: incomplete pricing (missing amount, currency): per_task
}

func ExampleValidationError() {
	_, err := openagent.Parse([]byte(`{
	  "type": "logicsrc.agent",
	  "version": "1.2",
	  "name": "Research agent",
	  "did": "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
	  "owner_did": "operator.coinpay",
	  "skills": ["research"],
	  "permissions_requested": ["web:*"],
	  "wallet": "coinpay"
	}`))
	var ve *openagent.ValidationError
	if errors.As(err, &ve) {
		for _, p := range ve.Problems {
			fmt.Println(p.Pointer, p.Rule)
		}
	}
	fmt.Println(errors.Is(err, openagent.ErrUnsupportedVersion))
	// Output:
	// /did did-syntax
	// /permissions_requested/0 permission-syntax
	// /version version-unsupported
	// /wallet schema-additionalProperties
	// true
}

func ExampleProfile_Marshal() {
	p := &openagent.Profile{
		Type:                 openagent.Type,
		Version:              openagent.Version,
		Name:                 "Research agent",
		DID:                  "research.coinpay",
		OwnerDID:             "operator.coinpay",
		Skills:               []string{"research"},
		PermissionsRequested: []string{},
	}
	out, err := p.Marshal()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// {
	//   "type": "logicsrc.agent",
	//   "version": "0.1",
	//   "name": "Research agent",
	//   "did": "research.coinpay",
	//   "owner_did": "operator.coinpay",
	//   "skills": [
	//     "research"
	//   ],
	//   "permissions_requested": []
	// }
}

func ExampleCheckPublic() {
	private := false
	p := &openagent.Profile{
		Type: openagent.Type, Version: openagent.Version, Name: "Build agent",
		DID: "build.example", OwnerDID: "ops.example", Skills: []string{"ci"},
		PermissionsRequested: []string{"repo:write"},
		Description:          "Checks out into /home/ci/work with token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
		Public:               &private,
	}
	for _, f := range openagent.CheckPublic(p, nil) {
		fmt.Println(f.Severity, f.Pointer, f.Rule)
	}
	// Output:
	// error /description access-token
	// error /description workspace-path
	// warning /public public-false-unauthenticated
}

func ExampleHandler() {
	p, err := openagent.Parse([]byte(`{"type":"logicsrc.agent","version":"0.1","name":"Research agent",
		"did":"research.coinpay","owner_did":"operator.coinpay","skills":["research"],"permissions_requested":["web:read"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := openagent.Handler(p, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	mux := http.NewServeMux()
	mux.Handle(openagent.WellKnownPath, h)

	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, openagent.WellKnownPath, nil))
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"))

	// A reader that kept the ETag revalidates for free.
	req := httptest.NewRequest(http.MethodGet, openagent.WellKnownPath, nil)
	req.Header.Set("If-None-Match", rec.Header().Get("ETag"))
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	fmt.Println(rec.Code)

	// The page about the agent advertises the descriptor.
	fmt.Println(openagent.LinkElement("https://example.com/.well-known/openagent.json"))
	// Output:
	// 200 application/json
	// 304
	// <link rel="openagent" type="application/json" href="https://example.com/.well-known/openagent.json">
}

func ExampleDirectory() {
	profile := func(owner string) *openagent.Profile {
		return &openagent.Profile{Type: openagent.Type, Version: openagent.Version, Name: "Research agent",
			DID: "research.coinpay", OwnerDID: owner, Skills: []string{"research"}, PermissionsRequested: []string{}}
	}
	var dir openagent.Directory
	_, _ = dir.Add(&openagent.Record{Profile: profile("operator.coinpay"), Provenance: safefetch.Provenance{URL: "https://coinpay.example/.well-known/openagent.json"}})
	conflicts, _ := dir.Add(&openagent.Record{Profile: profile("mallory.example"), Provenance: safefetch.Provenance{URL: "https://mirror.example/research.json"}})
	for _, c := range conflicts {
		fmt.Println("conflict on", c.Pointer, "ownership:", c.Ownership())
		for _, v := range c.Values {
			fmt.Println(" ", v.SourceURL, v.Value)
		}
	}
	e, _ := dir.Lookup("research.coinpay")
	fmt.Println("merged profile:", e.Profile != nil, "publicly listable:", e.Public())
	// Output:
	// conflict on /owner_did ownership: true
	//   https://coinpay.example/.well-known/openagent.json "operator.coinpay"
	//   https://mirror.example/research.json "mallory.example"
	// merged profile: false publicly listable: false
}
