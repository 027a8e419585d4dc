package agentic

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
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

// WriteDir writes the discovery's files into dir, which must not exist.
// WriteDir creates it, and its parent must exist. Each file is created
// exclusively, so nothing is ever overwritten ("The discover command creates
// a new directory ...; it refuses to overwrite an existing directory"). An
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

// The README.md and LISTING.md of WriteDir are built as the reference
// tools (ruagentic 1.3.0) build them for the same profile. The reference
// auditor requires both project references with their descriptions in the
// README. Built this way, it scores them as it scores its own.

// mdText makes an untrusted string safe as Markdown prose, as the
// reference does. Control, invisible and directional characters become
// spaces. White space is collapsed and trimmed. The text is cut to limit
// UTF-16 code units, never inside a character. HTML is escaped, and the
// Markdown punctuation \ ` * { } [ ] ( ) ! | # is backslash-escaped. So a
// site's name cannot inject a heading, link or script.
func mdText(s string, limit int) string {
	var clean strings.Builder
	space, started := false, false
	for _, r := range s {
		if proseBlank(r) || jsSpace(r) {
			space = started
			continue
		}
		if space {
			clean.WriteByte(' ')
			space = false
		}
		started = true
		clean.WriteRune(r)
	}
	var b strings.Builder
	units := 0
	for _, r := range clean.String() {
		n := 1
		if r > 0xFFFF {
			n = 2
		}
		if units+n > limit {
			break
		}
		units += n
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '{', '}', '[', ']', '(', ')', '!', '|', '#':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// proseBlank reports the characters the reference's prose filter turns
// into spaces: C0 and C1 controls, DEL, and the zero-width, directional and
// invisible formatting characters.
func proseBlank(r rune) bool {
	return r <= 0x1f || (r >= 0x7f && r <= 0x9f) || (r >= 0x200b && r <= 0x200f) ||
		(r >= 0x2028 && r <= 0x202e) || (r >= 0x2060 && r <= 0x206f) || r == 0xfeff
}

// jsSpace reports the white space of a JavaScript regular expression's \s.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// mdLink writes a Markdown link to a URL that passed the profile's URL
// rules. The label is escaped as prose, at most 200 code units. The URL is
// in its serialised form, with an empty path written "/", and "(" and ")"
// percent-encoded.
func mdLink(label, u string) string {
	return "[" + mdText(label, 200) + "](" + strings.NewReplacer("(", "%28", ")", "%29").Replace(hrefOf(u)) + ")"
}

// hrefOf serialises an absolute URL as a browser does for the URLs a valid
// profile can hold: scheme and host lower-case, the path percent-encoded,
// an empty path written "/".
func hrefOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return strings.NewReplacer(" ", "%20", "<", "%3C", ">", "%3E").Replace(raw)
	}
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	out := strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + p
	if u.RawQuery != "" || u.ForceQuery {
		out += "?" + u.RawQuery
	}
	return out
}

// attribution lists the two project references of TXT 1.2 as the
// reference's README and LISTING do.
func attribution() []string {
	var out []string
	for _, r := range projectReferences() {
		out = append(out, "- **"+mdLink(r.Name, r.URL)+"** — "+r.Description)
	}
	return out
}

// publication is what the README and LISTING say of a discovery's profile.
type publication struct {
	site                  bool
	version, origin       string
	name, description     string
	profileHref, textHref string
	resources             []Resource
	operations            int
	actions               []TextAction
	actionOpenAPI         []string
}

func (d *Discovery) publication() publication {
	p := publication{origin: d.Origin, profileHref: hrefOf(d.ProfileURL), textHref: hrefOf(textURL(d.ProfileURL))}
	switch {
	case d.Site != nil:
		p.site, p.version, p.origin = true, d.Site.Agentic, d.Site.Origin
		p.name, p.description, p.resources = d.Site.Name, d.Site.Description, d.Site.Resources
		p.operations = d.Site.operationCount()
	case d.Action != nil:
		p.version, p.origin = d.Action.Agentic, d.Action.Origin
		p.name = strings.TrimPrefix(d.Action.Origin, "https://")
		p.description = "Service actions with request tracking and result verification."
		p.actions, p.actionOpenAPI = d.Action.Actions, d.Action.openAPI
		p.operations = len(p.actions)
	}
	return p
}

func joinLines(lines []string) []byte { return []byte(strings.Join(lines, "\n")) }

