-- wrk script: password login on the hosted login page (POST /u/login), one pre-created login
-- transaction per request (scripts/bench/code-flow). Each line of TX_FILE is "state csrf": the
-- transaction's state and its CSRF token, which is both the hidden form field and the warden_csrf
-- cookie. Each thread takes its own slice of the file, so no transaction is posted twice.
-- Env: TX_FILE     = transactions file
--      LOGIN_USER  = the user's e-mail address   LOGIN_PASSWORD = the password (the same for every login)
--      WRK_THREADS = wrk -t
-- A response is good when it is a 302 to the callback with code=… (a successful login); anything
-- else is counted in the SUMMARY line's non2xx field. A thread that runs out of transactions
-- stops (see lib.lua next_item: DONE_MARKER) and done() prints an EXHAUSTED line.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "lib.lua")
wrk.headers["Authorization"] = nil

local function enc(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end
local credentials = "&username=" .. enc(os.getenv("LOGIN_USER") or "") .. "&password=" .. enc(os.getenv("LOGIN_PASSWORD") or "")
local path = wrk.path

function init(args)
  load_slice(os.getenv("TX_FILE"))
end

function request()
  local item = next_item() or "exhausted exhausted"
  local state, csrf = item:match("^(%S+)%s+(%S+)")
  return wrk.format("POST", path, {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Cookie"] = "warden_csrf=" .. csrf,
  }, "state=" .. state .. "&csrf=" .. csrf .. credentials)
end

function response(status, headers, body)
  local loc = headers["Location"] or headers["location"]
  if not (status == 302 and loc and loc:match("[?&]code=")) then
    count_bad(status, (loc and ("Location: " .. loc .. " ") or "") .. (body or ""))
  end
end
