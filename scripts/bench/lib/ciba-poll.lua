-- wrk script: CIBA polls (POST /oauth/token, grant_type=urn:openid:params:grant-type:ciba, CIBA Core §10.1,
-- SPEC §6.2; scripts/bench/ciba) over many pending requests: each thread cycles through its slice of
-- IDS_FILE (line i goes to thread (i-1) % WRK_THREADS), so with many ids each one is polled rarely.
-- Good = 400 with "error":"authorization_pending" or "error":"slow_down" (both expected of a pending request
-- polled by a load generator); anything else (another status or error, e.g. 200, invalid_grant,
-- expired_token, 5xx) is counted as bad in the SUMMARY line's non2xx field (NON2XX lines per status).
-- done() adds: CIBA_POLL pending=N slow_down=N.
-- Env: BASIC (client_secret_basic), IDS_FILE, GRANT_BODY (optional, default the grant_type field; the
--      id is appended as "&auth_req_id=<id>"), WRK_THREADS.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Authorization"] = "Basic " .. (os.getenv("BASIC") or "")

local prefix = (os.getenv("GRANT_BODY") or "grant_type=urn%3Aopenid%3Aparams%3Agrant-type%3Aciba") .. "&auth_req_id="

pending = 0
slow = 0
local at = 0

function init(args)
  load_slice(os.getenv("IDS_FILE"))
  assert(#items > 0, "no auth_req_id for this thread in IDS_FILE")
end

function request()
  at = at % #items + 1
  return wrk.format(nil, nil, nil, prefix .. items[at])
end

function response(status, headers, body)
  if status == 400 and body then
    if body:find('"error"%s*:%s*"authorization_pending"') then pending = pending + 1; return end
    if body:find('"error"%s*:%s*"slow_down"') then slow = slow + 1; return end
  end
  count_bad(status, body)
end

local lib_done = done
function done(summary, latency, requests)
  lib_done(summary, latency, requests)
  local p, s = 0, 0
  for _, t in ipairs(all_threads) do
    p = p + (t:get("pending") or 0)
    s = s + (t:get("slow") or 0)
  end
  io.write(string.format("CIBA_POLL pending=%d slow_down=%d\n", p, s))
end
