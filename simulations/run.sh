#!/bin/sh
# Regenerates simulations/results/*: the study of issue 19 (see README.md). Every scenario with 5 seeds: the printed
# table (results/<scenario>.txt), the sweep's per-seed totals and intervals (sweep.json), the scenario seed's full
# summary (summary.json) and, not checked in, index.html with the Pareto plot, the per-trace pages and event CSVs.
# Then every scenario again without and with a 30-minute minimum between refresh calls (results/<scenario>-refresh-cap*),
# the choice made on the development walkers (results/dev-*, recommended.json), its figures on the held-out walkers
# (results/heldout-*, served recall by stay length in results/heldout-by-stay.md) and its sensitivity (results/sensitivity.md), and the recommended configuration on every
# scenario (results/<scenario>-recommended*).
# Study IV (issue 64, two tiers of card) makes the choice, on study III's people; study III's own sweep and choice
# (results/study3-choice.json) stay for comparison.
# Study III (issue 45): real people's GeoLife traces (DATASETS, default
# ../shared/datasets) split by person (people/split.json), card stores where they stayed (tools/make_people_stores.py),
# the gap model typical, off and pessimistic (results/*-people-*); the Helsinki walkers are the second scenario.
# Usage: simulations/run.sh [GEOLIFE_DIR]   (default: datasets/trace-geolife-beijing; ../shared/datasets/... works too)
set -eu
cd "$(dirname "$0")/.."
GEOLIFE=${1:-datasets/trace-geolife-beijing}
ONCUE=${ONCUE:-.build/debug/oncue}
SEEDS=${SEEDS:-5}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
DATASETS=${DATASETS:-../shared/datasets}
if [ ! -d "$DATASETS/trace-geolife-beijing-people" ]; then
  echo "run.sh: $DATASETS/trace-geolife-beijing-people is missing; study III needs it (set DATASETS)" >&2
  exit 1
fi
python3 simulations/tools/make_people_stores.py "$DATASETS" "$TMP/people.csv"
for place in helsinki beijing people; do
  "$ONCUE" db init --db "$TMP/$place.sqlite" >/dev/null
done
"$ONCUE" import simulations/stores/helsinki-osm.geojsonseq --db "$TMP/helsinki.sqlite" --mapping simulations/stores/helsinki-chains.json >/dev/null
"$ONCUE" import "$TMP/people.csv" --db "$TMP/people.sqlite" --network-column brand >/dev/null
"$ONCUE" import simulations/stores/beijing-synthetic.csv --db "$TMP/beijing.sqlite" --network-column brand >/dev/null
replay() {   # scenario, output name, extra arguments...
  s=$1; name=$2; shift 2
  case $s in
    helsinki-*) set -- simulations/traces/helsinki/walk-*.gpx --db "$TMP/helsinki.sqlite" --wallet simulations/wallets/helsinki.json "$@" ;;
    *) set -- "$GEOLIFE" --db "$TMP/beijing.sqlite" --wallet simulations/wallets/beijing.json "$@" ;;
  esac
  "$ONCUE" replay "$@" --scenario simulations/scenarios/$s.json > simulations/results/$name.txt
}
for s in helsinki-ios helsinki-android beijing-ios beijing-android; do
  replay $s $s --seeds "$SEEDS" --out simulations/results/$s
done
for s in helsinki-ios helsinki-android beijing-ios beijing-android; do
  replay $s $s-refresh-cap --seeds "$SEEDS" --sweep app.min_refresh_interval_seconds=0,1800 --out simulations/results/$s-refresh-cap
done
# Issue 45's protocol: strategy and every tuned value are chosen on the development people only (people/split.json,
# fixed before the first replay) by the rule in tools/choose.py, written to recommended.json, and reported on the
# held-out people — with the gap model (typical), without it and with its pessimistic values.
DEV=$(python3 simulations/tools/people_files.py development "$DATASETS")
HELD=$(python3 simulations/tools/people_files.py heldout "$DATASETS")
people() {   # platform, output name, traces (a list), extra arguments...
  p=$1; name=$2; traces=$3; shift 3
  # shellcheck disable=SC2086  # the file list splits on purpose (GeoLife's paths have no spaces)
  "$ONCUE" replay $traces --db "$TMP/people.sqlite" --wallet simulations/wallets/beijing-people.json \
    --scenario simulations/scenarios/people-$p.json --seeds "$SEEDS" "$@" --out simulations/results/$name > simulations/results/$name.txt
}
for p in ios android; do
  people $p sweep-people-$p "$DEV" --sweep strategy=guaranteed+clamp,guaranteed+clamp+gps,guaranteed+clamp+gps+motion,staged+gps \
    --sweep app.min_refresh_interval_seconds=0,1800 --sweep app.gps_confirm_seconds=15,30,60 --sweep app.gps_trust_os_after_seconds=0,180 \
    --sweep app.cooldown_scope=network,location
