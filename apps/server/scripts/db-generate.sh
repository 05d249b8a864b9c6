#!/bin/sh
# drizzle-kit sits in the root node_modules but drizzle-orm in apps/server/node_modules; drizzle-kit
# imports drizzle-orm from its own location, so run it through a symlinked tree that holds both.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
root=$(cd "$here/../.." && pwd)
tree=$(mktemp -d)
mkdir -p "$tree/node_modules"
for d in "$root"/node_modules/* "$root"/node_modules/.bin; do ln -s "$d" "$tree/node_modules/"; done
[ -e "$tree/node_modules/drizzle-orm" ] || ln -s "$here/node_modules/drizzle-orm" "$tree/node_modules/drizzle-orm"
cd "$here"
node --preserve-symlinks --preserve-symlinks-main "$tree/node_modules/drizzle-kit/bin.cjs" generate "$@"
rm -rf "$tree"
