-- wrk script: POST a form body to a token endpoint with HTTP Basic client authentication.
-- Used by scripts/bench/client-credentials (same request shape as the Glewlwyd peer's post.lua).
-- Env: BODY  = urlencoded form body, e.g. "grant_type=client_credentials&audience=https%3A%2F%2Fapi%2F"
--      BASIC = base64("client_id:client_secret")
-- Counts responses outside 2xx per status code (all threads) and keeps the first such body.
-- Prints one machine-readable SUMMARY line at the end (latencies in ms), then, if any,
-- one NON2XX line per status code and one NON2XX_SAMPLE line.
wrk.method = "POST"
wrk.body = os.getenv("BODY") or "grant_type=client_credentials"
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
local basic = os.getenv("BASIC")
if basic and basic ~= "" then
  wrk.headers["Authorization"] = "Basic " .. basic
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

-- per-thread state (each wrk thread has its own Lua state)
bad = 0
codes = {}
sample = nil

function response(status, headers, body)
  if status < 200 or status > 299 then
    bad = bad + 1
    codes[status] = (codes[status] or 0) + 1
    if sample == nil then
      sample = status .. " " .. string.sub(body or "", 1, 300)
    end
  end
end

function done(summary, latency, requests)
  local secs = summary.duration / 1e6
  local e = summary.errors
  local nbad, all, first = 0, {}, nil
  for _, t in ipairs(threads) do
    nbad = nbad + (t:get("bad") or 0)
    local c = t:get("codes") or {}
    for k, v in pairs(c) do all[k] = (all[k] or 0) + v end
    first = first or t:get("sample")
  end
  io.write(string.format(
    "SUMMARY requests=%d secs=%.2f rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f " ..
    "non2xx=%d connect_err=%d read_err=%d write_err=%d timeout=%d\n",
    summary.requests, secs, summary.requests / secs,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    nbad, e.connect, e.read, e.write, e.timeout))
  for k, v in pairs(all) do
    io.write(string.format("NON2XX status=%s count=%d\n", tostring(k), v))
  end
  if first then
    io.write("NON2XX_SAMPLE " .. string.gsub(first, "[\r\n]", " ") .. "\n")
  end
end
