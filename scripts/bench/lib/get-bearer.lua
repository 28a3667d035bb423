-- wrk script: GET the URL given to wrk, with a Bearer access token when BEARER is set (scripts/bench/code-flow:
-- userinfo and JWKS). Loads post-form-basic.lua for the per-status counters and the SUMMARY / NON2XX lines.
-- Env: BEARER = access token (unset or empty: no Authorization header)
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "post-form-basic.lua")
wrk.method = "GET"
wrk.body = nil
wrk.headers["Content-Type"] = nil
wrk.headers["Authorization"] = nil
local bearer = os.getenv("BEARER")
if bearer and bearer ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. bearer
end
