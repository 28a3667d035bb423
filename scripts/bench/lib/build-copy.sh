# Release build of Warden in a copy of the source (sourced, not run), so that a benchmark never runs
# `swift build` in the checkout other people are editing, and so that their edits during a measurement do not
# touch the binary being measured. Used by scripts/bench/push; any scripts/bench/* can use it the same way:
#
#   source "$REPO/scripts/bench/lib/build-copy.sh"
#   build_release_copy            # sets WARDEN_BIN (then lib.sh's start_warden skips its own build)
#
# What is built: the committed HEAD (`git archive`), so a report names exactly one commit and half-done edits
# in the checkout cannot break or skew the build; with BUILD_WORKTREE=1 the working tree as it is (uncommitted
# and untracked files included). Package.resolved (ignored by git) always comes from the checkout: it pins the
# dependencies, which resolve through SwiftPM's local cache (~/.cache/org.swift.swiftpm).
# Where: BUILD_DIR [${TMPDIR:-/tmp}/warden-bench-build], kept between runs with its .build, so a later run is
# an incremental build (the first one is a full release build: about 13 minutes on 2 cores). Only
# Package.swift, Package.resolved, Sources/, Tests/, Tools/, Plugins/ and Examples/ are copied (SwiftPM wants every declared
# target's folder); a file is rewritten only when its content changed (unchanged files keep their inode and
# mtime, so SwiftPM does not rebuild them), and a file gone from the source is deleted from the copy.
# With BUILD_BENCHMARKS=1 (scripts/bench/run) the Benchmarks/ package is copied too and everything is built in
# it, in one build directory (<copy>/Benchmarks/.build): Warden as a product of its path dependency, the
# ceiling server, and (by `swift package benchmark` later, which finds them built) the micro benchmarks; the
# main package's dependencies are compiled once instead of twice. Sets BENCH_PACKAGE and CEILING_BIN then.
# Needs: log and die (scripts/bench/lib/lib.sh), REPO, git, swift. Sets WARDEN_BIN, BUILD_DIR, BUILD_SECS,
# BUILD_COMMIT (short hash, "+ uncommitted changes" for a dirty working tree).

build_release_copy() {
  BUILD_DIR=${BUILD_DIR:-${TMPDIR:-/tmp}/warden-bench-build}
  local dir=$BUILD_DIR parts=() p t0 stage f
  command -v swift >/dev/null || die "swift not found (needed to build Warden; or pass WARDEN_BIN=...)"
  for p in Package.swift Sources Tests Tools Plugins Examples; do [[ -e $REPO/$p ]] && parts+=("$p"); done
  if [[ ${BUILD_BENCHMARKS:-0} == 1 ]]; then
    for p in Benchmarks/Package.swift Benchmarks/Benchmarks Benchmarks/Servers; do parts+=("$p"); done
  fi
  stage="$(mktemp -d "${TMPDIR:-/tmp}/warden-bench-stage.XXXXXX")"
  BUILD_COMMIT="$(cd "$REPO" && git rev-parse --short HEAD)" || { rm -rf "$stage"; die "$REPO is not a git checkout"; }
  if [[ ${BUILD_WORKTREE:-0} == 1 ]]; then
    (cd "$REPO" && tar -cf - "${parts[@]}") | tar -xf - -C "$stage"
    [[ -n "$(cd "$REPO" && git status --porcelain -- "${parts[@]}" | head -n1)" ]] \
      && BUILD_COMMIT="$BUILD_COMMIT + uncommitted changes"
  else
    for p in "${parts[@]}"; do
      (cd "$REPO" && git cat-file -e "HEAD:$p" 2>/dev/null) \
        || { rm -rf "$stage"; die "$p is not in the committed HEAD: commit it, or build the working tree (BUILD_WORKTREE=1)"; }
    done
    (cd "$REPO" && git archive --format=tar HEAD -- "${parts[@]}") | tar -xf - -C "$stage"
  fi
  [[ -f $REPO/Package.resolved ]] && cp "$REPO/Package.resolved" "$stage/"
  [[ ${BUILD_BENCHMARKS:-0} == 1 && -f $REPO/Benchmarks/Package.resolved ]] && cp "$REPO/Benchmarks/Package.resolved" "$stage/Benchmarks/"
  mkdir -p "$dir"
  # files of the copy that the source no longer has
  local gone
  gone="$(cd "$dir" && comm -13 <(cd "$stage" && find . -type f | LC_ALL=C sort) \
    <(find Package.swift Package.resolved Sources Tests Tools Plugins Examples Benchmarks/Package.swift Benchmarks/Package.resolved \
      Benchmarks/Benchmarks Benchmarks/Servers -type f 2>/dev/null | sed 's|^|./|' | LC_ALL=C sort))"
  (cd "$dir" && xargs -r -d '\n' rm -f <<<"$gone")
  local planned=1
  [[ -z $gone ]] || planned=0
  while IFS= read -r -d '' f; do
    cmp -s "$stage/$f" "$dir/$f" 2>/dev/null && continue
    [[ -e $dir/$f ]] || planned=0
    mkdir -p "$dir/$(dirname "$f")"
    cp -f "$stage/$f" "$dir/$f"
  done < <(cd "$stage" && find . -type f -print0)
  rm -rf "$stage"
  # A source file added or removed: drop SwiftPM's cached build plans (the llbuild manifests), which it does
  # not always redo for a path dependency ("missing inputs"); the compiled objects stay, the build stays
  # incremental.
  ((planned)) || rm -f "$dir"/.build/*.yaml "$dir"/Benchmarks/.build/*.yaml
  local pkg=$dir products=(warden)
  if [[ ${BUILD_BENCHMARKS:-0} == 1 ]]; then
    pkg=$dir/Benchmarks products=(warden CeilingServer)
  fi
  log "swift build -c release --product ${products[*]} (in the copy $pkg, of $BUILD_COMMIT)"
  t0=$SECONDS
  : >"$dir/.bench-build.log"
  for p in "${products[@]}"; do
    (cd "$pkg" && swift build -c release --product "$p" >>"$dir/.bench-build.log" 2>&1) \
      || { tail -n 30 "$dir/.bench-build.log" >&2; die "release build of $p failed (log: $dir/.bench-build.log)"; }
  done
  BUILD_SECS=$((SECONDS - t0))
  WARDEN_BIN="$(cd "$pkg" && swift build -c release --show-bin-path)/warden"
  if [[ ${BUILD_BENCHMARKS:-0} == 1 ]]; then
    BENCH_PACKAGE=$pkg
    CEILING_BIN="$(dirname "$WARDEN_BIN")/CeilingServer"
  fi
  [[ -x $WARDEN_BIN ]] || die "no binary at $WARDEN_BIN after the build"
  log "built $WARDEN_BIN in ${BUILD_SECS}s"
}
