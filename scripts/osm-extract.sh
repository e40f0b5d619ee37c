#!/usr/bin/env bash
# Chain locations from an OpenStreetMap extract, as a GeoJSON text sequence `oncue import` reads: shops, food and
# fuel places, and anything with a brand tag, as points and building outlines, with their OSM element kept (osmium's
# @type/@id become the locations' ids, node/123 or way/45, so a re-import of a newer extract updates them in place).
#
#   scripts/osm-extract.sh EXTRACT.osm.pbf OUT.geojsonseq
#   oncue import OUT.geojsonseq --db oncue.sqlite                          # networks from the brand tag
#   oncue import OUT.geojsonseq --db oncue.sqlite --mapping name-as-brand.json   # {"columns": {"network": "name"}}
#
# Needs osmium-tool (Debian: apt-get install osmium-tool). The data is © OpenStreetMap contributors under the ODbL;
# the import log records that attribution for every file whose features are OSM elements.
set -euo pipefail
if [ $# -ne 2 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
extract="$1"; out="$2"
command -v osmium >/dev/null || { echo "osm-extract.sh: osmium not found (apt-get install osmium-tool)" >&2; exit 1; }
[ -r "$extract" ] || { echo "osm-extract.sh: cannot read $extract" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The places a wallet card can belong to. Ways and relations keep the nodes they need for their outlines.
osmium tags-filter --overwrite -o "$work/places.osm.pbf" "$extract" \
  nwr/brand nwr/brand:wikidata nwr/shop \
  nwr/amenity=fast_food,restaurant,cafe,pharmacy,fuel,bank,library,cinema,ice_cream,bar,pub
# Only the tags the import reads: a way's untagged member nodes (and entrances, which carry none of these) then have
# no tags left and are not exported; lines are not places.
cat > "$work/export.json" <<'JSON'
{"attributes": {"type": true, "id": true},
 "include_tags": ["brand", "brand:wikidata", "name", "ref", "addr:*", "opening_hours", "shop", "amenity"]}
JSON
osmium export --overwrite -f geojsonseq -c "$work/export.json" --geometry-types=point,polygon -o "$out" "$work/places.osm.pbf"
echo "osm-extract.sh: $(wc -l < "$out") features → $out" >&2
