package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/agentweb/agentweb/readiness/publish"
)

// readmeGoRun is how the README's workflow runs this command.
const readmeGoRun = "go run github.com/agentweb/agentweb/examples/readiness@latest"

// workflowSteps parses the README's GitHub Actions workflow as YAML, checks
// the shape GitHub reads (a trigger, the permission to upload SARIF, one
// job whose steps each use an action or run a script) and returns the run
// scripts, in order.
func workflowSteps(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	_, block, ok := strings.Cut(string(readme), "```yaml\nname: agent readiness\n")
	require.True(t, ok, "the README has the workflow")
	block, _, ok = strings.Cut(block, "\n```")
	require.True(t, ok)
	var wf struct {
		Name        string            `yaml:"name"`
		On          any               `yaml:"on"`
		Permissions map[string]string `yaml:"permissions"`
		Env         map[string]string `yaml:"env"`
		Jobs        map[string]struct {
			RunsOn string `yaml:"runs-on"`
			Steps  []struct {
				Name string         `yaml:"name"`
				Uses string         `yaml:"uses"`
				Run  string         `yaml:"run"`
				If   string         `yaml:"if"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	dec := yaml.NewDecoder(strings.NewReader("name: agent readiness\n" + block))
	dec.KnownFields(true)
	require.NoError(t, dec.Decode(&wf), "the workflow is YAML GitHub can read")
	assert.NotNil(t, wf.On)
	assert.Equal(t, "write", wf.Permissions["security-events"], "uploading SARIF needs it")
	assert.Contains(t, wf.Env, "PRODUCTION_URL")
	assert.Contains(t, wf.Env, "PREVIEW_URL")
	require.Len(t, wf.Jobs, 1)
	var steps []string
	var uses []string
	for _, job := range wf.Jobs {
		assert.NotEmpty(t, job.RunsOn)
		for _, st := range job.Steps {
			assert.True(t, (st.Uses == "") != (st.Run == ""), "a step uses an action or runs a script: %+v", st)
			if st.Run != "" {
				steps = append(steps, st.Run)
			} else {
				uses = append(uses, st.Uses)
			}
		}
	}
	assert.Contains(t, uses, "github/codeql-action/upload-sarif@v3")
	return steps
}

// loopbackKit serves the publish kit's tea site on a loopback port, its
// origin the server's own; broken, when set, takes llms.txt away.
func loopbackKit(t *testing.T, broken bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	origin := "http://" + ln.Addr().String()
	pages := http.NewServeMux()
	pages.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Tea Shop</title></head><body><h1>Tea Shop</h1>
<p>We sell loose-leaf tea from small gardens in Darjeeling, Assam, Yunnan and Shizuoka, packed by hand in
Vienna and shipped within the European Union in two working days. Every tea is tasted before it is listed.</p></body></html>`)
	})
	site := publish.Site{
		Origin: origin, Name: "Tea Shop", Language: "en",
		Description: "Loose-leaf tea from small gardens, shipped within the EU.",
		Contact:     publish.Contact{Email: "people@tea.example"},
		Pages:       []publish.Page{{Path: "/", Title: "Tea Shop", Description: "What we sell."}},
	}
	h, err := site.Handler(pages)
	require.NoError(t, err)
	if broken {
		kit := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/llms.txt" {
				http.NotFound(w, r)
				return
			}
			kit.ServeHTTP(w, r)
		})
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return origin + "/"
}

// TestReadmeWorkflowRuns runs the commands of the README's GitHub Actions
// workflow as GitHub runs a step (bash -eo pipefail), with
// GITHUB_STEP_SUMMARY set to a temporary file, against two local sites:
// the command is this package built from the tree, and since the sites
// are on loopback each scan gets -dev, the one change to the commands. A
// preview like production passes; a preview that lost llms.txt fails the
// second step with the check listed, and the SARIF, JUnit, HTML, prompt,
// badge and job summary are all written.
func TestReadmeWorkflowRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	steps := workflowSteps(t)
	require.Len(t, steps, 2, "score the base, then the change")
	bin := t.TempDir()
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(gobin, "build", "-o", filepath.Join(bin, "readiness"), ".").CombinedOutput()
	require.NoError(t, err, string(out))
	wrapper := filepath.Join(bin, "rd")
	require.NoError(t, os.WriteFile(wrapper, []byte("#!/bin/sh\nsub=\"$1\"; shift\nexec "+filepath.Join(bin, "readiness")+" \"$sub\" -dev \"$@\"\n"), 0o755))

	production := loopbackKit(t, false)
	for _, tc := range []struct {
		name    string
		preview string
		codes   []int
	}{
		{"same as production", loopbackKit(t, false), []int{0, 0}},
		{"llms.txt lost", loopbackKit(t, true), []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			summary := filepath.Join(work, "step-summary.md")
			var stdout bytes.Buffer
			for i, step := range steps {
				require.Contains(t, step, readmeGoRun)
				script := strings.ReplaceAll(step, readmeGoRun, wrapper)
				cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
				cmd.Dir = work
				cmd.Env = append(os.Environ(), "PRODUCTION_URL="+production, "PREVIEW_URL="+tc.preview, "GITHUB_STEP_SUMMARY="+summary)
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err := cmd.Run()
				code := 0
				if ee, ok := err.(*exec.ExitError); ok {
					code = ee.ExitCode()
				} else {
					require.NoError(t, err)
				}
				assert.Equal(t, tc.codes[i], code, "step %d:\n%s\n%s", i+1, script, out.String())
				stdout.Write(out.Bytes())
			}
			for _, f := range []string{"base.jsonl", "readiness.sarif", "readiness.xml", "readiness.html", "readiness-prompt.md", "readiness.svg"} {
				assert.FileExists(t, filepath.Join(work, f))
			}
			md, err := os.ReadFile(summary)
			require.NoError(t, err)
			assert.Equal(t, 1, strings.Count(string(md), "## Agent readiness: "), "only the change's scan writes the job summary")
			assert.Contains(t, string(md), "### Since the baseline")
			if tc.codes[1] == 1 {
				assert.Contains(t, stdout.String(), "gate: llms_txt got worse: pass -> fail")
				assert.Contains(t, string(md), "| `llms_txt` | R4 | pass | fail | worse |")
				assert.Contains(t, string(mustRead(t, filepath.Join(work, "readiness.sarif"))), `"baselineState": "new"`)
			} else {
				assert.Contains(t, stdout.String(), "gate: passed")
				assert.Contains(t, string(md), "No check changed.")
			}
		})
	}
}
