#!/usr/bin/env bash
# Real fastchess tournaments with crashing, hanging and illegal-move engines, every engine wrapped
# in `kibitzer record`: does the proxy stay invisible to the runner when an engine crashes, and
# the fixture tests/fixtures/fastchess-tournament/. fastchess is built from its public source;
# it is never a test dependency, this script only makes fixtures and measurements.
#
#   scripts/fastchess-tournament.sh build SRC_OR_MIRROR [DEST]
#       SRC_OR_MIRROR: a fastchess source tree, or a bare git directory of
#       https://github.com/Disservin/fastchess (e.g. the one `git clone --bare` makes); its HEAD
#       tree is extracted into DEST (default /tmp/fastchess-src) and built there with
#       `nice make -j2` (C++17, g++). Prints the binary's path (DEST/fastchess).
#   scripts/fastchess-tournament.sh storm FASTCHESS KIBITZER [RUNS] [WORKDIR]
#       The crash storm: RUNS (default 20) runs with every engine wrapped in
#       `KIBITZER record --dir ...` and RUNS runs with the bare engines, alternating, each a
#       round robin of stockfish, toga2 and a python engine that dies by SIGSEGV at its 6th
#       search of every game (fastchess -recover restarts it), -rounds 1 -games 2 (6 games),
#       -concurrency 2, tc=1+0.01. Prints fastchess's exit status of every run and the counts
#       (141 = fastchess died of SIGPIPE). With STORM_LAYOUT=pair in the environment: stockfish
#       against the crasher alone, 2 games a run, both at once (the engines are named sf,
#       crasher in this order; else sf, toga, crasher).
#   scripts/fastchess-tournament.sh fixture FASTCHESS KIBITZER [KILL_GAME] [KILL_GO]
#       Makes tests/fixtures/fastchess-tournament/: a round robin of stockfish, toga2 and three
#       faulty python engines (tests/engines/fastchess_faulty.py: crash, hang, illegal), all
#       wrapped in `KIBITZER record --dir recordings`, played twice into one trace log
#       (-log ... append=true): run 1 is killed (SIGKILL to fastchess) in the middle of game
#       KILL_GAME (default 9, toga2 vs crash; game 10 is crash vs toga2 and runs beside it) when
#       the crash engine started for it got its KILL_GO-th (default 5th) search of the game (its
#       recording is watched); run 2 then plays the whole tournament.
#
# Engines: /usr/games/stockfish (Debian's stockfish), /usr/games/toga2 (`apt-get install toga2`),
# python3 with python-chess for tests/engines/fastchess_faulty.py.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
faulty="$root/tests/engines/fastchess_faulty.py"

die() { echo "$0: $*" >&2; exit 2; }

make_openings() { # FILE: 400 EPD positions 4..8 random legal plies from the start, seeded
  python3 "$root/scripts/openings.py" 400 "$1"
}

# wrapper FILE KIBITZER DIR LABEL ENGINE [ARGS...]: a shell script that execs the engine
# under `kibitzer record --dir DIR -l LABEL` (every start gets its own, automatically named file);
# it notes its pid (the engine's: exec keeps it) in pids beside FILE
wrapper() {
  local file=$1 kz=$2 dir=$3 label=$4; shift 4
  { echo '#!/bin/sh'
    printf 'echo $$ >>%q\n' "$(dirname "$file")/pids"
    printf 'exec %q record --dir %q -l %q --' "$kz" "$dir" "$label"
    printf ' %q' "$@"
    echo ' "$@"'; } >"$file"
  chmod +x "$file"
}

end_leftovers() { # PIDFILE: a hung engine reads nothing and lives on; end those started here
  local p
  for p in $(cat "$1"); do
    if kill -0 "$p" 2>/dev/null; then
      echo "  leftover engine pid $p: $(tr '\0' ' ' </proc/"$p"/cmdline), SIGKILL" >&2
      kill -KILL "$p"
    fi
  done
  sleep 1
}

cmd_build() {
  local from=${1:?source tree or bare git directory} dest=${2:-/tmp/fastchess-src}
  if [ -f "$from/Makefile" ] && [ -d "$from/app" ]; then
    dest=$from
  else
    git --git-dir="$from" rev-parse HEAD >&2
    rm -rf "$dest"; mkdir -p "$dest"
    git --git-dir="$from" archive HEAD | tar -x -C "$dest"
    git --git-dir="$from" rev-parse HEAD >"$dest/COMMIT"
  fi
  nice make -C "$dest" -j2 >&2
  [ -x "$dest/fastchess" ] || die "no fastchess binary after make in $dest"
  echo "$dest/fastchess"
}

