package readiness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/agentweb/agentweb/internal/plural"
	"github.com/agentweb/agentweb/internal/strictjson"
	"github.com/agentweb/agentweb/internal/webread"
)

// Agent skills discovery: the index paths, newest first (the draft renamed
// /.well-known/skills/ to /.well-known/agent-skills/).
var skillsIndexPaths = []string{"/.well-known/agent-skills/index.json", "/.well-known/skills/index.json"}

const (
	// maxSkillsRead bounds the skill entries validated in an index; more
	// are counted and said, not read.
	maxSkillsRead = 1000
	// maxSkillsFetched bounds the skills whose SKILL.md is fetched and
	// whose digests are checked.
	maxSkillsFetched = 3
	// maxSkillFiles bounds the file entries read per skill.
	maxSkillFiles = 1000
)

var (
	skillName     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	skillVersion  = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)
	skillDigestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
)

// skillEntry is one skill of an index as read.
type skillEntry struct {
	name, description, digest, url string
	files                          []skillFile
}

type skillFile struct{ path, digest string }

// skillsIndex is an agent-skills index as read and validated.
type skillsIndex struct {
	version  string
	skills   []skillEntry
	total    int // entries in the index, read or not
	problems []string
	notes    []string
}

// parseSkillsIndex validates an agent-skills discovery index (Agent Skills
// Discovery via Well-Known URIs 0.2.0, "Discovery Index"): a JSON object
// with a version in M.m.p form (absent: read as 0.1.0) and a skills array
// whose entries have a name by the Agent Skills naming rule, a description
// of at most 1024 characters, a sha256 digest, and a non-empty files array
// naming SKILL.md with safe relative paths (0.1.0 indexes list paths as
// strings and have no digests). An entry that names its SKILL.md by url
// with a digest of it, as some publishers write, is read too. Problems
// carry the JSON Pointer of the value.
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
	legacy := false
	switch ver, has := m["version"]; {
	case !has:
		legacy = true
		ix.notes = append(ix.notes, "no version: read as 0.1.0, whose files carry no digest")
	case !skillVersion.MatchString(str(ver)):
		ix.problems = append(ix.problems, "/version: not M.m.p")
	default:
		ix.version = str(ver)
		if !strings.HasPrefix(ix.version, "0.") {
			ix.problems = append(ix.problems, "/version: major version "+ix.version+" is not one this reader knows (0)")
		}
		legacy = ix.version == "0.1.0"
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
		e := skillEntry{name: str(o["name"]), description: str(o["description"]), digest: str(o["digest"]), url: str(o["url"])}
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
		if e.digest != "" && !skillDigestRE.MatchString(e.digest) {
			ix.problems = append(ix.problems, p+"/digest: not sha256: and 64 lower-case hex digits")
		} else if e.digest == "" && !legacy {
			ix.problems = append(ix.problems, p+"/digest: missing")
		}
		files, hasFiles := o["files"].([]any)
		switch {
		case !hasFiles && e.url != "":
			// A SKILL.md named by url, its digest that of the file.
		case !hasFiles:
			ix.problems = append(ix.problems, p+"/files: not an array")
		case len(files) == 0:
			ix.problems = append(ix.problems, p+"/files: empty")
		default:
			hasSkill := false
			for j, fv := range files[:min(len(files), maxSkillFiles)] {
				fp := fmt.Sprintf("%s/files/%d", p, j)
				var sf skillFile
				switch f := fv.(type) {
				case string:
					sf.path = f
				case map[string]any:
					sf.path, sf.digest = str(f["path"]), str(f["digest"])
					if !skillDigestRE.MatchString(sf.digest) {
						ix.problems = append(ix.problems, fp+"/digest: not sha256: and 64 lower-case hex digits")
					}
				default:
					ix.problems = append(ix.problems, fp+": neither a path nor an object")
					continue
				}
				if why := skillPathProblem(sf.path); why != "" {
					ix.problems = append(ix.problems, fp+"/path: "+why)
					continue
				}
				hasSkill = hasSkill || sf.path == "SKILL.md"
				e.files = append(e.files, sf)
			}
			if !hasSkill {
				ix.problems = append(ix.problems, p+"/files: no SKILL.md entry")
			}
		}
		ix.skills = append(ix.skills, e)
	}
	return ix
}

// skillPathProblem says why a file path of an index is refused (the
// draft's path requirements), or "".
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

