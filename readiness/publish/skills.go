package publish

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"regexp"

	"github.com/agentweb/agentweb/internal/serve"
)

// Skill is one Agent Skill the site publishes ([Site].Skills).
type Skill struct {
	// Name identifies the skill: 1 to 64 lower-case letters, digits and
	// single inner hyphens (the Agent Skills naming rule). It is the
	// skill's directory under /.well-known/agent-skills/.
	Name string
	// Description says what the skill does and when to use it, in at most
	// 1024 characters.
	Description string
	// Instructions is the Markdown body of SKILL.md, after its front matter.
	Instructions string
}

// skillNameRE is the Agent Skills naming rule.
var skillNameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// skillsBase is where the kit serves skills.
const skillsBase = "/.well-known/agent-skills/"

// skillsIndexVersion is the version of the discovery index the kit writes.
const skillsIndexVersion = "0.2.0"

// skillMarkdown is a skill's SKILL.md: front matter with its name and
// description, then its instructions.
func skillMarkdown(sk Skill) []byte {
	return []byte("---\nname: " + sk.Name + "\ndescription: " + yamlScalar(sk.Description) + "\n---\n\n" + sk.Instructions)
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// buildSkills adds every skill's SKILL.md and the discovery index
// (Agent Skills Discovery via Well-Known URIs 0.2.0, "Discovery Index"):
// each entry gives the name, the description, the SHA-256 digest of
// SKILL.md in files, and the skill-level digest, which for a skill of one
// file is the SHA-256 of the line "SKILL.md NUL hex LF" ("Skill-Level
// Digest").
func (k *kit) buildSkills() error {
	if len(k.site.Skills) == 0 {
		return nil
	}
	type file struct {
		Path   string `json:"path"`
		Digest string `json:"digest"`
	}
	type entry struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Digest      string `json:"digest"`
		Files       []file `json:"files"`
	}
	index := struct {
		Version string  `json:"version"`
		Skills  []entry `json:"skills"`
	}{Version: skillsIndexVersion}
	for _, sk := range k.site.Skills {
		body := skillMarkdown(sk)
		fileHex := sha256Hex(body)
		index.Skills = append(index.Skills, entry{
			Name: sk.Name, Description: sk.Description,
			Digest: "sha256:" + sha256Hex([]byte("SKILL.md\x00"+fileHex+"\n")),
			Files:  []file{{Path: "SKILL.md", Digest: "sha256:" + fileHex}},
		})
		k.routes[skillsBase+sk.Name+"/SKILL.md"] = serve.Handler(serve.Document{Body: body, ContentType: "text/markdown; charset=utf-8", CacheControl: cacheControl})
	}
	b, err := json.MarshalIndent(index, "", "  ")
	if err != nil {
		return err
	}
	k.routes[skillsBase+"index.json"] = serve.Handler(serve.Document{Body: append(b, '\n'), ContentType: "application/json", CacheControl: cacheControl,
		Header: http.Header{"Access-Control-Allow-Origin": {"*"}}})
	return nil
}
