package agentic

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// File names WriteDir creates.
const (
	fileJSON    = "agentic.json"
	fileText    = "agentic.txt"
	fileReadme  = "README.md"
	fileListing = "LISTING.md"
	fileReport  = "discovery-report.json"
)

// ErrDirExists reports that WriteDir was given a directory that already
// exists; it never writes into or over one.
var ErrDirExists = errors.New("agentic: output directory already exists")

// Files returns the five files WriteDir writes, by name: agentic.json,
// agentic.txt, README.md, LISTING.md and discovery-report.json.
func (d *Discovery) Files() (map[string][]byte, error) {
	if d == nil || len(d.JSON) == 0 || len(d.Text) == 0 {
		return nil, errors.New("agentic: discovery has no profile to write")
	}
	report, err := json.MarshalIndent(d.Report, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("agentic: encoding the report: %w", err)
	}
	files := map[string][]byte{
		fileJSON:    d.JSON,
		fileText:    d.Text,
		fileReadme:  d.readme(),
		fileListing: d.listing(),
		fileReport:  append(report, '\n'),
	}
	for _, n := range []string{fileReadme, fileListing} {
		if len(files[n]) > maxPublishedFileBytes {
			return nil, fmt.Errorf("agentic: generated %s exceeds 64 KiB", n)
		}
	}
	return files, nil
}

// WriteDir writes the discovery's files into dir, which must not exist: it
// is created (its parent must exist) and each file is created exclusively,
// so nothing is ever overwritten ("The discover command creates a new
// directory ...; it refuses to overwrite an existing directory"). An
// existing dir yields an error wrapping ErrDirExists.
func (d *Discovery) WriteDir(dir string) error {
	files, err := d.Files()
	if err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%w: %s", ErrDirExists, dir)
		}
		return fmt.Errorf("agentic: creating %s: %w", dir, err)
	}
	for _, name := range []string{fileJSON, fileText, fileReadme, fileListing, fileReport} {
		f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("agentic: writing %s: %w", name, err)
		}
		_, werr := f.Write(files[name])
		cerr := f.Close()
		if werr != nil || cerr != nil {
			return fmt.Errorf("agentic: writing %s: %w", name, errors.Join(werr, cerr))
		}
	}
	return nil
}