// skillDigest is the skill-level digest of the draft ("Skill-Level
// Digest"): SHA-256 over the lines "path NUL hex LF" of every file, sorted
// by path.
func skillDigest(files []skillFile) string {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b skillFile) int { return strings.Compare(a.path, b.path) })
	h := sha256.New()
	for _, f := range sorted {
		h.Write([]byte(f.path + "\x00" + strings.TrimPrefix(f.digest, "sha256:") + "\n"))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
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
	if found {
		if f.url != s.obsResolve(skillsIndexPaths[0]) {
			notes = append(notes, "found at the older /.well-known/skills/ location; the draft now names /.well-known/agent-skills/")
		}
		ix := parseSkillsIndex(f.body())
		problems, notes = append(problems, ix.problems...), append(notes, ix.notes...)
		if ix.total == 0 && len(ix.problems) == 0 {
			problems = append(problems, "/skills: no skill listed")
		}
		what = "an agent-skills index of " + plural.N(ix.total, "skill", "skills")
		if ix.version != "" {
			what += ", version " + ix.version
		}
		var checked []string
		fetchedSkills, checked, problems = s.checkSkills(f.url, ix, problems)
		if len(checked) > 0 {
			notes = append(notes, "digests checked: "+strings.Join(checked, "; "))
		}
	}
	out := docOutcome(f, found, what, problems, notes)
	out.requests = append(tried, fetchedSkills...)
	out.expected = "an index at /.well-known/agent-skills/index.json (or the older /.well-known/skills/index.json) listing skills with name, description and digests; the digests of at most 3 skills checked"
	out.meaning = meaning(out.status, "an agent can find the site's skills and verify what it downloads", "an agent finds no skills published by the site")
	return out
}

// checkSkills fetches the SKILL.md of at most maxSkillsFetched skills of
// the index (same-site URLs only) and checks them against the index: the
// file's own digest, the skill-level digest when SKILL.md is its only
// file, and the front matter's name and description.
func (s *scan) checkSkills(indexURL string, ix *skillsIndex, problems []string) ([]*fetched, []string, []string) {
	var fs []*fetched
	var checked []string
	for i, e := range ix.skills {
		if len(fs) == maxSkillsFetched {
			break
		}
		if !skillName.MatchString(e.name) {
			continue
		}
		ref := e.url
		if ref == "" {
			ref = e.name + "/SKILL.md"
		}
		u := s.obsSameSite(indexURL, ref)
		if u == "" {
			problems = append(problems, fmt.Sprintf("/skills/%d: %s is not on this site: not fetched", i, truncate(clean(ref), 120)))
			continue
		}
		f := s.obsGet(u, "text/markdown")
		fs = append(fs, f)
		if !f.ok() {
			problems = append(problems, fmt.Sprintf("/skills/%d: SKILL.md of %s: %s", i, e.name, first(f.why(), fmt.Sprint(f.status()))))
			if f.answered() {
				problems[len(problems)-1] = fmt.Sprintf("/skills/%d: SKILL.md of %s answered %d", i, e.name, f.status())
			}
			continue
		}
		got := sha256Digest(f.body())
		var want, against string
		for _, sf := range e.files {
			if sf.path == "SKILL.md" && sf.digest != "" {
				want, against = sf.digest, "its files entry"
			}
		}
		if want == "" && len(e.files) == 0 && e.digest != "" {
			want, against = e.digest, "its digest"
		}
		switch {
		case want == "":
			checked = append(checked, e.name+": no digest to check")
		case want != got:
			problems = append(problems, fmt.Sprintf("/skills/%d: SKILL.md of %s does not match %s: index %s, served %s", i, e.name, against, want, got))
		default:
			checked = append(checked, e.name+": SKILL.md matches")
		}
		if len(e.files) == 1 && e.files[0].path == "SKILL.md" && e.digest != "" && want == got {
			if d := skillDigest([]skillFile{{path: "SKILL.md", digest: got}}); d != e.digest {
				problems = append(problems, fmt.Sprintf("/skills/%d/digest: the skill-level digest of %s is %s, not %s", i, e.name, d, e.digest))
			}
		}
		fm, _, err := webread.ParseFrontMatter(f.body())
		switch {
		case err != nil || fm == nil:
			problems = append(problems, fmt.Sprintf("/skills/%d: SKILL.md of %s has no front matter with name and description", i, e.name))
		case fm["description"] == "":
			problems = append(problems, fmt.Sprintf("/skills/%d: SKILL.md of %s has no description in its front matter", i, e.name))
		case fm["name"] != e.name:
			problems = append(problems, fmt.Sprintf("/skills/%d: SKILL.md of %s names itself %q", i, e.name, truncate(clean(fm["name"]), 64)))
		}
	}
	return fs, checked, problems
}
