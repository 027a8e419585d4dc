package main

import (
	"context"
	"flag"
	"strings"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
)

// fetch retrieves ORIGIN's discovery document with agentsignup.Fetch and
// verifies its rp_attestation with the --jwks keys trusted for --issuer
// (no --jwks: no issuer is trusted, so an attestation is untrusted-issuer).
func fetch(ctx context.Context, args []string, o cli.Output, client *safefetch.Client) int {
	fs := flag.NewFlagSet("fetch", flag.ContinueOnError)
	jwks := fs.String("jwks", "", "JWK Set of the issuer's attestation keys: an https URL or a file")
	issuer := fs.String("issuer", "https://agentregistrar.dev", "issuer origin the --jwks keys are trusted for")
	pos, ok := o.Args(fs, args, 1) // the origin before or after the flags
	if !ok {
		return exitUsage
	}
	if client == nil {
		client = safefetch.New(nil)
	}
	var keys agentsignup.KeySet
	switch {
	case strings.HasPrefix(*jwks, "https://"):
		ks, err := agentsignup.NewJWKSKeySet(*issuer, *jwks, &agentsignup.JWKSOptions{Client: client})
		if err != nil {
			return o.Fail(exitUsage, err)
		}
		keys = ks
	case *jwks != "":
		data, err := cli.ReadFile(*jwks, maxFileBytes)
		if err == nil {
			var pks []agentsignup.PublicKey
			if pks, err = agentsignup.ParseJWKS(data); err == nil {
				keys = agentsignup.StaticKeySet{*issuer: pks}
			}
		}
		if err != nil {
			return o.Fail(exitUsage, err)
		}
	}
	f, err := agentsignup.Fetch(ctx, pos[0], &agentsignup.FetchOptions{Client: client, Verifier: agentsignup.NewVerifier(keys, nil)})
	r := &report{Fetch: f}
	if f != nil {
		r.fill(f.Document, err)
		if f.Document != nil && err != nil {
			r.Error = err.Error() // the key set failed
		}
	} else {
		r.fill(nil, err)
	}
	return r.emit(o)
}