cmd_storm() {
  local fc kz runs=${3:-20} work=${4:-/tmp/kibitzer-tournament/storm}
  fc=$(realpath "${1:?fastchess binary}"); kz=$(realpath "${2:?kibitzer binary}")
  rm -rf "$work"; mkdir -p "$work"
  make_openings "$work/open.epd"
  local -A count=()
  local i mode run rc
  for i in $(seq 1 "$runs"); do
    for mode in proxied bare; do
      run=$work/$mode-$(printf %02d "$i"); mkdir -p "$run/rec"
      if [ "$mode" = proxied ]; then
        wrapper "$run/sf" "$kz" "$run/rec" sf /usr/games/stockfish
        wrapper "$run/toga" "$kz" "$run/rec" toga /usr/games/toga2
        wrapper "$run/crasher" "$kz" "$run/rec" crasher python3 "$faulty" --crash-at 6
        set -- -engine cmd="$run/sf" name=sf
        [ "${STORM_LAYOUT:-}" = pair ] || set -- "$@" -engine cmd="$run/toga" name=toga
        set -- "$@" -engine cmd="$run/crasher" name=crasher
      else
        set -- -engine cmd=/usr/games/stockfish name=sf
        [ "${STORM_LAYOUT:-}" = pair ] || set -- "$@" -engine cmd=/usr/games/toga2 name=toga
        set -- "$@" -engine cmd=python3 args="$faulty --crash-at 6" name=crasher
      fi
      set +e
      (cd "$run" && exec "$fc" "$@" -each tc=1+0.01 -openings file="$work/open.epd" format=epd \
         order=random -srand "$i" -rounds 1 -games 2 -concurrency 2 -recover -maxmoves 60 \
         -pgnout file=games.pgn >fastchess.out 2>&1)
      rc=$?
      set -e
      echo "$rc" >"$run/rc"
      count[$mode:$rc]=$(( ${count[$mode:$rc]:-0} + 1 ))
      printf '%s run %2d: fastchess exit %3d, games in PGN %s, terminations: %s, recordings %s\n' \
        "$mode" "$i" "$rc" "$(grep -c '^\[Result ' "$run/games.pgn" 2>/dev/null || echo 0)" \
        "$(grep -h '^\[Termination ' "$run/games.pgn" 2>/dev/null | sort | uniq -c | tr -s ' \n' ' ')" \
        "$(ls "$run/rec" | wc -l)"
    done
  done
  echo "exit statuses (mode:status count):"
  for i in "${!count[@]}"; do echo "  $i ${count[$i]}"; done | sort
}

cmd_fixture() {
  local fc kz kill_game=${3:-9} kill_go=${4:-5}
  fc=$(realpath "${1:?fastchess binary}"); kz=$(realpath "${2:?kibitzer binary}")
  local out=$root/tests/fixtures/fastchess-tournament
  local work; work=$(mktemp -d /tmp/fastchess-fixture.XXXXXX)
  mkdir -p "$out"
  rm -rf "$out/recordings" "$out"/tournament.log* "$out"/run*.pgn "$out"/run*.out
  mkdir -p "$out/recordings"
  make_openings "$work/open.epd"
  local rec=$out/recordings
  wrapper "$work/stockfish" "$kz" "$rec" stockfish /usr/games/stockfish
  wrapper "$work/toga2" "$kz" "$rec" toga2 /usr/games/toga2
  wrapper "$work/crash" "$kz" "$rec" crash python3 "$faulty" --crash-at 8 --seed 1
  wrapper "$work/hang" "$kz" "$rec" hang python3 "$faulty" --hang-at 8 --seed 2
  wrapper "$work/illegal" "$kz" "$rec" illegal python3 "$faulty" --illegal-at 8 --seed 3
  local args=(
    -engine cmd="$work/stockfish" name=stockfish option.Hash=8 option.Threads=1
    -engine cmd="$work/toga2" name=toga2 option.Hash=8
    -engine cmd="$work/crash" name=crash
    -engine cmd="$work/hang" name=hang
    -engine cmd="$work/illegal" name=illegal
    -each tc=2+0.02 -openings file="$work/open.epd" format=epd order=random -srand 11
    -rounds 1 -games 2 -concurrency 2 -recover -maxmoves 60 -ping-ms 5000 -ucinewgame-ms 5000
    -log file="$out/tournament.log" level=trace engine=true append=true
  )
  echo "run 1 (SIGKILL to fastchess in game $kill_game once a crash engine there got its search $kill_go) ..." >&2
  (cd "$work" && exec "$fc" "${args[@]}" -pgnout file="$out/run1.pgn" >"$out/run1.out" 2>&1) &
  local pid=$! f hit=
  until grep -q "^Started game $kill_game of" "$out/run1.out" 2>/dev/null; do
    sleep 0.05
    kill -0 "$pid" 2>/dev/null || die "run 1 ended before game $kill_game"
  done
  touch "$work/marker"
  # the crash engine started for that game (its recording is written live): at its search
  # $kill_go of the game (it crashes at 8) the game is in its middle
  while [ -z "$hit" ]; do
    sleep 0.02
    kill -0 "$pid" 2>/dev/null || die "run 1 ended before the kill"
    for f in $(find "$rec" -name '*-crash.jsonl' -newer "$work/marker"); do
      [ "$(grep -c '"src":"gui","text":"go ' "$f")" -ge "$kill_go" ] && hit=$f
    done
  done
  echo "  SIGKILL to fastchess (pid $pid) at the crash engine's search $kill_go in ${hit##*/}; last lines of run1.out: $(grep -E '^(Started|Finished) game' "$out/run1.out" | tail -n 3 | tr '\n' '|')" >&2
  kill -KILL "$pid"
  wait "$pid" || echo "  run 1: fastchess exit status $?" >&2
  sleep 3     # the engines see EOF and quit; the recorders finish
  end_leftovers "$work/pids"
  echo "run 2 (whole tournament, appending to the same log) ..." >&2
  set +e
  (cd "$work" && exec "$fc" "${args[@]}" -pgnout file="$out/run2.pgn" >"$out/run2.out" 2>&1)
  echo "  run 2: fastchess exit status $?" >&2
  set -e
  sleep 3
  end_leftovers "$work/pids"
  gzip -9 "$out"/recordings/*.jsonl
  if [ "$(stat -c %s "$out/tournament.log")" -gt 1000000 ]; then gzip -9 "$out/tournament.log"; fi
  rm -rf "$work"
  du -sh "$out" >&2
}

case "${1:-}" in
  build) shift; cmd_build "$@" ;;
  storm) shift; cmd_storm "$@" ;;
  fixture) shift; cmd_fixture "$@" ;;
  *) sed -n '2,/^set -euo/{/^#/p}' "$0" >&2; exit 2 ;;
esac
