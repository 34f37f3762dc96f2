# Sourced by scripts/windows-test and scripts/dist: a Wine prefix that can
# run bot.exe here, and the checks every bot.exe must pass under it.
#
# Wine 8 (Debian 12's) lacks two things a real Windows has (WINDOWS.md):
# ProcessPrng, without which no Rust program starts, and the DWM frame
# bounds, without which xcap lists no window. Stand-ins built here from
# scripts/wine/*.c go into the Wine prefix's system folder, never next to
# bot.exe: the players' archive holds only what a real Windows needs.
#
# The caller sets `root` (the repository) and defines `say` and `die`.

wine=/usr/lib/wine/wine64
export WINEARCH=win64 WINEDEBUG=-all
export WINEDLLOVERRIDES="dwmapi,bcryptprimitives=n,b"

# wine_prefix DIR: makes DIR a 64-bit prefix with the two stand-ins, or
# keeps it as it is when it was made by this Wine from these stand-ins.
wine_prefix() {
  local prefix=$1 stamp system
  stamp="$("$wine" --version) $(cat "$root"/scripts/wine/* | sha256sum | cut -c1-16)"
  if [[ -f $prefix/.dustbot-stand-ins && $(cat "$prefix/.dustbot-stand-ins") == "$stamp" ]]; then
    return 0
  fi
  rm -rf "$prefix"
  # wineboot can stall (a dialog, a server that never answers): bounded.
  WINEPREFIX=$prefix timeout 300 "$wine" wineboot --init >/dev/null 2>&1 \
    || die "wineboot did not make a prefix in $prefix within 300 s (exit $?)"
  WINEPREFIX=$prefix timeout 60 /usr/lib/wine/wineserver -w 2>/dev/null \
    || die "the Wine server of $prefix did not end within 60 s"
  system=$prefix/drive_c/windows/system32
  [[ -d $system ]] || die "wineboot made no prefix in $prefix"
  x86_64-w64-mingw32-gcc -O2 -shared -o "$system/bcryptprimitives.dll" \
    "$root/scripts/wine/bcryptprimitives.c" -lbcrypt
  x86_64-w64-mingw32-gcc -O2 -shared -o "$system/dwmapi.dll" \
    "$root/scripts/wine/dwmapi.c" "$root/scripts/wine/dwmapi.def"
  printf '%s\n' "$stamp" >"$prefix/.dustbot-stand-ins"
}

# wine_bot EXE ARGS...: the bot as a Windows program, its output with
# Windows' line ends taken off; at most 120 s.
wine_bot() {
  local exe=$1 status=0
  shift
  timeout 120 "$wine" "$exe" "$@" | tr -d '\r' || status=$?
  # A program that ends silently (a crash Wine does not report, a
  # timeout) is named by its status, which the caller's message lacks.
  ((status == 0)) || printf '%s %s: exit status %d\n' "$(basename "$exe")" "$*" "$status" >&2
  return "$status"
}

# wine_check EXE ARGS...: wine_bot for a command that only reads and says
# (help, a proof, a dry run of files), run once more when it ends with a
# status the bot never gives: 1 and 2 are its failures, said on standard
# error, and 101 a panic, also said. Under `make test`, beside the native
# tests, such a command ended with a failing status and nothing on
# standard error twice in about ten runs, once after its whole output
# (`bot.exe solve`) and once before any (a dry run); 70 runs of the same
# commands from a fresh Wine server, under a load of 3 to 8, never did.
# The retry is said, with the first status; a second failure is the
# caller's. Never for a command that clicks or waits on a window.
wine_check() {
  local output status=0
  output=$(wine_bot "$@") || status=$?
  case $status in
    0 | 1 | 2 | 101) ;;
    *)
      printf '%s %s: exit status %d, not one the bot gives: once more\n' \
        "$(basename "$1")" "${*:2}" "$status" >&2
      status=0
      output=$(wine_bot "$@") || status=$?
      ;;
  esac
  printf '%s\n' "$output"
  return "$status"
}