// mdText makes an untrusted string safe as Markdown prose: control,
// invisible and directional characters become spaces, white space is
// collapsed, HTML is escaped, and Markdown punctuation is backslash-escaped,
// so a site's name cannot inject a heading, link or script.
func mdText(s string, limit int) string {
	s = cutRunes(cleanText(s), limit)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '{', '}', '[', ']', '(', ')', '!', '|', '#', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdLink writes a Markdown link to a URL that passed the profile's URL
// rules, with its label escaped.
func mdLink(label, u string) string {
	r := strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E")
	return "[" + mdText(label, 200) + "](" + r.Replace(u) + ")"
}

type summary struct {
	name, description string
	resources         []Resource
	retrieved, linked int
	apis, operations  int
	action            bool
	actions           int
}

func (d *Discovery) summary() summary {
	var s summary
	if d.Site != nil {
		s.name, s.description = d.Site.Name, d.Site.Description
		s.resources = d.Site.Resources
		for _, r := range s.resources {
			if r.Availability == AvailabilityRetrieved {
				s.retrieved++
			} else {
				s.linked++
			}
		}
		s.apis, s.operations = len(d.Site.APIs), d.Site.operationCount()
	} else if d.Action != nil {
		s.action, s.actions = true, len(d.Action.Actions)
		s.name = strings.TrimPrefix(d.Origin, "https://")
		s.description = "Action Profile 1.0 of " + s.name + "."
	}
	return s
}

func (d *Discovery) readme() []byte {
	s := d.summary()
	txtURL := textURL(d.ProfileURL)
	var b strings.Builder
	w := func(lines ...string) {
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	w("# "+mdText(s.name, 160), "", mdText(s.description, 600), "", "Website: "+mdLink(d.Origin, d.Origin+"/"), "")
	w("## What is in this directory", "")
	if s.action {
		w("- "+fileJSON+": the Action Profile 1.0 already published at "+mdLink(d.ProfileURL, d.ProfileURL)+", kept exactly as it was found.",
			"- "+fileText+": its Action TXT index, regenerated from that JSON.")
	} else {
		w("- "+fileJSON+": an Agentic Site Profile 1.1 describing the public documents, APIs and agent connections of this site.",
			"- "+fileText+": its text index, generated from the JSON. The JSON is authoritative.")
	}
	w("- "+fileListing+": copy for directory listings.",
		"- "+fileReport+": how the scan went: every request with its status and size, failures, what was shortened, and when it was observed.", "")
	w("## What was found", "")
	if s.action {
		w(fmt.Sprintf("The site already publishes an Action Profile 1.0 with %d actions. It was preserved byte for byte; nothing was generated in its place.", s.actions), "")
	} else {
		w(fmt.Sprintf("%d resources: %d documents read (retrieved) and %d advertised links that were recorded without being fetched or invoked (linked). %d OpenAPI indexes with %d operations in all.",
			len(s.resources), s.retrieved, s.linked, s.apis, s.operations), "")
		for _, r := range s.resources {
			label := r.Title
			if label == "" {
				label = r.URL
			}
			state := "read"
			if r.Availability == AvailabilityLinked {
				state = "linked, not verified"
			}
			w("- " + string(r.Kind) + ": " + mdLink(label, r.URL) + " (" + state + ")")
		}
		w("")
	}
	w("## How to publish", "",
		"1. Serve "+fileJSON+" at "+mdLink(d.ProfileURL, d.ProfileURL)+" with `Content-Type: application/json`.",
		"2. Serve "+fileText+" at "+mdLink(txtURL, txtURL)+" with `Content-Type: text/plain; charset=utf-8`.",
		"3. Publish both files together, from the same revision, and keep their names and location.",
		"4. Check the published pair with the auditor, for example `agentic audit "+strings.NewReplacer("`", "").Replace(d.ProfileURL)+"`, and follow what it reports.", "")
	w("## How to keep it current", "",
		"- Edit "+fileJSON+", never "+fileText+": regenerate the TXT from the JSON after every change (`agentic text agentic.json`), because a TXT that differs from its JSON by one byte no longer matches.",
		"- Run the discovery again when documentation, the OpenAPI document or the advertised agent connections change, and compare the new profile with this one before replacing it.",
		"- Review linked resources: a link is recorded because a page of the site advertised it, which establishes neither ownership, conformance nor permission.", "")
	w("Resources are discovery information, not execution instructions. Indexed operations describe the OpenAPI document, which remains authoritative for servers, security, parameters and responses.")
	return []byte(b.String())
}

func (d *Discovery) listing() []byte {
	s := d.summary()
	var b strings.Builder
	w := func(lines ...string) {
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	w("# Listing copy for "+mdText(s.name, 160), "", "## Title", "", mdText(s.name, 160), "",
		"## Short description", "", mdText(s.description, 240), "", "## Full description", "", mdText(s.description, 600), "")
	if s.action {
		w(fmt.Sprintf("Publishes an Agentic Action Profile 1.0 with %d actions.", s.actions), "")
	} else {
		w(fmt.Sprintf("Publishes an Agentic Site Profile 1.1 with %d public resources and %d documented API operations, each resource marked as read or only advertised, with the page it came from.", len(s.resources), s.operations), "")
	}
	w("## Links", "", "- Website: "+mdLink(d.Origin, d.Origin+"/"),
		"- Agentic JSON: "+mdLink(d.ProfileURL, d.ProfileURL),
		"- Agentic TXT: "+mdLink(textURL(d.ProfileURL), textURL(d.ProfileURL)))
	n := 0
	for _, r := range listingOrder(s.resources) {
		if n == 12 {
			w("- More resources are listed in agentic.json.")
			break
		}
		n++
		state := "document read"
		if r.Availability == AvailabilityLinked {
			state = "advertised; not connection-tested"
		}
		label := r.Title
		if label == "" {
			label = r.URL
		}
		w("- " + string(r.Kind) + ": " + mdLink(label, r.URL) + " (" + state + ")")
	}
	w("", "## Before submitting", "",
		"Confirm from your own documentation what a link cannot tell: the repository, license, contact, transport, required credentials or OAuth, supported clients and working usage examples. This text is portable copy; it is not a submitted or approved listing.")
	return []byte(b.String())
}

// listingOrder puts agent connections and API descriptions before
// documentation, keeping the profile's order within each group, and leaves
// out the website and agentic records.
func listingOrder(res []Resource) []Resource {
	var out []Resource
	for _, group := range [][]Kind{{KindOpenAPI, KindMCP, KindA2A, KindAgentAuth}, {KindLLMs, KindDocumentation}} {
		for _, r := range res {
			for _, k := range group {
				if r.Kind == k {
					out = append(out, r)
				}
			}
		}
	}
	return out
}
