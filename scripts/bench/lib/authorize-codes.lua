-- wrk script: GET the authorization endpoint (the URL given to wrk, query included) with an SSO
-- session cookie, so every request answers 302 to the callback with a new authorization code and
-- no login (scripts/bench/code-flow: pre-creating codes for the code-exchange load, and the
-- "authorize with session" throughput).
-- Env: COOKIE      = Cookie header value (the session cookie)
--      MAX_CODES   = total codes to collect; each thread stops after its share (0 = no limit)
--      CODES_OUT   = file the collected codes are written to (one a line), at the end
--      DONE_MARKER = (optional) a thread that has its share creates DONE_MARKER.<thread index>; the caller
--                    then stops wrk with SIGINT once every thread is done (wrk reports the time used)
--      WRK_THREADS = wrk -t
-- A response is good when it is a 302 whose Location carries code=…; anything else is counted in
-- the SUMMARY line's non2xx field (NON2XX lines per status).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")
wrk.method = "GET"
wrk.body = nil
wrk.headers["Content-Type"] = nil
wrk.headers["Authorization"] = nil
wrk.headers["Cookie"] = os.getenv("COOKIE")

got = {}
got_n = 0

function init(args)
  local max = tonumber(os.getenv("MAX_CODES") or "0") or 0
  local nthreads = tonumber(os.getenv("WRK_THREADS") or "1") or 1
  limit = max > 0 and math.ceil(max / nthreads) or 0
end

function response(status, headers, body)
  local loc = headers["Location"] or headers["location"]
  local code = status == 302 and loc and loc:match("[?&]code=([^&#]+)")
  if code then
    got_n = got_n + 1
    got[got_n] = code
    if limit > 0 and got_n == limit then thread_done() end
  else
    count_bad(status, (loc and ("Location: " .. loc .. " ") or "") .. (body or ""))
  end
end

local lib_done = done
function done(summary, latency, requests)
  lib_done(summary, latency, requests)
  local out = os.getenv("CODES_OUT")
  local n = 0
  if out and out ~= "" then
    -- interleaved across threads, so the file is in about the order the codes were made (they expire)
    local lists, longest = {}, 0
    for i, t in ipairs(all_threads) do
      lists[i] = t:get("got") or {}
      if #lists[i] > longest then longest = #lists[i] end
    end
    local f = assert(io.open(out, "w"))
    for k = 1, longest do
      for _, l in ipairs(lists) do
        if l[k] then
          f:write(l[k], "\n")
          n = n + 1
        end
      end
    end
    f:close()
  end
  io.write(string.format("CODES written=%d\n", n))
end
