// Command agentic generates, validates, indexes and audits Agentic Site
// Profile 1.1 files with the exported API of package agentic only.
//
// Usage:
//
//	agentic discover ORIGIN --out DIR [--profile-url URL] [--txt 1.1|1.2]
//	agentic validate FILE
//	agentic text FILE [--check] [--txt-file PATH] [--profile-url URL] [--txt 1.1|1.2]
//	agentic audit PROFILE-URL [--skip-text]
//
// discover, validate, text --check and audit write one JSON object to
// standard output; text without --check writes the TXT index itself.
// Exit codes: 0 success; 1 invalid profile, TXT mismatch, or an audit that
// is not valid or whose TXT mismatches; 2 usage error, unreadable file,
// refused URL, failed fetch or existing output directory.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/safefetch"
)

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

// maxFileBytes caps what the commands read from a file (a profile and a
// TXT are at most 64 KiB; a little room is left to report the excess).
const maxFileBytes = 1 << 20

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil)
	cancel()
	os.Exit(code)
}

const usage = `usage:
  agentic discover ORIGIN --out DIR [--profile-url URL] [--txt 1.1|1.2]
  agentic validate FILE
  agentic text FILE [--check] [--txt-file PATH] [--profile-url URL] [--txt 1.1|1.2]
  agentic audit PROFILE-URL [--skip-text]
`

// run executes one command; client nil means safefetch.New(nil).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "discover":
		return discover(ctx, args[1:], stdout, stderr, client)
	case "validate":
		return validate(args[1:], stdout, stderr)
	case "text":
		return text(args[1:], stdout, stderr)
	case "audit":
		return audit(ctx, args[1:], stdout, stderr, client)
	default:
		fmt.Fprintf(stderr, "agentic: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
}

// parse reads flags placed before or after the positional arguments and
// requires exactly want positionals.
func parse(fs *flag.FlagSet, args []string, want int, stderr io.Writer) ([]string, bool) {
	fs.SetOutput(stderr)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, false
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != want {
		fmt.Fprint(stderr, usage)
		return nil, false
	}
	return pos, true
}

func emit(stdout, stderr io.Writer, v any, code int) int {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "agentic: %v\n", err)
		return exitUsage
	}
	return code
}

func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, maxFileBytes)
	}
	return data, nil
}

type discoverResult struct {
	Origin      string                   `json:"origin"`
	Outcome     string                   `json:"outcome"`
	ProfileURL  string                   `json:"profileUrl"`
	Out         string                   `json:"out"`
	Files       []string                 `json:"files"`
	Resources   int                      `json:"resources"`
	Operations  int                      `json:"operations"`
	Requests    int                      `json:"requests"`
	Failures    []agentic.Failure        `json:"failures"`
	Truncations []agentic.Truncation     `json:"truncations"`
	Budget      agentic.BudgetReport     `json:"budget"`
	Error       string                   `json:"error,omitempty"`
	Report      *agentic.DiscoveryReport `json:"-"`
}

func discover(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	fs := flag.NewFlagSet("discover", flag.ContinueOnError)
	out := fs.String("out", "", "new directory to write the files into")
	profileURL := fs.String("profile-url", "", "profile URL (default ORIGIN/agentic.json)")
	txt := fs.String("txt", "1.1", "TXT version to write: 1.1 or 1.2")
	pos, ok := parse(fs, args, 1, stderr)
	if !ok || *out == "" {
		if ok {
			fmt.Fprint(stderr, usage)
		}
		return exitUsage
	}
	if _, err := os.Stat(*out); err == nil {
		fmt.Fprintf(stderr, "agentic: %s already exists; choose a new directory\n", *out)
		return exitUsage
	}
	d, err := agentic.Discover(ctx, pos[0], &agentic.DiscoverOptions{Client: client, ProfileURL: *profileURL, TextVersion: *txt})
	res := discoverResult{Origin: pos[0], Out: *out}
	if d != nil {
		res.Origin, res.Outcome, res.ProfileURL = d.Origin, d.Outcome, d.ProfileURL
		res.Requests = len(d.Report.Requests)
		res.Failures, res.Truncations, res.Budget = d.Report.Failures, d.Report.Truncations, d.Report.Budget
		if d.Site != nil {
			res.Resources, res.Operations = len(d.Site.Resources), d.Site.OperationCount()
		}
	}
	if err != nil {
		res.Error = err.Error()
		return emit(stdout, stderr, res, exitUsage)
	}
	if err := d.WriteDir(*out); err != nil {
		res.Error = err.Error()
		return emit(stdout, stderr, res, exitUsage)
	}
	res.Files = []string{agentic.FileJSON, agentic.FileText, agentic.FileReadme, agentic.FileListing, agentic.FileReport}
	return emit(stdout, stderr, res, exitOK)
}

