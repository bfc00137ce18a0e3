#!/bin/sh
# Writes .gz (and, when the `brotli` command exists, .br) copies of the built web app's text files next
# to them, for nginx's gzip_static / brotli_static (deploy/nginx/offzero.conf). Run after
# `npm run build`, before syncing apps/web/dist/assets to the nginx host:
#   sh deploy/precompress-web.sh [apps/web/dist]
set -eu
dist="${1:-apps/web/dist}"
if [ ! -f "$dist/index.html" ]; then
  echo "No web build in $dist: run npm run build first." >&2
  exit 1
fi

# Text files worth compressing (below 1 kB the headers cost more than compression saves).
text_files() {
  find "$dist" -type f \( -name '*.js' -o -name '*.css' -o -name '*.html' -o -name '*.svg' \
    -o -name '*.json' -o -name '*.txt' -o -name '*.webmanifest' \) -size +1k "$@"
}

text_files -exec gzip -9 --keep --force --no-name {} +
if command -v brotli >/dev/null 2>&1; then
  text_files -exec brotli --best --keep --force {} +
  formats='.gz and .br'
else
  formats='.gz only (install brotli for .br files)'
fi
echo "Precompressed $(text_files | wc -l) files in $dist: $formats."