done
# Android's DWELL transition (the OS reports a store region only after the person loitered there): rows, not choices.
people android sweep-people-android-dwell "$DEV" --sweep strategy=guaranteed+clamp,guaranteed+clamp+gps,guaranteed+clamp+gps+motion \
  --sweep app.gps_confirm_seconds=30 --sweep os.loitering_delay_seconds=0,60,120,180
# Study III's own choice, by its rule (the F1 of served recall and precision), kept for comparison.
python3 simulations/tools/choose.py --rule served-f1 ios=simulations/results/sweep-people-ios/sweep.json \
  android=simulations/results/sweep-people-android/sweep.json > simulations/results/study3-choice.json
# Study IV (issue 64): two tiers of card, a quiet card when the OS puts the person at a card store and an alert only
# for a confirmed stay. The rule (tools/choose.py: the targets met, then the card on screen at the till, then alert
# precision and recall on long stays, then GPS) was committed before the first two-tier replay; it chooses on the
# development people only, and recommended.json is its choice. iOS also tries visits as alert evidence.
# The quiet tier's filters (a delay, the motion sensor, a GPS fix at the store), the alert's evidence (the GPS window,
# a stay that lasts and a fix then, on iOS visits), the removal after an exit, and on Android more regions.
people ios sweep-tiers-people-ios "$DEV" --sweep strategy=guaranteed+clamp+gps,guaranteed+clamp+gps+motion \
  --sweep app.card_tiers=two --sweep app.cooldown_scope=location --sweep app.alert_min_stay_seconds=0,120,180 \
  --sweep app.remove_after_exit_seconds=0,60 --sweep app.quiet_requires_still=false,true --sweep app.quiet_requires_fix=false,true \
  --sweep app.gps_confirm_seconds=30,60 --sweep app.visit_confirms_stay=false,true
people android sweep-tiers-people-android "$DEV" \
  --sweep strategy=guaranteed+clamp+gps+motion,guaranteed+clamp+gps+motion@40,guaranteed+clamp+gps+motion@100,guaranteed+clamp+gps@40 \
  --sweep app.card_tiers=two --sweep app.cooldown_scope=location --sweep app.alert_min_stay_seconds=0,120,180,300 \
  --sweep app.remove_after_exit_seconds=0,60 --sweep app.quiet_requires_still=false,true --sweep app.quiet_requires_fix=false,true \
  --sweep app.gps_confirm_seconds=30
python3 simulations/tools/choose.py ios=simulations/results/sweep-tiers-people-ios/sweep.json \
  android=simulations/results/sweep-tiers-people-android/sweep.json > simulations/recommended.json
# Rows on the recommended configuration just chosen, not choices: the cool-down that spaces a network's cards (how long,
# and whether it counts per network or per location: a repeat card in one long stay against a second branch's card),
# what +gps+motion judges a stay on (the last window of fixes, or every fix since the person stood, indoor positions
# included), and on iOS the OS's visits (CLVisit) posting the card, reported after 5 minutes within 100 m or, later,
# after 10. A cool-down's length also changes which visits are card moments, so compare scopes at one length.
for p in ios android; do
  people $p rows-people-$p-cooldown "$DEV" --recommended simulations/recommended.json \
    --sweep cooldown=1800,3600,7200,14400 --sweep app.cooldown_scope=network,location
  people $p rows-people-$p-evidence "$DEV" --recommended simulations/recommended.json \
    --sweep strategy=guaranteed+clamp+gps+motion --sweep app.gps_stay_evidence=window,still
done
people ios rows-people-ios-visit "$DEV" --recommended simulations/recommended.json \
  --sweep app.visit_confirms_stay=false,true --sweep os.visit_min_minutes=5,10
