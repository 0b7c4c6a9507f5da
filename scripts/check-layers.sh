#!/bin/sh
# check-layers.sh -- the call graph between the source files of the programs, read from
# their object files (nm: what each object defines and what it uses; calls through
# function pointers are not seen), and its loops: every group of files that call each
# other in a circle. A loop that crosses a folder, or that has more than MAX files (3),
# is an error: the layers of docs/ARCHITECTURE.md call downwards only.
# Usage: scripts/check-layers.sh [BUILD_DIR] [MAX]   (after `make all`; `make layers`)
set -eu
BUILD=${1:-build}
MAX=${2:-3}
[ -d "$BUILD/obj" ] || { echo "check-layers: no $BUILD/obj (run make all first)" >&2; exit 2; }
objs=$(find "$BUILD/obj" -name '*.o' ! -path '*/test/*' | sort)
# "def FILE SYMBOL" and "use FILE SYMBOL" lines; FILE is the source path
for o in $objs; do
    src=${o#"$BUILD"/obj/}
    src=${src%.o}.c
    [ -f "$src" ] || continue   # an object left from a file moved or removed
    nm --defined-only "$o" | awk -v f="$src" '$2 ~ /^[TDBR]$/ { print "def", f, $3 }'
    nm --undefined-only "$o" | awk -v f="$src" '{ print "use", f, $NF }'
done | awk -v max="$MAX" '
function dir(f,   d) { d = f; sub(/\/[^\/]*$/, "", d); return d }
function strong(v,   i, w, n, members, k, dirs, nd, crossing, line) {
    idx[v] = low[v] = ++counter; stack[++sp] = v; onstack[v] = 1
    for (i = 1; i <= nout[v]; i++) {
        w = out[v, i]
        if (!(w in idx)) { strong(w); if (low[w] < low[v]) low[v] = low[w] }
        else if (onstack[w] && idx[w] < low[v]) low[v] = idx[w]
    }
    if (low[v] == idx[v]) {
        n = 0; line = ""; split("", dirs); nd = 0
        do { w = stack[sp--]; onstack[w] = 0; n++; line = line " " w
             if (!(dir(w) in dirs)) { dirs[dir(w)] = 1; nd++ } } while (w != v)
        if (n > 1) {
            loops++
            bad = (nd > 1 || n > max)
            if (bad) errors++
            printf "%s loop of %d files%s:%s\n", (bad ? "ERROR" : "ok   "), n, ((nd > 1) ? " across folders" : ""), line
        }
    }
}
$1 == "def" { defd[$3] = $2; next }
$1 == "use" { uses[++nu] = $2 SUBSEP $3; files[$2] = 1; next }
END {
    for (i = 1; i <= nu; i++) {
        split(uses[i], p, SUBSEP); f = p[1]; s = p[2]
        if (!(s in defd) || defd[s] == f) continue
        t = defd[s]
        if ((f, t) in edge) continue
        edge[f, t] = 1; out[f, ++nout[f]] = t
    }
    for (f in files) if (!(f in idx)) strong(f)
    printf "check-layers: %d loops, %d over the rules (a folder crossed or more than %d files)\n", loops, errors, max
    exit errors ? 1 : 0
}'
