// Command openagent validates, fetches and discovers OpenAgent 0.1 profiles
// with the exported API of package openagent only.
//
// Usage:
//
//	openagent validate FILE
//	openagent fetch URL [--expect-did DID]
//	openagent discover PAGE
//
// Every command writes one JSON object to standard output. Exit codes:
// 0 success; 1 the document or discovery result is not acceptable (invalid
// profile, unsupported version, did mismatch, wrong media type or status, no
// descriptor found); 2 usage error or unreadable file; 3 the network request
// failed or was refused.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/safefetch"
)

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
	exitNetwork = 3
)

// maxFileBytes caps what validate reads from a file.
const maxFileBytes = 1 << 20

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	cancel()
	os.Exit(code)
}

const usage = `usage:
  openagent validate FILE
  openagent fetch URL [--expect-did DID]
  openagent discover PAGE
`

// run executes one command; client nil means safefetch.New(nil).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "validate":
		return validate(args[1:], stdout, stderr)
	case "fetch":
		return fetch(ctx, args[1:], stdout, stderr, client)
	case "discover":
		return discover(ctx, args[1:], stdout, stderr, client)
	default:
		fmt.Fprintf(stderr, "openagent: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
}

// problemJSON is a validation problem as printed.
type problemJSON struct {
	Pointer string `json:"pointer"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

type validateResult struct {
	File     string              `json:"file"`
	Valid    bool                `json:"valid"`
	Problems []problemJSON       `json:"problems,omitempty"`
	Profile  *openagent.Profile  `json:"profile,omitempty"`
	Pricing  string              `json:"pricing,omitempty"`
	Findings []openagent.Finding `json:"public_findings,omitempty"`
}

func validate(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "openagent: %v\n", err)
		return exitUsage
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		fmt.Fprintf(stderr, "openagent: %v\n", err)
		return exitUsage
	}
	if len(data) > maxFileBytes {
		fmt.Fprintf(stderr, "openagent: %s is larger than %d bytes\n", args[0], maxFileBytes)
		return exitUsage
	}
	res := validateResult{File: args[0]}
	p, err := openagent.Parse(data)
	code := exitOK
	if err != nil {
		res.Problems = problems(err)
		code = exitInvalid
	} else {
		res.Valid = true
		res.Profile = p
		res.Findings = openagent.CheckPublic(p)
		if p.Pricing != nil {
			res.Pricing = p.Pricing.String()
		}
	}
	return emit(stdout, stderr, res, code)
}

func problems(err error) []problemJSON {
	var ve *openagent.ValidationError
	if !errors.As(err, &ve) {
		return []problemJSON{{Rule: "error", Message: err.Error()}}
	}
	out := make([]problemJSON, len(ve.Problems))
	for i, p := range ve.Problems {
		out[i] = problemJSON{Pointer: p.Pointer, Rule: p.Rule, Message: p.Message}
	}
	return out
}

type fetchResult struct {
	URL          string             `json:"url"`
	OK           bool               `json:"ok"`
	Error        string             `json:"error,omitempty"`
	ErrorKind    string             `json:"error_kind,omitempty"`
	ExpectedDID  string             `json:"expected_did,omitempty"`
	GotDID       string             `json:"got_did,omitempty"`
	Problems     []problemJSON      `json:"problems,omitempty"`
	FinalURL     string             `json:"final_url,omitempty"`
	Retrieved    *time.Time         `json:"retrieved,omitempty"`
	ETag         string             `json:"etag,omitempty"`
	LastModified string             `json:"last_modified,omitempty"`
	Profile      *openagent.Profile `json:"profile,omitempty"`
	Pricing      string             `json:"pricing,omitempty"`
	Note         string             `json:"note,omitempty"`
}

func fetch(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	fs := flag.NewFlagSet("fetch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	expect := fs.String("expect-did", "", "the identity the listing supplied; a different did is an error")
	pos, ok := parseInterleaved(fs, args)
	if !ok || len(pos) != 1 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	res := fetchResult{URL: pos[0], ExpectedDID: *expect}
	rec, err := openagent.Fetch(ctx, pos[0], &openagent.FetchOptions{Client: client, ExpectDID: *expect})
	if err != nil {
		res.Error = err.Error()
		var mismatch *openagent.DIDMismatchError
		var ve *openagent.ValidationError
		code := exitInvalid
		switch {
		case errors.As(err, &mismatch):
			res.ErrorKind = "did-mismatch"
			res.GotDID = mismatch.Got
		case errors.As(err, &ve):
			res.ErrorKind = "invalid"
			if errors.Is(err, openagent.ErrUnsupportedVersion) {
				res.ErrorKind = "unsupported-version"
			}
			res.Problems = problems(err)
		case errors.Is(err, openagent.ErrContentType):
			res.ErrorKind = "content-type"
		case errors.Is(err, openagent.ErrStatus):
			res.ErrorKind = "status"
		default:
			res.ErrorKind = "network"
			code = exitNetwork
		}
		return emit(stdout, stderr, res, code)
	}
	res.OK = true
	res.FinalURL = rec.FinalURL
	res.Retrieved = &rec.Retrieved
	res.ETag = rec.ETag
	res.LastModified = rec.LastModified
	res.Profile = rec.Profile
	if rec.Profile.Pricing != nil {
		res.Pricing = rec.Profile.Pricing.String()
	}
	res.Note = "owner and skills are unverified claims; permissions are a request; nothing was granted, paid or launched"
	return emit(stdout, stderr, res, exitOK)
}

func discover(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) != 1 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	d, err := openagent.DiscoverAll(ctx, args[0], &openagent.FetchOptions{Client: client})
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return exitNetwork
	}
	code := exitOK
	if len(d.Descriptors) == 0 {
		code = exitInvalid
		for _, f := range d.Failures {
			if !errors.Is(f.Err(), openagent.ErrStatus) {
				code = exitNetwork
			}
		}
	}
	return emit(stdout, stderr, d, code)
}

// parseInterleaved parses flags that may come before or after the
// positional arguments.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, bool) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		if fs.NArg() == 0 {
			return pos, true
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func emit(stdout, stderr io.Writer, v any, code int) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "openagent: %v\n", err)
		return exitUsage
	}
	return code
}
