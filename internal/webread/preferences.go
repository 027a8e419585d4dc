package webread

import (
	"fmt"
	"strings"

	"github.com/dunglas/httpsfv"

	"github.com/agentweb/agentweb/internal/shorten"
)

// MaxPreferenceGroups bounds the groups [ReadPreferences] keeps, and
// MaxPreferenceLines the preference lines it keeps in all; a file with more
// is reported truncated.
const (
	MaxPreferenceGroups = 64
	MaxPreferenceLines  = 256
)

// Preference line names, as written in robots.txt.
const (
	// ContentSignalName is the line of [Content Signals]
	// (draft-romm-aipref-contentsignals): "Content-Signal: search=yes,
	// ai-train=no".
	//
	// [Content Signals]: https://datatracker.ietf.org/doc/draft-romm-aipref-contentsignals/
	ContentSignalName = "Content-Signal"
	// ContentUsageName is the rule of the IETF AI Preferences working
	// group ([draft-ietf-aipref-attach]): "Content-Usage:
	// [path] train-ai=n", its value an RFC 9651 dictionary in the
	// vocabulary of draft-ietf-aipref-vocab.
	//
	// [draft-ietf-aipref-attach]: https://datatracker.ietf.org/doc/draft-ietf-aipref-attach/
	ContentUsageName = "Content-Usage"
)

// ContentSignalKeys are the three signals Content Signals defines, each
// "yes" or "no", in the order the draft lists them.
func ContentSignalKeys() []string { return []string{"search", "ai-input", "ai-train"} }

// Preferences are the AI usage preference lines of a robots.txt file, read
// per user-agent group.
type Preferences struct {
	// Groups lists, in file order, the groups that carry at least one
	// preference line. A line before any user-agent line is kept in a group
	// whose UserAgents is empty.
	Groups []PreferenceGroup
	// Truncated is true when the file was longer than MaxRobotsBytes, or
	// held more groups or lines than this reader keeps.
	Truncated bool
}

// PreferenceGroup is one robots.txt group and its preference lines.
type PreferenceGroup struct {
	// UserAgents are the group's user-agent values as written ("*"
	// included), in order.
	UserAgents []string
	Lines      []PreferenceLine
}

// PreferenceLine is one Content-Signal or Content-Usage line.
type PreferenceLine struct {
	// Name is [ContentSignalName] or [ContentUsageName].
	Name string
	// Line is the line number in the file, from 1.
	Line int
	// Path is the path a Content-Usage rule names before its preferences,
	// "" when it names none (the whole site).
	Path string
	// Values are the preferences read, key to value, keys lower case:
	// "yes"/"no" for Content-Signal, "y"/"n" for Content-Usage.
	Values map[string]string
	// Problems says what in the line does not follow its text; an empty
	// list means it conforms. Unknown keys are not problems: both texts
	// ask readers to ignore them.
	Problems []string
}

// ReadPreferences reads the Content-Signal and Content-Usage lines of a
// robots.txt body and the groups they belong to. Groups are formed as RFC
// 9309 Section 2.1 forms them: one or more user-agent lines, then the
// group's lines. One reading is our own: a preference line ends the run of
// user-agent lines as a rule does. So the user-agent lines after it start
// a new group. Draft-ietf-aipref-attach makes Content-Usage such a rule;
// Content Signals places its line in a group without saying, and this is
// the safer reading of it (a signal is never applied to a crawler named
// after it).
//
// A Content-Signal value is a comma-separated list of key=value pairs whose
// values are "yes" or "no" (Content Signals, Section 3). A Content-Usage
// value is an optional path starting with "/", then an RFC 9651 dictionary
// whose values are the tokens "y" or "n" (draft-ietf-aipref-vocab, Section
// 4). Values that are neither are problems and are not kept; repeated keys
// keep the last, as an RFC 9651 dictionary does.
func ReadPreferences(body []byte) *Preferences {
	p := &Preferences{}
	var agents []string
	inRules := false
	cur := -1 // index in p.Groups of the current group's entry, or -1
	lines := 0
	p.Truncated = robotsLines(body, func(line int, key, value string) {
		switch {
		case keyKind(key) == keyUserAgent:
			if inRules {
				agents, inRules, cur = nil, false, -1
			}
			agents = append(agents, value)
			return
		case keyKind(key) == keyAllow, keyKind(key) == keyDisallow:
			inRules = true
			return
		}
		var pl PreferenceLine
		switch {
		case strings.EqualFold(key, ContentSignalName):
			pl = parseContentSignal(value)
		case strings.EqualFold(key, ContentUsageName):
			pl = parseContentUsage(value)
		default:
			return
		}
		inRules = true
		if lines >= MaxPreferenceLines {
			p.Truncated = true
			return
		}
		if cur < 0 {
			if len(p.Groups) >= MaxPreferenceGroups {
				p.Truncated = true
				return
			}
			p.Groups = append(p.Groups, PreferenceGroup{UserAgents: append([]string(nil), agents...)})
			cur = len(p.Groups) - 1
		}
		pl.Line = line
		lines++
		p.Groups[cur].Lines = append(p.Groups[cur].Lines, pl)
	})
	return p
}

