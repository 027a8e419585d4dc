// Command agentsignup validates, hashes and fetches agent-identity-v1
// discovery documents with package agentsignup.
//
// Usage:
//
//	agentsignup validate FILE
//	agentsignup hash TERMS-FILE
//	agentsignup fetch ORIGIN [--jwks URL|FILE] [--issuer ORIGIN]
//
// validate reads a document and prints its problems and warnings. hash
// prints TermsHash of the exact bytes of a terms file. fetch retrieves
// ORIGIN/.well-known/agent-signup.json through safefetch, validates it and
// verifies its rp_attestation with the keys of --jwks (a JWK Set URL or file)
// trusted for --issuer (default https://agentregistrar.dev, the live broker
// named by the discovery page).
//
// Every command prints one JSON object on standard output. Exit codes: 0 the
// document conforms (whatever the attestation result), 1 it does not or
// could not be retrieved, 2 a usage or local I/O error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentweb/agentweb/agentsignup"
	"github.com/agentweb/agentweb/safefetch"
)

const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

// maxFileBytes caps local files (documents, terms, JWK Sets).
const maxFileBytes = 4 << 20

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	cancel()
	os.Exit(code)
}

// run is the whole program; client is the safefetch client for fetch (nil:
// safefetch.New(nil)).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "validate":
		if len(args) != 2 {
			usage(stderr)
			return exitUsage
		}
		return validate(args[1], stdout, stderr)
	case "hash":
		if len(args) != 2 {
			usage(stderr)
			return exitUsage
		}
		return hash(args[1], stdout, stderr)
	case "fetch":
		return fetch(ctx, args[1:], stdout, stderr, client)
	default:
		usage(stderr)
		return exitUsage
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: agentsignup validate FILE | hash TERMS-FILE | fetch ORIGIN [--jwks URL|FILE] [--issuer ORIGIN]")
}

func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileBytes {
		return nil, fmt.Errorf("%s is over %d bytes", name, maxFileBytes)
	}
	return b, nil
}

func emit(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
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

func validate(name string, stdout, stderr io.Writer) int {
	data, err := readFile(name)
	if err != nil {
		fmt.Fprintln(stderr, "agentsignup:", err)
		return exitUsage
	}
	doc, err := agentsignup.Parse(data)
	r := &report{File: name}
	r.fill(doc, err)
	emit(stdout, r)
	if !r.Conformant {
		return exitInvalid
	}
	return exitOK
}

func hash(name string, stdout, stderr io.Writer) int {
	data, err := readFile(name)
	if err != nil {
		fmt.Fprintln(stderr, "agentsignup:", err)
		return exitUsage
	}
	emit(stdout, map[string]any{"file": name, "bytes": len(data), "sha256": agentsignup.TermsHash(string(data))})
	return exitOK
}

func fetch(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	fs := flag.NewFlagSet("fetch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jwks := fs.String("jwks", "", "JWK Set of the issuer's attestation keys: an https URL or a file")
	issuer := fs.String("issuer", "https://agentregistrar.dev", "issuer origin the --jwks keys are trusted for")
	// Accept the origin before or after the flags.
	var origin string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		origin, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if origin == "" && fs.NArg() == 1 {
		origin = fs.Arg(0)
	} else if fs.NArg() != 0 || origin == "" {
		usage(stderr)
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
			fmt.Fprintln(stderr, "agentsignup:", err)
			return exitUsage
		}
		keys = ks
	case *jwks != "":
		data, err := readFile(*jwks)
		if err == nil {
			var pks []agentsignup.PublicKey
			if pks, err = agentsignup.ParseJWKS(data); err == nil {
				keys = agentsignup.StaticKeySet{*issuer: pks}
			}
		}
		if err != nil {
			fmt.Fprintln(stderr, "agentsignup:", err)
			return exitUsage
		}
	}
	f, err := agentsignup.Fetch(ctx, origin, &agentsignup.FetchOptions{Client: client, Keys: keys})
	r := &report{Fetch: f}
	if f != nil {
		r.fill(f.Document, err)
		if f.Document != nil && err != nil {
			r.Error = err.Error() // the key set failed
		}
	} else {
		r.fill(nil, err)
	}
	emit(stdout, r)
	if !r.Conformant {
		return exitInvalid
	}
	return exitOK
}