# check_resources EXE PROGRAM: EXE (PROGRAM.exe) carries its resources.
# The version resource's FileDescription (UTF-16, the value after its
# key) is what Task Manager shows and xcap names each bot window by, its
# OriginalFilename the program's own; the manifest (UTF-8 text) names the
# program, runs as the user (asInvoker), is per-monitor DPI aware v2 and
# declares Windows 10 and 11, not 8.1; its icon is the repository's.
check_resources() {
  local exe=$1 program=$2 description original
  [[ -f $exe ]] || die "no $exe"
  description=$(strings -e l "$exe" | grep -A1 -x FileDescription | sed -n 2p)
  [[ $description == dustbot ]] || die "$program.exe's FileDescription is '$description', not dustbot"
  original=$(strings -e l "$exe" | grep -A1 -x OriginalFilename | sed -n 2p)
  [[ $original == "$program.exe" ]] || die "$program.exe's OriginalFilename is '$original'"
  grep -q "name=\"dustbot.$program\"" "$exe" || die "$program.exe's manifest does not name it"
  grep -q 'level="asInvoker"' "$exe" || die "$program.exe's manifest does not run it as the user"
  grep -q 'PerMonitorV2' "$exe" || die "$program.exe's manifest is not per-monitor DPI aware v2"
  grep -q '8e0f7a12-bfb3-4fe8-b9a5-48fd50a15a9a' "$exe" || die "$program.exe's manifest does not declare Windows 10 and 11"
  if grep -q '1f676c76-80e1-4239-95bb-83d0f6d0da78' "$exe"; then die "$program.exe's manifest declares Windows 8.1"; fi
  # The icon group resource Explorer shows (GRPICONDIR): the icon file's
  # header and entries, each with its image's id (1, 2, ...) in place of
  # its offset in the file; the file itself is in the exe too (the
  # windows' icon), which this does not match.
  python3 - "$exe" "$root/windows/dustbot.ico" <<'PY' || die "$program.exe carries no icon group of windows/dustbot.ico"
import sys
exe, ico = (open(path, "rb").read() for path in sys.argv[1:3])
count = int.from_bytes(ico[4:6], "little")
group = ico[:6] + b"".join(
    ico[6 + 16 * i : 18 + 16 * i] + (i + 1).to_bytes(2, "little") for i in range(count)
)
sys.exit(0 if group in exe else 1)
PY
}

# check_exe EXE WORK: what every bot.exe must do, run from the folder WORK
# (its samples/ a copy of the repository's): its name, no X11, its
# resources, a proof, every sample read exactly. One line a check; the
# first failure dies.
check_exe() {
  local exe=$1 work=$2 help usage listing description example solved json count truth name line t0=$SECONDS
  cp -r "$root/samples" "$work/"
  # The output whole, then searched: a grep that stops at its match would
  # cut the pipe, and pipefail take SIGPIPE for a failure.
  help=$(cd "$work" && wine_check "$exe" --help) || die "bot.exe --help: $help"
  usage=$(grep -m1 '^Usage:' <<<"$help")
  [[ $usage == "Usage: bot [OPTIONS]"* ]] || die "bot.exe --help: $usage"
  listing=$(cd "$work" && env -u DISPLAY -u WAYLAND_DISPLAY timeout 120 "$wine" "$exe" windows 2>&1 | tr -d '\r') \
    || die "bot.exe windows without DISPLAY: $listing"
  if grep -qiE 'x11|display|wayland' <<<"$listing"; then die "bot.exe windows speaks of X11: $listing"; fi
  say "help reads '$usage'; 'bot windows' needs no DISPLAY: $((SECONDS - t0)) s"

  t0=$SECONDS
  check_resources "$exe" bot
  check_resources "$(dirname "$exe")/dustbot.exe" dustbot
  say "bot.exe and dustbot.exe: FileDescription dustbot, each its own OriginalFilename and manifest (PerMonitorV2, asInvoker, Windows 10 and 11 only), the icon: $((SECONDS - t0)) s"

  t0=$SECONDS
  example=GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG
  solved=$(cd "$work" && wine_check "$exe" solve "$example") || die "bot.exe solve: $solved"
  grep -q '^11 moves, proven optimal' <<<"$solved" || die "bot.exe solve: $solved"
  say "solve: $(grep 'moves, proven' <<<"$solved"): $((SECONDS - t0)) s"

  t0=$SECONDS
  json=$(cd "$work" && wine_check "$exe" --dry-run --json --time 1 --out dry-run samples) \
    || die "bot.exe --dry-run samples: $json"
  count=0
  for truth in "$root"/samples/*.board; do
    name=$(basename "$truth" .board)
    # The image's path ends in NAME.png or NAME.jpg, after a / or a \.
    line=$(grep -F "$name." <<<"$json") || die "no answer for $name: $json"
    [[ $(wc -l <<<"$line") == 1 ]] || die "several answers for $name: $line"
    grep -qF "\"board\":\"$(cat "$truth")\"" <<<"$line" || die "$name read wrong: $line"
    count=$((count + 1))
  done
  say "dry run: $count of $count samples read exactly: $((SECONDS - t0)) s"
}