# (`people` sets p: the loop's platform is a name of its own.)
for platform in ios android; do
  for side in dev heldout; do
    traces=$DEV; [ $side = heldout ] && traces=$HELD
    people $platform $side-people-$platform "$traces" --recommended simulations/recommended.json
    for fill in off pessimistic; do
      people $platform $side-people-$platform-gaps-$fill "$traces" --recommended simulations/recommended.json --set fixes.gap_fill=$fill
    done
    # The slow OS (the slow ends of the cited figures; scenarios/people-*-slow.json), and the same app with one tier.
    people $platform-slow $side-people-$platform-slow "$traces" --recommended simulations/recommended.json
    people $platform $side-people-$platform-one-tier "$traces" --recommended simulations/recommended.json --set app.card_tiers=one
  done
done
# Study IV's table (the README's answer quotes it): the recommendation on both sides, with one tier, on the slow OS and
# without and with the pessimistic gap model.
r=simulations/results
python3 simulations/tools/tier_table.py "held out, iOS=$r/heldout-people-ios" "held out, iOS, one tier=$r/heldout-people-ios-one-tier" \
  "held out, iOS, slow OS=$r/heldout-people-ios-slow" "held out, iOS, no gap model=$r/heldout-people-ios-gaps-off" \
  "held out, iOS, pessimistic gap model=$r/heldout-people-ios-gaps-pessimistic" "held out, Android=$r/heldout-people-android" \
  "held out, Android, one tier=$r/heldout-people-android-one-tier" "held out, Android, slow OS=$r/heldout-people-android-slow" \
  "held out, Android, no gap model=$r/heldout-people-android-gaps-off" \
  "held out, Android, pessimistic gap model=$r/heldout-people-android-gaps-pessimistic" "development, iOS=$r/dev-people-ios" \
  "development, iOS, slow OS=$r/dev-people-ios-slow" "development, Android=$r/dev-people-android" \
  "development, Android, slow OS=$r/dev-people-android-slow" > $r/tiers.md
python3 simulations/tools/by_person.py held-out-iOS=simulations/results/heldout-people-ios \
  held-out-Android=simulations/results/heldout-people-android development-iOS=simulations/results/dev-people-ios \
  development-Android=simulations/results/dev-people-android > simulations/results/people-by-person.md
# The Helsinki walkers, the second scenario: the sweep the earlier study chose on, and what its rule would pick there
# (results/helsinki-choice.json, for comparison; the recommendation is the people's).
for p in ios android; do
  replay helsinki-$p dev-helsinki-$p --seeds "$SEEDS" --sweep strategy=guaranteed+clamp+gps,guaranteed+clamp+gps+motion,staged+gps \
    --sweep app.min_refresh_interval_seconds=0,900,1800 --sweep app.gps_confirm_seconds=15,30,60 --out simulations/results/dev-helsinki-$p
done
python3 simulations/tools/choose.py --rule served-f1 ios=simulations/results/dev-helsinki-ios/sweep.json \
  android=simulations/results/dev-helsinki-android/sweep.json > simulations/results/helsinki-choice.json
for p in ios android; do
  "$ONCUE" replay simulations/traces/helsinki-heldout/heldout-*.gpx --db "$TMP/helsinki.sqlite" --wallet simulations/wallets/helsinki.json \
    --scenario simulations/scenarios/helsinki-$p.json --seeds "$SEEDS" --recommended simulations/recommended.json \
    --out simulations/results/heldout-helsinki-$p > simulations/results/heldout-helsinki-$p.txt
done
python3 simulations/tools/by_stay.py --walkers simulations/traces/helsinki --walkers simulations/traces/helsinki-heldout \
  iOS=simulations/results/heldout-helsinki-ios Android=simulations/results/heldout-helsinki-android > simulations/results/heldout-by-stay.md
python3 simulations/tools/sensitivity.py "$ONCUE" "$TMP/helsinki.sqlite" "$SEEDS" > simulations/results/sensitivity.md
for s in helsinki-ios helsinki-android beijing-ios beijing-android; do
  replay $s $s-recommended --seeds "$SEEDS" --recommended simulations/recommended.json --out simulations/results/$s-recommended
done
replay beijing-ideal beijing-ideal --compare --out simulations/results/beijing-ideal
replay beijing-ios-flaky-network beijing-ios-flaky-network --seeds "$SEEDS"