type validateResult struct {
	File     string            `json:"file"`
	Valid    bool              `json:"valid"`
	Kind     string            `json:"kind,omitempty"`
	Problems []agentic.Problem `json:"problems,omitempty"`
	Error    string            `json:"error,omitempty"`
}

func validate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	pos, ok := parse(fs, args, 1, stderr)
	if !ok {
		return exitUsage
	}
	data, err := readFile(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "agentic: %v\n", err)
		return exitUsage
	}
	res := validateResult{File: pos[0]}
	_, err = agentic.ParseSite(data)
	var ve *agentic.ValidationError
	switch {
	case err == nil:
		res.Valid, res.Kind = true, "site"
	case errors.Is(err, agentic.ErrActionProfile):
		res.Kind = "action"
		if _, aerr := agentic.ParseActionProfile(data); aerr != nil {
			errors.As(aerr, &ve)
		} else {
			res.Valid = true
		}
	default:
		errors.As(err, &ve)
	}
	if ve != nil {
		res.Problems = ve.Problems
	}
	if res.Valid {
		return emit(stdout, stderr, res, exitOK)
	}
	return emit(stdout, stderr, res, exitInvalid)
}

type textResult struct {
	File       string            `json:"file"`
	TextFile   string            `json:"textFile"`
	ProfileURL string            `json:"profileUrl,omitempty"`
	Check      agentic.TextCheck `json:"check"`
}

func text(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("text", flag.ContinueOnError)
	check := fs.Bool("check", false, "compare the TXT beside FILE (or --txt-file) with FILE")
	txtFile := fs.String("txt-file", "", "TXT file to check (default agentic.txt beside FILE)")
	profileURL := fs.String("profile-url", "", "profile URL (default the origin's /agentic.json)")
	version := fs.String("txt", "1.1", "TXT version to write: 1.1 or 1.2")
	pos, ok := parse(fs, args, 1, stderr)
	if !ok {
		return exitUsage
	}
	data, err := readFile(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "agentic: %v\n", err)
		return exitUsage
	}
	site, err := agentic.ParseSite(data)
	var action *agentic.ActionProfile
	if errors.Is(err, agentic.ErrActionProfile) {
		action, err = agentic.ParseActionProfile(data)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return exitInvalid
	}
	if !*check {
		var out []byte
		switch {
		case action != nil && *version == "1.2":
			out, err = action.PublicationText(*profileURL)
		case action != nil:
			out, err = action.Text(*profileURL)
		case *version == "1.2":
			out, err = site.PublicationText(*profileURL)
		default:
			out, err = site.Text(*profileURL)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			return exitInvalid
		}
		_, _ = stdout.Write(out)
		return exitOK
	}
	tf := *txtFile
	if tf == "" {
		tf = filepath.Join(filepath.Dir(pos[0]), agentic.FileText)
	}
	txt, err := readFile(tf)
	if err != nil {
		fmt.Fprintf(stderr, "agentic: %v\n", err)
		return exitUsage
	}
	res := textResult{File: pos[0], TextFile: tf, ProfileURL: *profileURL}
	if action != nil {
		res.Check = agentic.CheckActionText(action, *profileURL, txt)
	} else {
		res.Check = agentic.CheckTextDetail(site, *profileURL, txt)
	}
	if res.Check.Status == agentic.TextMatched {
		return emit(stdout, stderr, res, exitOK)
	}
	return emit(stdout, stderr, res, exitInvalid)
}

func audit(ctx context.Context, args []string, stdout, stderr io.Writer, client *safefetch.Client) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	skipText := fs.Bool("skip-text", false, "do not read the TXT index")
	pos, ok := parse(fs, args, 1, stderr)
	if !ok {
		return exitUsage
	}
	rep, err := agentic.Audit(ctx, pos[0], &agentic.AuditOptions{Client: client, SkipText: *skipText})
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return exitUsage
	}
	for _, c := range rep.Checks {
		if c.ID == "fetch" && c.Status == agentic.CheckFail {
			return emit(stdout, stderr, rep, exitUsage)
		}
	}
	if !rep.Valid || rep.TextIndex.Status == agentic.TextMismatch {
		return emit(stdout, stderr, rep, exitInvalid)
	}
	return emit(stdout, stderr, rep, exitOK)
}
