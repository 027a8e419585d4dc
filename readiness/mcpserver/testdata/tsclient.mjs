// The TypeScript SDK's MCP client (@modelcontextprotocol/sdk, installed by
// readiness/mcpprobe/testdata/conformance/install.sh) against our server:
// it lists the tools, the resources and the prompts, then calls every tool
// with the arguments given, and prints what it got as one JSON object. The
// SDK's client checks each result's structuredContent against the tool's
// outputSchema itself, and throws when it does not fit.
//
//   node tsclient.mjs http URL CALLS_JSON
//   node tsclient.mjs stdio CALLS_JSON COMMAND [ARG...]
//
// The SDK is imported from $AGENTWEB_CONFORMANCE_DIR/node_modules. For
// stdio, the server's environment is the SDK's default plus
// AGENTWEB_TS_STDIO=1.
import path from 'node:path';

const dir = process.env.AGENTWEB_CONFORMANCE_DIR;
const sdk = (p) => import(path.join(dir, 'node_modules/@modelcontextprotocol/sdk/dist/esm', p));
const { Client } = await sdk('client/index.js');

const [mode, ...rest] = process.argv.slice(2);
let transport, calls;
if (mode === 'http') {
  const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');
  transport = new StreamableHTTPClientTransport(new URL(rest[0]));
  calls = JSON.parse(rest[1]);
} else {
  const { StdioClientTransport } = await sdk('client/stdio.js');
  calls = JSON.parse(rest[0]);
  transport = new StdioClientTransport({ command: rest[1], args: rest.slice(2), env: { AGENTWEB_TS_STDIO: '1' }, stderr: 'inherit' });
}

const client = new Client({ name: 'agentweb-ts-test', version: '1.0.0' });
await client.connect(transport);
const out = { server: client.getServerVersion(), tools: {}, calls: {} };
for (const t of (await client.listTools()).tools) {
  out.tools[t.name] = { annotations: t.annotations, hasOutputSchema: !!t.outputSchema };
}
out.resources = (await client.listResources()).resources.map((r) => r.uri);
out.prompts = (await client.listPrompts()).prompts.map((p) => p.name);
for (const [name, args] of Object.entries(calls)) {
  try {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
    const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');
    out.calls[name] = { isError: !!r.isError, text, structuredKeys: r.structuredContent ? Object.keys(r.structuredContent).sort() : null };
  } catch (e) {
    out.calls[name] = { thrown: String(e) };
  }
}
await client.close();
console.log(JSON.stringify(out));
