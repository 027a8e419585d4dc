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

// skillsIndexSchema is the $schema of the discovery index the kit writes
// (Agent Skills Discovery via Well-Known URIs 0.2.0, "Versioning").
const skillsIndexSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// skillMarkdown is a skill's SKILL.md: front matter with its name and
// description, then its instructions.
func skillMarkdown(sk Skill) []byte {
	return []byte("---\nname: " + sk.Name + "\ndescription: " + yamlScalar(sk.Description) + "\n---\n\n" + sk.Instructions)
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// buildSkills adds every skill's SKILL.md and the discovery index (Agent
// Skills Discovery via Well-Known URIs 0.2.0, "Discovery Index"). The
// index has the $schema of 0.2.0, and for each skill its name, the type
// "skill-md" and its description. It adds the URL of its SKILL.md and the
// SHA-256 digest of that file's raw bytes ("Integrity and Verification").
func (k *kit) buildSkills() error {
	if len(k.site.Skills) == 0 {
		return nil
	}
	type entry struct {
		Name        string `json:"name"`
		Type        string `json:"type"`
		Description string `json:"description"`
		URL         string `json:"url"`
		Digest      string `json:"digest"`
	}
	index := struct {
		Schema string  `json:"$schema"`
		Skills []entry `json:"skills"`
	}{Schema: skillsIndexSchema}
	for _, sk := range k.site.Skills {
		body := skillMarkdown(sk)
		index.Skills = append(index.Skills, entry{
			Name: sk.Name, Type: "skill-md", Description: sk.Description,
			URL: skillsBase + sk.Name + "/SKILL.md", Digest: "sha256:" + sha256Hex(body),
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
