-- Shared part of the wrk scripts of scripts/bench/code-flow (loaded with dofile by
-- authorize-codes.lua, exchange-codes.lua and login-post.lua).
-- It loads post-form-basic.lua (request shape, per-status counters, the SUMMARY / NON2XX lines of
-- done()) and adds:
--   * a thread index `tid` (0-based) set in setup();
--   * load_slice(path): the lines of `path` that belong to this thread (line i goes to thread
--     (i-1) % WRK_THREADS), for scripts that consume one pre-created item (code, login transaction)
--     per request;
--   * next_item(): the next item of the slice; when the slice is used up it stops the thread, creates
--     the marker file DONE_MARKER.<tid> (if DONE_MARKER is set: the caller then stops wrk with SIGINT
--     once every thread is done, so wrk reports the time actually used) and returns nil (the request
--     sent then is never read); done() prints an EXHAUSTED line;
--   * count_bad(status, body): counts a response as bad the way post-form-basic.lua does.
-- Env: WRK_THREADS = wrk -t (needed by load_slice); DONE_MARKER (optional, see next_item).
bench_dir = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(bench_dir .. "post-form-basic.lua")

-- post-form-basic.lua keeps its thread list local; this one is for the scripts built on lib.lua
all_threads = {}
local base_setup = setup
function setup(thread)
  base_setup(thread)
  table.insert(all_threads, thread)
  thread:set("tid", #all_threads - 1)
end

items = {}
item_index = 0
exhausted = 0

function load_slice(path)
  local nthreads = tonumber(os.getenv("WRK_THREADS") or "")
  assert(nthreads and nthreads > 0, "WRK_THREADS must be set to wrk -t")
  local f = assert(io.open(path, "r"), "cannot open " .. tostring(path))
  local i = 0
  for line in f:lines() do
    if line ~= "" then
      if i % nthreads == tid then items[#items + 1] = line end
      i = i + 1
    end
  end
  f:close()
end

-- This thread has its share: creates the marker file DONE_MARKER.<tid> (the caller stops wrk once every
-- thread has one) and stops the thread.
function thread_done()
  local marker = os.getenv("DONE_MARKER")
  if marker and marker ~= "" then
    local f = io.open(marker .. "." .. tid, "w")
    if f then f:close() end
  end
  wrk.thread:stop()
end

function next_item()
  item_index = item_index + 1
  local item = items[item_index]
  if item == nil then
    exhausted = exhausted + 1
    if exhausted == 1 then thread_done() end
  end
  return item
end

function count_bad(status, body)
  bad = bad + 1
  codes[status] = (codes[status] or 0) + 1
  if sample == nil then
    sample = status .. " " .. string.sub(body or "", 1, 300)
  end
end

local base_done = done
function done(summary, latency, requests)
  base_done(summary, latency, requests)
  local used, short = 0, 0
  for _, t in ipairs(all_threads) do
    local ex = t:get("exhausted") or 0
    used = used + (t:get("item_index") or 0) - ex
    short = short + ex
  end
  if short > 0 then
    io.write(string.format("EXHAUSTED threads_ran_out requests_without_item=%d items_taken=%d\n", short, used))
  end
end
