package readiness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/shorten"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/webread"
)

// Agent skills discovery: the index paths, newest first (0.2.0 renamed
// /.well-known/skills/ to /.well-known/agent-skills/).
var skillsIndexPaths = []string{"/.well-known/agent-skills/index.json", "/.well-known/skills/index.json"}

// skillsSchema020 is the $schema of a 0.2.0 index (Agent Skills Discovery
// via Well-Known URIs 0.2.0, "Versioning"): an opaque identifier, matched
// and never fetched.
const skillsSchema020 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

const (
	// maxSkillsRead bounds the skill entries validated in an index; more
	// are counted and said, not read.
	maxSkillsRead = 1000
	// maxSkillsFetched bounds the skills whose artifact is fetched and
	// whose digest is checked.
	maxSkillsFetched = 3
	// maxSkillFiles bounds the file entries read per 0.1.0 skill.
	maxSkillFiles = 1000
)

var (
	skillName     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	skillDigestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// The artifact types of a 0.2.0 entry ("Skill entry fields").
const (
	skillTypeMD      = "skill-md"
	skillTypeArchive = "archive"
)

// skillEntry is one skill of an index as read.
type skillEntry struct {
	index                               int // its position in the index, for pointers
	name, typ, description, url, digest string
	files                               []string // 0.1.0 only
}

// skillsIndex is an agent-skills index as read and validated.
type skillsIndex struct {
	version  string // "0.2.0", or "0.1.0" when $schema is absent
	schema   string // an unknown $schema: the index is not read
	skills   []skillEntry
	total    int // entries in the index, read or not
	problems []string
	notes    []string
}

// parseSkillsIndex validates an agent-skills discovery index (Agent Skills
// Discovery via Well-Known URIs 0.2.0, "Discovery Index"). The $schema member
// decides how it is read ("Versioning"). The 0.2.0 URI reads entries of name,
// type ("skill-md" or "archive"), description, url and a sha256 digest of the
// artifact. An absent $schema reads the index as 0.1.0, whose entries list
// files as path strings with no digests. Any other $schema is named and the
// index is not read. Names follow the Agent Skills naming rule, and
// descriptions have at most 1024 characters. An entry of an unknown type is
// skipped with a note, and unknown members are ignored. Problems carry the JSON
// Pointer of the value.
func parseSkillsIndex(body []byte) *skillsIndex {
	ix := &skillsIndex{}
	v, err := strictjson.Decode(body)
	if err != nil {
		ix.problems = append(ix.problems, "not valid JSON: "+clean(err.Error()))
		return ix
	}
	m, ok := v.(map[string]any)
	if !ok {
		ix.problems = append(ix.problems, "/: not a JSON object")
		return ix
	}
	switch sc, has := m["$schema"]; {
	case !has:
		ix.version = "0.1.0"
		ix.notes = append(ix.notes, "no $schema: read as 0.1.0, whose entries list files and carry no digest (0.2.0 requires $schema "+skillsSchema020+")")
		if _, ok := m["version"]; ok {
			ix.notes = append(ix.notes, "a version member, from an intermediate draft that 0.2.0 replaced with $schema: ignored")
		}
	case sc == skillsSchema020:
		ix.version = "0.2.0"
	default:
		s, isStr := sc.(string)
		if !isStr {
			ix.problems = append(ix.problems, "/$schema: not a string")
			return ix
		}
		ix.schema = shorten.Runes(clean(s), 200)
		return ix
	}
	list, ok := m["skills"].([]any)
	if !ok {
		ix.problems = append(ix.problems, "/skills: not an array")
		return ix
	}
	ix.total = len(list)
	if len(list) > maxSkillsRead {
		ix.notes = append(ix.notes, fmt.Sprintf("read the first %d of %d skills", maxSkillsRead, len(list)))
		list = list[:maxSkillsRead]
	}
	seen := map[string]bool{}
	for i, it := range list {
		p := fmt.Sprintf("/skills/%d", i)
		o, ok := it.(map[string]any)
		if !ok {
			ix.problems = append(ix.problems, p+": not an object")
			continue
		}
		e := skillEntry{index: i, name: str(o["name"]), typ: str(o["type"]), description: str(o["description"]), digest: str(o["digest"]), url: str(o["url"])}
		switch {
		case e.name == "":
			ix.problems = append(ix.problems, p+"/name: missing")
		case len(e.name) > 64 || !skillName.MatchString(e.name):
			ix.problems = append(ix.problems, p+"/name: not 1-64 lower-case letters, digits and single hyphens")
		case seen[e.name]:
			ix.problems = append(ix.problems, p+"/name: "+e.name+" appears twice")
		}
		seen[e.name] = true
		if e.description == "" {
			ix.problems = append(ix.problems, p+"/description: missing")
		} else if n := len([]rune(e.description)); n > 1024 {
			ix.problems = append(ix.problems, fmt.Sprintf("%s/description: %d characters, more than 1024", p, n))
		}
		if ix.version == "0.1.0" {
			e.files = ix.legacyFiles(p, o["files"])
			ix.skills = append(ix.skills, e)
			continue
		}
		switch e.typ {
		case skillTypeMD, skillTypeArchive:
		case "":
			ix.problems = append(ix.problems, p+`/type: missing ("skill-md" or "archive")`)
		default:
			ix.notes = append(ix.notes, fmt.Sprintf("%s/type: %q is not a type this reader knows: skipped", p, shorten.Runes(clean(e.typ), 40)))
			continue
		}
		if e.url == "" {
			ix.problems = append(ix.problems, p+"/url: missing")
		}
		switch {
		case e.digest == "":
			ix.problems = append(ix.problems, p+"/digest: missing")
		case !skillDigestRE.MatchString(e.digest):
			ix.problems = append(ix.problems, p+"/digest: not sha256: and 64 lower-case hex digits")
		}
		ix.skills = append(ix.skills, e)
	}
	return ix
}

// legacyFiles reads a 0.1.0 entry's files: a non-empty array of safe
// relative paths naming SKILL.md.
func (ix *skillsIndex) legacyFiles(p string, v any) []string {
	files, ok := v.([]any)
	switch {
	case !ok:
		ix.problems = append(ix.problems, p+"/files: not an array")
		return nil
	case len(files) == 0:
		ix.problems = append(ix.problems, p+"/files: empty")
		return nil
	}
	var out []string
	for j, fv := range files[:min(len(files), maxSkillFiles)] {
		fp := fmt.Sprintf("%s/files/%d", p, j)
		path, ok := fv.(string)
		if !ok {
			ix.problems = append(ix.problems, fp+": not a path string")
			continue
		}
		if why := skillPathProblem(path); why != "" {
			ix.problems = append(ix.problems, fp+": "+why)
			continue
		}
		out = append(out, path)
	}
	if !slices.Contains(out, "SKILL.md") {
		ix.problems = append(ix.problems, p+"/files: no SKILL.md entry")
	}
	return out
}

// skillPathProblem says why a file path of a 0.1.0 index is refused, or "".
func skillPathProblem(p string) string {
	switch {
	case p == "":
		return "empty"
	case strings.HasPrefix(p, "/"):
		return "absolute"
	case slices.Contains(strings.Split(p, "/"), ".."):
		return `contains a ".." segment`
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c > 0x7e || strings.IndexByte(`\?#[]`, c) >= 0 {
			return "a character outside printable ASCII, or one of \\ ? # [ ]"
		}
	}
	return ""
}

func sha256Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func observeAgentSkills(s *scan) obsOutcome {
	var f *fetched
	var tried []*fetched
	for _, p := range skillsIndexPaths {
		f = s.obsGet(s.obsResolve(p), "application/json")
		tried = append(tried, f)
		if !f.answered() || isDocument(f) {
			break
		}
	}
	found := isDocument(f)
	var problems, notes []string
	what := "an agent-skills index"
	var fetchedSkills []*fetched
	var ix *skillsIndex
	if found {
		if f.url != s.obsResolve(skillsIndexPaths[0]) {
			notes = append(notes, "found at the older /.well-known/skills/ location; 0.2.0 names /.well-known/agent-skills/")
		}
		ix = parseSkillsIndex(f.body())
		problems, notes = append(problems, ix.problems...), append(notes, ix.notes...)
		if ix.total == 0 && len(ix.problems) == 0 && ix.schema == "" {
			problems = append(problems, "/skills: no skill listed")
		}
		what = "an agent-skills index of " + plural.N(ix.total, "skill", "skills")
		if ix.version != "" {
			what += ", read as version " + ix.version
		}
		var checked []string
		fetchedSkills, checked, problems, notes = s.checkSkills(f.url, ix, problems, notes)
		if len(checked) > 0 {
			notes = append(notes, "digests checked: "+strings.Join(checked, "; "))
		}
	}
	out := docOutcome(f, found, what, problems, notes)
	if ix != nil && ix.schema != "" {
		// "Clients encountering an unrecognized $schema URI SHOULD warn the
		// user and SHOULD NOT process the index."
		out.status = ObservationUnverified
		out.received = fmt.Sprintf("found at %s with $schema %q, which is not a schema this reader knows (%s): not read", f.url, ix.schema, skillsSchema020)
	}
	out.requests = append(tried, fetchedSkills...)
	out.expected = "an index at /.well-known/agent-skills/index.json (or the older /.well-known/skills/index.json) with $schema " + skillsSchema020 + ", listing skills by name, type, description, url and the SHA-256 digest of each artifact; the digests of at most 3 artifacts checked, archives never unpacked"
	out.meaning = meaning(out.status, "an agent can find the site's skills and verify what it downloads", "an agent finds no skills published by the site")
	return out
}

// checkSkills fetches the artifact of at most maxSkillsFetched skills of the
// index, same-site URLs only. It checks each against the index. The SHA-256 of
// its raw bytes must match the entry's digest ("Integrity and Verification");
// an archive is never unpacked. A SKILL.md's front matter name and description
// are checked too. A 0.1.0 skill's SKILL.md, at {name}/SKILL.md beside the
// index, has no digest to check.
func (s *scan) checkSkills(indexURL string, ix *skillsIndex, problems, notes []string) ([]*fetched, []string, []string, []string) {
	var fs []*fetched
	var checked []string
	for _, e := range ix.skills {
		if len(fs) == maxSkillsFetched {
			break
		}
		p := fmt.Sprintf("/skills/%d", e.index)
		ref := e.url
		if ix.version == "0.1.0" {
			ref = e.name + "/SKILL.md"
		}
		if !skillName.MatchString(e.name) || ref == "" {
			continue
		}
		u := s.obsSameSite(indexURL, ref)
		if u == "" {
			problems = append(problems, fmt.Sprintf("%s: %s is not on this site: not fetched", p, shorten.Runes(clean(ref), 120)))
			continue
		}
		what, accept := "SKILL.md", "text/markdown"
		if e.typ == skillTypeArchive {
			what, accept = "archive", "application/gzip, application/zip"
		}
		f := s.obsGet(u, accept)
		fs = append(fs, f)
		switch {
		case f.answered() && !f.ok():
			problems = append(problems, fmt.Sprintf("%s: the %s of %s answered %d", p, what, e.name, f.status()))
			continue
		case !f.ok():
			notes = append(notes, fmt.Sprintf("%s: the %s of %s was not read (%s): digest not checked", p, what, e.name, f.why()))
			continue
		}
		got := sha256Digest(f.body())
		switch {
		case e.digest == "":
			checked = append(checked, e.name+": no digest to check")
		case e.digest != got:
			problems = append(problems, fmt.Sprintf("%s/digest: the %s of %s does not match: index %s, served %s", p, what, e.name, e.digest, got))
		default:
			checked = append(checked, e.name+": "+what+" matches")
		}
		mt, _ := f.mediaType()
		if e.typ == skillTypeArchive {
			if mt != "application/gzip" && mt != "application/zip" {
				notes = append(notes, fmt.Sprintf("%s: the archive of %s is served as %q, not application/gzip or application/zip", p, e.name, mt))
			}
			continue
		}
		if mt != "text/markdown" && mt != "text/plain" {
			notes = append(notes, fmt.Sprintf("%s: the SKILL.md of %s is served as %q, not text/markdown", p, e.name, mt))
		}
		fm, _, err := webread.ParseFrontMatter(f.body())
		switch {
		case err != nil || fm == nil:
			problems = append(problems, fmt.Sprintf("%s: SKILL.md of %s has no front matter with name and description", p, e.name))
		case fm["description"] == "":
			problems = append(problems, fmt.Sprintf("%s: SKILL.md of %s has no description in its front matter", p, e.name))
		case fm["name"] != e.name:
			problems = append(problems, fmt.Sprintf("%s: SKILL.md of %s names itself %q", p, e.name, shorten.Runes(clean(fm["name"]), 64)))
		}
	}
	return fs, checked, problems, notes
}