// ParseContentSignal reads the value of a Content-Signal line (what
// follows "Content-Signal:"): its Values and Problems as [ReadPreferences]
// reports them.
func ParseContentSignal(value string) PreferenceLine { return parseContentSignal(value) }

func parseContentSignal(value string) PreferenceLine {
	pl := PreferenceLine{Name: ContentSignalName, Values: map[string]string{}}
	if strings.TrimSpace(value) == "" {
		pl.Problems = append(pl.Problems, "an empty Content-Signal line")
		return pl
	}
	for part := range strings.SplitSeq(value, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			pl.Problems = append(pl.Problems, "an empty member between commas")
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.ToLower(strings.TrimSpace(v))
		switch {
		case !ok || k == "":
			pl.Problems = append(pl.Problems, fmt.Sprintf("%q is not key=value", clip(part)))
		case v != "yes" && v != "no":
			pl.Problems = append(pl.Problems, fmt.Sprintf("%s=%q: the value must be yes or no", clip(k), clip(v)))
		default:
			// A signal outside the three is kept; the text asks readers
			// to ignore what they do not know, so it is no problem.
			pl.Values[k] = v
		}
	}
	return pl
}

// ParseContentUsage reads the value of a Content-Usage line, or of a
// Content-Usage response header field. A line's value follows
// "Content-Usage:": an optional path then an RFC 9651 dictionary. A
// header field holds the dictionary alone. It returns its Path, Values
// and Problems as [ReadPreferences] reports them.
func ParseContentUsage(value string) PreferenceLine { return parseContentUsage(value) }

func parseContentUsage(value string) PreferenceLine {
	pl := PreferenceLine{Name: ContentUsageName, Values: map[string]string{}}
	value = strings.TrimSpace(value)
	if strings.HasPrefix(value, "/") {
		i := strings.IndexAny(value, " \t")
		if i < 0 {
			pl.Path = value
			pl.Problems = append(pl.Problems, "a path and no preferences")
			return pl
		}
		pl.Path, value = value[:i], strings.TrimSpace(value[i:])
	}
	if value == "" {
		pl.Problems = append(pl.Problems, "no preferences")
		return pl
	}
	dict, err := httpsfv.UnmarshalDictionary([]string{value})
	if err != nil {
		pl.Problems = append(pl.Problems, "not an RFC 9651 dictionary: "+clip(value))
		return pl
	}
	for _, k := range dict.Names() {
		m, _ := dict.Get(k)
		it, ok := m.(httpsfv.Item)
		tok, isTok := it.Value.(httpsfv.Token)
		if !ok || !isTok || (tok != "y" && tok != "n") {
			pl.Problems = append(pl.Problems, fmt.Sprintf("%s: the value must be the token y or n", clip(k)))
			continue
		}
		pl.Values[k] = string(tok)
	}
	return pl
}

// clip keeps a problem's quote of remote text to 60 bytes, cut at a character
// boundary.
func clip(s string) string { return shorten.Bytes(s, 60) }
