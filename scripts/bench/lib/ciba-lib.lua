-- Shared part of the wrk scripts of scripts/bench/ciba that make a fixed number of things (users,
-- backchannel requests), loaded with dofile by ciba-users.lua and ciba-bc-authorize.lua. Built on lib.lua
-- (thread index `tid`, count_bad, the SUMMARY / NON2XX lines of done()).
--
-- Slots: the job has SLOTS numbered 0 … SLOTS-1; thread `tid` of WRK_THREADS takes slots tid, tid+T, … (so
-- slot k is sent at about the same time by whichever thread owns it: the threads advance together).
--   init_slots(total)  in init()
--   next_slot()        the next slot of this thread, or nil once they are all sent: the caller then sends
--                      FILLER (GET /healthz, answered without storage) so the connections that have
--                      nothing left to do stay busy until the last answers of the thread are in
--   slot_answered()    in response(), after a real (non-filler) answer: once every slot of the thread is
--                      answered the thread stops and creates DONE_MARKER.<tid> (the caller stops wrk with
--                      SIGINT once every thread is done, so wrk reports the time actually used)
--   is_filler(status, body)  a /healthz answer (ignored; they are in wrk's request count and latencies, a
--                      few per connection while the last slow answers come in). Should an answer never
--                      come, a thread that sent its last slot 30 s ago stops anyway (done() then prints
--                      UNANSWERED)
-- wrk 4.1 calls request() once in thread 0's state before the run, to check it (script_verify_request), and
-- never sends that request: the first call in thread 0 takes no slot.
-- Env: WRK_THREADS = wrk -t; DONE_MARKER (optional).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")

slot_next, slot_step, slot_total, share, answered = 0, 1, 0, 0, 0
last_sent = nil
fillers = 0
local first_call = true

function init_slots(total)
  local nthreads = tonumber(os.getenv("WRK_THREADS") or "")
  assert(nthreads and nthreads > 0, "WRK_THREADS must be set to wrk -t")
  assert(total >= nthreads, "fewer slots than wrk threads")
  slot_next, slot_step, slot_total = tid, nthreads, total
  share = math.floor((total - 1 - tid) / nthreads) + 1
  FILLER = wrk.format("GET", "/healthz", {}, "")
end

function next_slot()
  if first_call then
    first_call = false
    if tid == 0 then return nil end
  end
  if slot_next >= slot_total then return nil end
  local k = slot_next
  slot_next = slot_next + slot_step
  if slot_next >= slot_total then last_sent = os.time() end
  return k
end

function is_filler(status, body)
  if status == 200 and body == '{"status":"ok"}' then
    fillers = fillers + 1
    if last_sent and os.time() - last_sent >= 30 and answered < share then
      last_sent = nil
      thread_done()
    end
    return true
  end
  return false
end

function slot_answered()
  answered = answered + 1
  if answered == share then thread_done() end
end

local lib_done = done
function done(summary, latency, requests)
  lib_done(summary, latency, requests)
  local lost, f, real = 0, 0, 0
  for _, t in ipairs(all_threads) do
    lost = lost + (t:get("share") or 0) - (t:get("answered") or 0)
    f = f + (t:get("fillers") or 0)
    real = real + (t:get("answered") or 0)
  end
  io.write(string.format("SLOTS answered=%d fillers=%d answered_per_s=%.1f\n", real, f, real / (summary.duration / 1e6)))
  if lost > 0 then io.write(string.format("UNANSWERED slots=%d\n", lost)) end
end
