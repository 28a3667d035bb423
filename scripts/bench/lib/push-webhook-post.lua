-- wrk script: the webhook receiver's self-test in scripts/bench/push: POST of one sample notification (the
-- SPEC §7.2 webhook body) with its X-Warden-Signature, as Warden's webhook provider sends it. Built on
-- post-form-basic.lua (per-status counters, the SUMMARY / NON2XX lines of done()).
-- Env: BODY = the JSON body, SIGNATURE = "sha256=" .. hex HMAC-SHA256(secret, BODY).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "post-form-basic.lua")
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Warden-Signature"] = os.getenv("SIGNATURE") or ""