// readme builds README.md as the reference's buildReadme does.
func (d *Discovery) readme() []byte {
	p := d.publication()
	contract := "site information"
	if !p.site {
		contract = "action contract"
	}
	l := []string{
		"# " + mdText(p.name, 160), "",
		mdText(p.description, 600), "",
		"Website: " + mdLink(p.origin, p.origin), "",
		"## Agentic files", "",
		"- " + mdLink(fileJSON, p.profileHref) + " — structured " + contract + ".",
		"- " + mdLink(fileText, p.textHref) + " — readable index with specification and directory references.", "",
	}
	if p.site {
		l = append(l, fmt.Sprintf("This Site Profile %s indexes %d public resources and %d documented API operations. Resource records distinguish documents that were read from connections that were only advertised.", p.version, len(p.resources), p.operations))
	} else {
		l = append(l, fmt.Sprintf("This Action Profile %s describes %d actions. Its service must implement the published request tracking, status lookup, and result-verification contract.", p.version, p.operations))
	}
	l = append(l, "", "## Documentation and connections", "")
	var selected []Resource
	for _, r := range p.resources {
		if r.Kind != KindWebsite && r.Kind != KindAgentic && len(selected) < 12 {
			selected = append(selected, r)
		}
	}
	for _, r := range selected {
		label := r.Title
		if label == "" {
			label = string(r.Kind)
		}
		state := "document retrieved"
		if r.Availability != AvailabilityRetrieved {
			state = "advertised link; connection not tested"
		}
		l = append(l, "- "+mdLink(label, r.URL)+" — "+string(r.Kind)+"; "+state+".")
	}
	if len(p.resources) > len(selected) {
		l = append(l, "", "See agentic.json for the complete published resource index.")
	}
	for i, a := range p.actions {
		line := "- **" + mdText(a.ID, 80) + "** — " + mdText(a.Description, 600)
		if i < len(p.actionOpenAPI) && p.actionOpenAPI[i] != "" {
			if u, err := url.Parse(p.origin + "/"); err == nil {
				if ref, err := url.Parse(p.actionOpenAPI[i]); err == nil {
					line += " " + mdLink("OpenAPI", u.ResolveReference(ref).String())
				}
			}
		}
		l = append(l, line)
	}
	if p.site && len(selected) == 0 {
		l = append(l, "Use the website link above for the available public documentation.")
	}
	l = append(l, "",
		"## Publish and keep the files current", "",
		"1. Publish agentic.json and agentic.txt at the URLs above. Keep their filenames and profile location consistent.",
		"2. Merge the relevant sections of this README into your existing README.md. Keep project-specific installation, authentication, licensing, and usage instructions.",
		"3. Serve a public README.md beside the Agentic files, or give its public raw Markdown URL to the auditor. Use README.md, not README.me.",
		"4. Run "+mdLink("the Agentic audit", "https://ruagentic.org/audit/")+" and follow any reported fixes. Regenerate after your public documentation changes.", "",
		"Local tools (Node 24+):", "",
		"```sh",
		"npm install -g ruagentic@1.3.0",
		"agentic validate agentic.json",
		"agentic text agentic.json --check",
		"```", "")
	if p.site {
		l = append(l, "The index is descriptive. Follow the linked API or protocol documentation for supported clients, transport, authentication, parameters, and responses. Do not infer idempotency or recovery guarantees from endpoint names.")
	} else {
		l = append(l, "Also validate this action profile against its OpenAPI document and test service behavior. The files do not implement authorization, idempotency, or recovery by themselves.")
	}
	l = append(l, "", "## Specification and directory", "")
	l = append(l, attribution()...)
	l = append(l, "",
		"These references identify the convention and its directory. Publishing these files does not submit a listing, certify the service, or establish an affiliation with another directory.", "",
		"## Directory listing text", "",
		"Use the accompanying LISTING.md for a reusable title, description, website, documentation, and advertised connection links. Review any directory-specific requirements before submitting.", "")
	return joinLines(l)
}

// listing builds LISTING.md as the reference's buildListing does.
func (d *Discovery) listing() []byte {
	p := d.publication()
	l := []string{
		"# Listing information for " + mdText(p.name, 160), "",
		"## Title", "", mdText(p.name, 160), "",
		"## Short description", "", mdText(p.description, 240), "",
		"## Full description", "", mdText(p.description, 600), "",
	}
	if p.site {
		l = append(l, fmt.Sprintf("Publishes an Agentic site profile with %d public resources and %d documented API operations. The profile identifies public documents and advertised agent connections with source provenance.", len(p.resources), p.operations))
	} else {
		l = append(l, fmt.Sprintf("Publishes an Agentic action contract for %d service actions, including request-status lookup and result verification.", p.operations))
	}
	l = append(l, "", "## Links", "",
		"- Website: "+mdLink(p.origin, p.origin),
		"- Agentic JSON: "+mdLink(fileJSON, p.profileHref),
		"- Agentic TXT: "+mdLink(fileText, p.textHref))
	n := 0
	for _, r := range p.resources {
		switch r.Kind {
		case KindDocumentation, KindOpenAPI, KindMCP, KindA2A, KindAgentAuth:
		default:
			continue
		}
		if n == 12 {
			break
		}
		n++
		label := r.Title
		if label == "" {
			label = r.URL
		}
		state := "document read"
		if r.Availability != AvailabilityRetrieved {
			state = "advertised; not connection-tested"
		}
		l = append(l, "- "+mdText(string(r.Kind), 600)+": "+mdLink(label, r.URL)+" ("+state+").")
	}
	l = append(l, "", "## Agentic references", "")
	l = append(l, attribution()...)
	l = append(l, "",
		"## Complete before submitting", "",
		"Confirm the repository URL, license, owner/contact details, MCP transport, required credentials or OAuth, supported clients, installation steps, and working usage examples from your service documentation. These are not inferred from an endpoint link.", "",
		"This is portable listing copy for RUAGENTIC, Smithery, MCP Playground, or another directory. It is not a submitted listing or a provider-specific configuration file. Each directory sets its own requirements.", "")
	return joinLines(l)
}
