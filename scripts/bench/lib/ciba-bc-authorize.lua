-- wrk script: REQUESTS backchannel authentication requests (POST /bc-authorize, CIBA Core §7, SPEC §6.1;
-- scripts/bench/ciba), spread over USERS users round-robin: request k is for user k % USERS, so with
-- REQUESTS <= 5 x USERS no user goes over the per-user limit (5 a minute) however fast the run is.
-- Body: BODY_PREFIX .. (k % USERS) .. BODY_SUFFIX .. "&binding_message=bench%20" .. k, e.g. BODY_PREFIX =
-- "scope=openid&requested_expiry=3600&login_hint=" .. urlencode('{"format":"iss_sub","iss":"…","sub":"auth0|bench-')
-- and BODY_SUFFIX = urlencode('"}'). Client authentication: BASIC (client_secret_basic).
-- Good = 200 with an auth_req_id; the ids are written to IDS_OUT (one a line) at the end.
-- USERS=0: no user number (BODY_PREFIX .. BODY_SUFFIX names one user, for a server without a per-user limit).
-- Env: BASIC, BODY_PREFIX, BODY_SUFFIX, USERS, REQUESTS, IDS_OUT, WRK_THREADS, DONE_MARKER (optional).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "ciba-lib.lua")
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
wrk.headers["Authorization"] = "Basic " .. (os.getenv("BASIC") or "")

local body_prefix = os.getenv("BODY_PREFIX") or ""
local body_suffix = os.getenv("BODY_SUFFIX") or ""
local users = tonumber(os.getenv("USERS") or "0")

got = {}
got_n = 0

function init(args)
  assert(users and users >= 0, "USERS must be set")
  init_slots(tonumber(os.getenv("REQUESTS") or "0"))
end

function request()
  local k = next_slot()
  if k == nil then return FILLER end
  return wrk.format(nil, nil, nil,
    body_prefix .. (users > 0 and (k % users) or "") .. body_suffix .. "&binding_message=bench%20" .. k)
end

function response(status, headers, body)
  if is_filler(status, body) then return end
  local id = status == 200 and body and body:match('"auth_req_id"%s*:%s*"([^"]+)"')
  if id then
    got_n = got_n + 1
    got[got_n] = id
  else
    count_bad(status, body)
  end
  slot_answered()
end

local lib_done = done
function done(summary, latency, requests)
  lib_done(summary, latency, requests)
  local out = os.getenv("IDS_OUT")
  local n = 0
  if out and out ~= "" then
    local f = assert(io.open(out, "w"))
    for _, t in ipairs(all_threads) do
      for _, id in ipairs(t:get("got") or {}) do
        f:write(id, "\n")
        n = n + 1
      end
    end
    f:close()
  end
  io.write(string.format("IDS written=%d\n", n))
end
