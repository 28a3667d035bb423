-- wrk script: create USERS users through the Management API (POST /api/v2/users, scripts/bench/ciba), no
-- password (so no bcrypt): user_id "<USER_PREFIX><k>" (Warden stores "auth0|<USER_PREFIX><k>"), e-mail
-- "<USER_PREFIX><k>@bench.test", k = 0 … USERS-1. Good = 201; anything else is counted as bad.
-- Env: MGMT_TOKEN (Management API access token), USERS, USER_PREFIX, WRK_THREADS, DONE_MARKER (optional).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "ciba-lib.lua")
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("MGMT_TOKEN") or "")

local prefix = os.getenv("USER_PREFIX") or "bench-"

function init(args)
  init_slots(tonumber(os.getenv("USERS") or "0"))
end

function request()
  local k = next_slot()
  if k == nil then return FILLER end
  local id = prefix .. k
  return wrk.format(nil, "/api/v2/users", nil,
    '{"user_id":"' .. id .. '","email":"' .. id .. '@bench.test","email_verified":true}')
end

function response(status, headers, body)
  if is_filler(status, body) then return end
  if status ~= 201 then count_bad(status, body) end
  slot_answered()
end
