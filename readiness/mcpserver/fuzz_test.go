package mcpserver

import (
	"context"
	"encoding/json"
	"testing"
)

// Any bytes as a tool's arguments, or as a document to validate, give a
// result or an error, never a panic; a result's structured content is JSON.
// The client is a development one with no resolver reachable: a URL in the
// arguments fails at its lookup or its address, never reaching a network.
func FuzzToolArguments(f *testing.F) {
	for _, seed := range []string{
		`{}`, `null`, `[]`, `{"kind":"agentic_site","content":"{}"}`, `{"kind":"agents_json","content":"{\"name\":1}"}`,
		`{"kind":"knowledge_linkset","content":"{\"linkset\":[]}"}`, `{"kind":"agent_signup","content":"{\"protocol\":\"agent-identity-v1\"}"}`,
		`{"kind":"openagent","content":"{\"version\":\"0.1\"}"}`, `{"id":"llms_txt"}`, `{"id":1}`, `{"kind":"x","url":"ftp://a"}`,
		`{"kind":"openagent","content":"a","url":"https://a.example/"}`, `{"url":"https://127.0.0.1/"}`,
	} {
		f.Add(seed)
	}
	s, err := New(&Options{MaxQueued: -1})
	if err != nil {
		f.Fatal(err)
	}
	byName := map[string]tool{}
	for _, t := range s.tools() {
		byName[t.name] = t
	}
	offline := []string{ToolValidateDocument, ToolExplainCheck}
	f.Fuzz(func(t *testing.T, args string) {
		for _, name := range offline {
			c := &call{s: s}
			if json.Valid([]byte(args)) {
				var m map[string]any
				if json.Unmarshal([]byte(args), &m) == nil && m["url"] != nil {
					continue // no network in a fuzz run
				}
			}
			res, err := byName[name].run(context.Background(), c, json.RawMessage(args))
			if err == nil && (res == nil || !json.Valid(res.StructuredContent.(json.RawMessage))) {
				t.Fatalf("%s(%s): a result without JSON structured content", name, args)
			}
		}
	})
}
