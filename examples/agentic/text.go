package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/agentweb/agentweb/agentic"
	"github.com/agentweb/agentweb/examples/internal/cli"
)

// textResult is the JSON printed by text --check.
type textResult struct {
	File       string            `json:"file"`
	TextFile   string            `json:"text_file"`
	ProfileURL string            `json:"profile_url,omitempty"`
	Check      agentic.TextCheck `json:"check"`
}

// text writes the TXT index of the profile FILE, or with --check compares
// an existing TXT with it.
func text(args []string, o cli.Output) int {
	fs := flag.NewFlagSet("text", flag.ContinueOnError)
	check := fs.Bool("check", false, "compare the TXT beside FILE (or --txt-file) with FILE")
	txtFile := fs.String("txt-file", "", "TXT file to check (default agentic.txt beside FILE)")
	profileURL := fs.String("profile-url", "", "profile URL (default the origin's /agentic.json)")
	version := fs.String("txt", "1.1", "TXT version to write: 1.1 or 1.2")
	file, data, ok := o.File(fs, args, maxFileBytes)
	if !ok {
		return exitUsage
	}
	site, err := agentic.ParseSite(data)
	var action *agentic.ActionProfile
	if errors.Is(err, agentic.ErrActionProfile) {
		action, err = agentic.ParseActionProfile(data)
	}
	if err != nil {
		fmt.Fprintln(o.Stderr, err)
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
			fmt.Fprintln(o.Stderr, err)
			return exitInvalid
		}
		_, _ = o.Stdout.Write(out)
		return exitOK
	}
	tf := *txtFile
	if tf == "" {
		tf = filepath.Join(filepath.Dir(file), "agentic.txt")
	}
	txt, err := cli.ReadFile(tf, maxFileBytes)
	if err != nil {
		return o.Fail(exitUsage, err)
	}
	res := textResult{File: file, TextFile: tf, ProfileURL: *profileURL}
	if action != nil {
		res.Check = action.CompareText(*profileURL, txt)
	} else {
		res.Check = site.CompareText(*profileURL, txt)
	}
	if res.Check.Status == agentic.TextStatusMatched {
		return o.JSON(res, exitOK)
	}
	return o.JSON(res, exitInvalid)
}
