#!/usr/bin/env bash
# The shipped program is small: at most LIMIT_MB (default 20) once stripped, as the .deb
# installs it, and without ICU. ICU comes with Foundation's internationalization (one call
# of a Foundation-only API links it all): 34 MB of data, icudt*_dat, plus its code.
# Usage: binary-size.sh BINARY [LIMIT_MB]   (`make size-check` runs it on the release build)
set -euo pipefail
binary=${1:?usage: binary-size.sh BINARY [LIMIT_MB]}
limit_mb=${2:-20}
[ -x "$binary" ] || { echo "binary-size: no program at $binary" >&2; exit 2; }

stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip -o "$stripped" "$binary"
size=$(stat -c %s "$stripped")
limit=$((limit_mb * 1000 * 1000))
# The data's symbol (icudt76_dat) and name (strings) and the modules that bring it.
icu_data=$(strings -a "$binary" | grep -c 'icudt' || true)
icu_modules=$(nm "$binary" 2>/dev/null | grep -c -E 'icudt|FoundationInternationalization|_FoundationICU' || true)

printf 'binary-size: %s: %d bytes stripped (%.1f MB; limit %d MB), ICU data strings %d, ICU symbols %d\n' \
	"$binary" "$size" "$(awk "BEGIN { print $size / 1000000 }")" "$limit_mb" "$icu_data" "$icu_modules"
status=0
if [ "$icu_data" -ne 0 ] || [ "$icu_modules" -ne 0 ]; then
	echo "binary-size: FAIL: $binary contains ICU (Foundation's internationalization is linked in)" >&2
	echo "  look for a Foundation-only API: nm -u on the objects, grep '10Foundation' (not FoundationEssentials)" >&2
	status=1
fi
if [ "$size" -gt "$limit" ]; then
	echo "binary-size: FAIL: stripped $binary is $size bytes, over $limit_mb MB" >&2
	status=1
fi
exit $status
