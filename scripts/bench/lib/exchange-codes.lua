-- wrk script: the authorization-code exchange (POST to the token endpoint), one pre-created code per
-- request (scripts/bench/code-flow). Each thread takes its own slice of the codes file, so no code is
-- sent twice; all codes share one PKCE verifier.
-- Env: CODES_FILE  = file of codes, one a line (from authorize-codes.lua)
--      BODY        = form body without the code, e.g. "grant_type=authorization_code&client_id=…&
--                    redirect_uri=…&code_verifier=…"; "&code=<code>" is appended
--      BASIC       = base64("client_id:client_secret") for a confidential client (unset: public client)
--      WRK_THREADS = wrk -t
-- Non-2xx responses are counted as in post-form-basic.lua. A thread that runs out of codes stops
-- (see lib.lua next_item: DONE_MARKER) and done() prints an EXHAUSTED line.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")

local prefix = wrk.body .. "&code="

function init(args)
  load_slice(os.getenv("CODES_FILE"))
end

function request()
  return wrk.format(nil, nil, nil, prefix .. (next_item() or "exhausted"))
end
