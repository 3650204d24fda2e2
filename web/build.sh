#!/usr/bin/env bash
# Builds the playground into web/dist/: index.html, styles, one JS bundle (the page, with the
# editor and the shipped rulesets), the engine's worker, the share link's packer (share.js), the engine as WebAssembly and Go's
# wasm_exec.js. Needs Go and Node.js (npm packages pinned by web/package-lock.json).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$PATH:/usr/local/go/bin"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund
fi
rm -rf dist build
mkdir -p dist build
node tools/gen-rulesets.mjs ../rulesets build/rulesets.json
# -s -w and -trimpath: no symbol table, no DWARF, no local paths (a smaller download).
(cd .. && GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o web/dist/rulesh.wasm ./cmd/rulesh/internal/playground/wasm)
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" dist/
npx esbuild src/main.js --bundle --minify --format=iife --target=es2022 --legal-comments=none --outfile=dist/app.js --log-level=warning
cp src/worker.js src/share.js src/index.html src/style.css dist/
echo "built web/dist: $(du -sh dist | cut -f1) ($(cat dist/* | gzip -9 | wc -c) bytes gzip -9)"
