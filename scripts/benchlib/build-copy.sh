# Release build of Warden in a copy of the source (sourced, not run), so that a benchmark never runs
# `swift build` in the checkout other people are editing, and so that their edits during a measurement do not
# touch the binary being measured. Used by scripts/bench-push; any scripts/bench-* can use it the same way:
#
#   source "$REPO/scripts/bench/build-copy.sh"
#   build_release_copy            # sets WARDEN_BIN (then lib.sh's start_warden skips its own build)
#
# What is built: the committed HEAD (`git archive`), so a report names exactly one commit and half-done edits
# in the checkout cannot break or skew the build; with BUILD_WORKTREE=1 the working tree as it is (uncommitted
# and untracked files included). Package.resolved (ignored by git) always comes from the checkout: it pins the
# dependencies, which resolve through SwiftPM's local cache (~/.cache/org.swift.swiftpm).
# Where: BUILD_DIR [${TMPDIR:-/tmp}/warden-bench-build], kept between runs with its .build, so a later run is
# an incremental build (the first one is a full release build: about 13 minutes on 2 cores). Only
# Package.swift, Package.resolved, Sources/, Tests/ and Tools/ are copied (SwiftPM wants every declared
# target's folder); a file is rewritten only when its content changed (unchanged files keep their inode and
# mtime, so SwiftPM does not rebuild them), and a file gone from the source is deleted from the copy.
# Needs: log and die (scripts/bench/lib.sh), REPO, git, swift. Sets WARDEN_BIN, BUILD_DIR, BUILD_SECS,
# BUILD_COMMIT (short hash, "+ uncommitted changes" for a dirty working tree).

build_release_copy() {
  BUILD_DIR=${BUILD_DIR:-${TMPDIR:-/tmp}/warden-bench-build}
  local dir=$BUILD_DIR parts=() p t0 stage f
  command -v swift >/dev/null || die "swift not found (needed to build Warden; or pass WARDEN_BIN=...)"
  for p in Package.swift Sources Tests Tools; do [[ -e $REPO/$p ]] && parts+=("$p"); done
  stage="$(mktemp -d "${TMPDIR:-/tmp}/warden-bench-stage.XXXXXX")"
  BUILD_COMMIT="$(cd "$REPO" && git rev-parse --short HEAD)" || { rm -rf "$stage"; die "$REPO is not a git checkout"; }
  if [[ ${BUILD_WORKTREE:-0} == 1 ]]; then
    (cd "$REPO" && tar -cf - "${parts[@]}") | tar -xf - -C "$stage"
    [[ -n "$(cd "$REPO" && git status --porcelain -- "${parts[@]}" | head -n1)" ]] \
      && BUILD_COMMIT="$BUILD_COMMIT + uncommitted changes"
  else
    (cd "$REPO" && git archive --format=tar HEAD -- "${parts[@]}") | tar -xf - -C "$stage"
  fi
  [[ -f $REPO/Package.resolved ]] && cp "$REPO/Package.resolved" "$stage/"
  mkdir -p "$dir"
  # files of the copy that the source no longer has
  (cd "$dir" && comm -13 <(cd "$stage" && find . -type f | LC_ALL=C sort) \
    <(find Package.swift Package.resolved Sources Tests Tools -type f 2>/dev/null | sed 's|^|./|' | LC_ALL=C sort) \
    | xargs -r -d '\n' rm -f)
  while IFS= read -r -d '' f; do
    cmp -s "$stage/$f" "$dir/$f" 2>/dev/null && continue
    mkdir -p "$dir/$(dirname "$f")"
    cp -f "$stage/$f" "$dir/$f"
  done < <(cd "$stage" && find . -type f -print0)
  rm -rf "$stage"
  log "swift build -c release --product warden (in the copy $dir, of $BUILD_COMMIT)"
  t0=$SECONDS
  (cd "$dir" && swift build -c release --product warden >"$dir/.bench-build.log" 2>&1) \
    || { tail -n 30 "$dir/.bench-build.log" >&2; die "release build of Warden failed (log: $dir/.bench-build.log)"; }
  BUILD_SECS=$((SECONDS - t0))
  WARDEN_BIN="$(cd "$dir" && swift build -c release --show-bin-path)/warden"
  [[ -x $WARDEN_BIN ]] || die "no binary at $WARDEN_BIN after the build"
  log "built $WARDEN_BIN in ${BUILD_SECS}s"
}
