-- Load script for wrk (scripts/bench/load.ts). Requests the paths of the
-- file named by the first argument in order (wrapping round), tallies status
-- codes (a 503 without Retry-After apart) and the page cache's X-Page-Cache answers, and prints one JSON line
-- when done.
local paths = {}
local n = 0
counts = {}
cache = {}
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
end

function request()
  n = n + 1
  return wrk.format("GET", paths[((n - 1) % #paths) + 1])
end

function response(status, headers, body)
  local key = status
  -- A 503 must say when to come back (server/render-gate.ts): one without Retry-After is counted apart.
  if status == 503 and not (headers["Retry-After"] or headers["retry-after"]) then key = "503 without Retry-After" end
  counts[key] = (counts[key] or 0) + 1
  local state = headers["X-Page-Cache"] or headers["x-page-cache"] or "none"
  cache[state] = (cache[state] or 0) + 1
end

local function merge(into, from)
  for k, v in pairs(from) do into[tostring(k)] = (into[tostring(k)] or 0) + v end
end

local function object(t)
  local parts = {}
  for k, v in pairs(t) do parts[#parts + 1] = string.format("%q:%d", k, v) end
  return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency, requests)
  local allCounts, allCache = {}, {}
  for _, thread in ipairs(threads) do
    merge(allCounts, thread:get("counts"))
    merge(allCache, thread:get("cache"))
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"errors":%d,"p50Us":%d,"p99Us":%d,"statusCodes":%s,"pageCache":%s}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), object(allCounts), object(allCache)))
end
