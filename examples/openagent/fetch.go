package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/agentweb/agentweb/examples/internal/cli"
	"github.com/agentweb/agentweb/openagent"
	"github.com/agentweb/agentweb/safefetch"
)

// fetchResult is the JSON printed by fetch.
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

// fetch retrieves the profile at URL with openagent.Fetch and classifies a
// failure: did-mismatch, invalid, unsupported-version, content-type and
// status exit 1, network exits 3.
func fetch(ctx context.Context, args []string, o cli.Output, client *safefetch.Client) int {
	fs := flag.NewFlagSet("fetch", flag.ContinueOnError)
	fs.SetOutput(o.Stderr)
	expect := fs.String("expect-did", "", "the identity the listing supplied; a different did is an error")
	pos, err := cli.Parse(fs, args)
	if err != nil || len(pos) != 1 {
		fmt.Fprint(o.Stderr, usage)
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
		case errors.Is(err, safefetch.ErrContentType):
			res.ErrorKind = "content-type"
		case errors.Is(err, safefetch.ErrStatus):
			res.ErrorKind = "status"
		default:
			res.ErrorKind = "network"
			code = exitNetwork
		}
		return o.JSON(res, code)
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
	return o.JSON(res, exitOK)
}
