#!/usr/bin/env bash
# Replays every lab recording through the service jar's `replay` and prints, per recording, when
# the current detector first names the scenario's cause, counted from the fault's injection time T
# that the live run logged (<name>.run.txt), which other causes it named before that, and the
# diagnosis at the end of the recording.
# Usage (from the repository root, after ./mvnw -B -q package -DskipTests):
#   lab/replay-timelines.sh [api/target/checkpoint-doctor.jar] [lab/recordings]
set -euo pipefail
jar=${1:-api/target/checkpoint-doctor.jar}
dir=${2:-lab/recordings}
[ -f "$jar" ] || { echo "no $jar: build it with ./mvnw -B -q package -DskipTests" >&2; exit 2; }

printf '| recording | expected cause | named at (replay, current detector) | named before it | named at the end | live run: alert with the expected cause |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
for rec in "$dir"/*.prom.gz; do
  name=$(basename "$rec" .prom.gz)
  run="$dir/$name.run.txt"
  [ -f "$run" ] || continue
  scenario=${name#flink2-}
  expected=$scenario
  # scenarios whose name is not their cause (lab/README.md)
  [ "$scenario" = rocksdb_slow_local_disk ] && expected=local_disk_slow
  t=$(grep -m1 -o 'injected at T = [^ ]*' "$run" | awk '{print $5}')
  [ -n "$t" ] || continue
  t_ms=$(date -d "$t" +%s%3N)
  live=$(grep -m1 -E "^alert at webhook +T\+[0-9]+s +firing cause=$expected " "$run" \
    | awk '{print $4}' || true)
  # the disk runs joined their disks with the service's --host-alias (lab/README.md)
  alias=()
  case $scenario in
    disk_throttling|rocksdb_slow_local_disk) alias=(--host-alias minicluster=127.0.0.1) ;;
  esac
  java -jar "$jar" replay --min-observations 5 "${alias[@]}" "$rec" 2>/dev/null \
    | TZ=UTC awk -v t="$t_ms" -v want="$expected" -v name="$name" -v live="${live:--}" '
      / diagnosis  / && /cause=/ {
        ts = $1; sub(/Z$/, "", ts); gsub(/[-T:]/, " ", ts)
        split(ts, p, " "); split(p[6], s, ".")
        ms = mktime(p[1] " " p[2] " " p[3] " " p[4] " " p[5] " " s[1]) * 1000 + s[2]
        match($0, /cause=[a-z_]+/); cause = substr($0, RSTART + 6, RLENGTH - 6)
        if (ms < t) next
        last = cause
        if (named != "") next
        if (cause == want) { named = sprintf("T+%ds", (ms - t) / 1000) }
        else if (cause != "unknown" && index(" " before " ", " " cause " ") == 0) {
          before = before (before == "" ? "" : " ") cause
        }
      }
      END {
        printf "| %s | %s | %s | %s | %s | %s |\n", name, want, named == "" ? "never" : named,
          before == "" ? "-" : before, last == "" ? "-" : last, live
      }'
done
