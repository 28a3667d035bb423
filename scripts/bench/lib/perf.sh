# `perf report` summaries for the benchmark reports (sourced, not run). Used by scripts/bench/push; perf_top is
# the inline perf_top of scripts/bench/ciba, which can source this file instead.
#   perf_top DATA SORT LINES       the top LINES rows of `perf report --no-children --sort SORT` (self time)
#   perf_inclusive DATA LINES      the top LINES functions of the warden binary by inclusive time (children
#                                  counted), demangled when `swift demangle` is there, thread / executor
#                                  plumbing left out: which of Warden's own code paths the time is under
#   perf_summary NAME DATA         a Markdown list item: NAME — threads, objects, top symbols, inclusive

perf_top() { # data sort-key lines
  perf report -i "$1" --no-children --sort "$2" --stdio -g none 2>/dev/null | grep -E '^ +[0-9.]+%' | head -n "$3" \
    | sed -E 's/[[:space:]]+(-[[:space:]]+)*$//; s/[[:space:]]{2,}/  /g; s/^ */    /' | cut -c1-160 || true
}

perf_inclusive() { # data lines
  local demangle=cat
  command -v swift >/dev/null && swift demangle --help >/dev/null 2>&1 && demangle="swift demangle --simplified"
  perf report -i "$1" --children --sort symbol --stdio -g none --dsos warden 2>/dev/null | grep -E '^ +[0-9.]+%' \
    | $demangle | sed -E 's/[[:space:]]+(-[[:space:]]+)*$//; s/[[:space:]]{2,}/  /g; s/^ */    /' \
    | grep -vE 'start_thread|_dispatch_|swift_job_run|runJobInEstablishedExecutorContext|NIOThread|ThreadOpsPosix|reabstraction thunk|partial apply|Result<>\.init\(catching|RefCounts<|_swift_release_dealloc' \
    | head -n "$2" | cut -c1-160 || true
}

perf_summary() { # name data
  echo "- $1 — threads:"
  echo
  perf_top "$2" comm 6
  echo
  echo "  objects:"
  echo
  perf_top "$2" dso 6
  echo
  echo "  symbols (self time):"
  echo
  perf_top "$2" dso,symbol 20
  echo
  echo "  Warden's functions (inclusive time, first column; self time second):"
  echo
  perf_inclusive "$2" 20
  echo
}
