package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// identifier matches a member name that is a name in code (letters and
// digits), as opposed to data used as a key (a URL, a header name, a path).
var identifier = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)

// NonSnakeKeys reads data, one JSON value or a stream of them (JSON Lines).
// It returns, sorted, the JSON Pointers of the object members whose names
// are identifiers but not snake_case ("profileUrl", "ProfileURL"). Every
// result type of the SDK, and so every example's output, names its members
// in snake_case. Members named by data (URLs, paths, and the header names
// of any member called "headers") are not reported.
func NonSnakeKeys(data []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var bad []string
	for {
		var v any
		if err := dec.Decode(&v); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("cli: not JSON: %w", err)
		}
		walkKeys(v, "", false, &bad)
	}
	sort.Strings(bad)
	return bad, nil
}

// walkKeys reports the non-snake_case member names under v; data says
// that v's own member names are data (HTTP header names).
func walkKeys(v any, ptr string, data bool, bad *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			p := ptr + "/" + strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
			if !data && identifier.MatchString(k) && strings.ToLower(k) != k {
				*bad = append(*bad, p)
			}
			walkKeys(x, p, k == "headers", bad)
		}
	case []any:
		for i, x := range v {
			walkKeys(x, fmt.Sprintf("%s/%d", ptr, i), false, bad)
		}
	}
}
