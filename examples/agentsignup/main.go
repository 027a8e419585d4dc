// Command agentsignup validates, hashes and fetches agent-identity-v1
// discovery documents with package agentsignup.
//
// Usage:
//
//	agentsignup validate FILE
//	agentsignup hash TERMS-FILE
//	agentsignup fetch ORIGIN [--jwks URL|FILE] [--issuer ORIGIN]
//
// validate reads a document and prints its problems and warnings. hash prints
// TermsHash of the exact bytes of a terms file. fetch retrieves
// ORIGIN/.well-known/agent-signup.json through safefetch and validates it. It
// verifies its rp_attestation with the keys of --jwks (a JWK Set URL or file)
// trusted for --issuer. The issuer defaults to https://agentregistrar.dev,
// the live broker named by the discovery page.
//
// Every command prints one JSON object on standard output. Exit codes: 0 the
// document conforms (whatever the attestation result), 1 it does not or
// could not be retrieved, 2 a usage or local I/O error.
//
// Each subcommand lives in the file named after it.
package main

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/safefetch"
)

const exitOK, exitInvalid, exitUsage = cli.ExitOK, cli.ExitInvalid, cli.ExitUsage

// maxFileBytes caps local files (documents, terms, JWK Sets).
const maxFileBytes = 4 << 20

func main() { cli.Main(time.Minute, run) }

const usage = "usage: agentsignup validate FILE | hash TERMS-FILE | fetch ORIGIN [--jwks URL|FILE] [--issuer ORIGIN]\n"

// run is the whole program; client is the safefetch client for fetch (nil:
// safefetch.New(nil)).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	o := cli.Output{Name: "agentsignup", Usage: usage, Stdout: stdout, Stderr: stderr}
	return o.Dispatch(args, map[string]func([]string) int{
		"validate": func(args []string) int { return validate(args, o) },
		"hash":     func(args []string) int { return hash(args, o) },
		"fetch":    func(args []string) int { return fetch(ctx, args, o, client) },
	})
}

// report is the JSON printed by validate and fetch.
type report struct {
	File        string                `json:"file,omitempty"`
	Conformant  bool                  `json:"conformant"`
	TermsSHA256 string                `json:"terms_sha256,omitempty"`
	Problems    []agentsignup.Problem `json:"problems"`
	Warnings    []agentsignup.Problem `json:"warnings"`
	Fetch       *agentsignup.Fetched  `json:"fetch,omitempty"`
	Error       string                `json:"error,omitempty"`
}

// fill records the outcome of parsing a document: doc when it conforms,
// the problems and warnings of a *agentsignup.ValidationError otherwise.
func (r *report) fill(doc *agentsignup.Document, err error) {
	r.Problems, r.Warnings = []agentsignup.Problem{}, []agentsignup.Problem{}
	var ve *agentsignup.ValidationError
	switch {
	case errors.As(err, &ve):
		r.Problems = ve.Problems
		if ve.Warnings != nil {
			r.Warnings = ve.Warnings
		}
	case err != nil:
		r.Error = err.Error()
	}
	if doc != nil {
		r.Conformant = true
		r.TermsSHA256 = doc.Terms.SHA256
		if doc.Warnings != nil {
			r.Warnings = doc.Warnings
		}
	}
}

// emit prints r and exits 0 when the document conforms, 1 when not.
func (r *report) emit(o cli.Output) int {
	if !r.Conformant {
		return o.JSON(r, exitInvalid)
	}
	return o.JSON(r, exitOK)
}
