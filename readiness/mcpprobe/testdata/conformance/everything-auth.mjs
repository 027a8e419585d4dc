// The TypeScript SDK's everything server behind bearer auth, with RFC 9728
// protected resource metadata and RFC 8414 authorization server metadata
// served by the SDK's own mcpAuthMetadataRouter; no token is ever valid.
// TestConformance copies this file into the install folder (so that its
// imports resolve there) and runs it with the Node 22 binary. It prints
// "LISTENING <port>" once it listens on 127.0.0.1.
import express from "express";
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { mcpAuthMetadataRouter, getOAuthProtectedResourceMetadataUrl } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { createServer } from "@modelcontextprotocol/server-everything/dist/server/index.js";

const app = express();
const listener = app.listen(0, "127.0.0.1", () => {
  const port = listener.address().port;
  const base = `http://localhost:${port}`;
  const resource = new URL(`${base}/mcp`);
  app.use(mcpAuthMetadataRouter({
    oauthMetadata: {
      issuer: `${base}/`,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
    },
    resourceServerUrl: resource,
    scopesSupported: ["mcp:tools"],
    resourceName: "everything",
  }));
  const auth = requireBearerAuth({
    verifier: { verifyAccessToken: async () => { throw new InvalidTokenError("no token is valid here"); } },
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource),
  });
  app.post("/mcp", express.json(), auth, async (req, res) => {
    const { server } = createServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  console.log(`LISTENING ${port}`);
});
