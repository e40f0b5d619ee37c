-- wrk script: POST /v1/region-refresh, cycling through the anchor kit's query points
-- (queries.csv: qid,lon,lat,pref_network), each asking for the query's preferred chain.
-- QUERIES=/path/to/queries.csv overrides the default location. ACCESS_TOKENS=/path/to/tokens (one per line) sends
-- them in turn as the app's access token, as phones of that many users would (a server run with --client-jwt).
local path = os.getenv("QUERIES") or "/tmp/geo-anchors/data/queries.csv"
local requests = {}
local counter = 0

function init(args)
  local tokens = {}
  local tokens_path = os.getenv("ACCESS_TOKENS")
  if tokens_path then
    for token in assert(io.open(tokens_path, "r"), "cannot open " .. tokens_path):lines() do tokens[#tokens + 1] = token end
  end
  local file = assert(io.open(path, "r"), "cannot open " .. path)
  file:read("*l") -- header
  for line in file:lines() do
    local _, lon, lat, network = line:match("^([^,]*),([^,]*),([^,]*),([^,]*)")
    if lon then
      local headers = { ["Content-Type"] = "application/json" }
      if #tokens > 0 then headers["Authorization"] = "Bearer " .. tokens[(#requests % #tokens) + 1] end
      local body = string.format('{"lat": %s, "lon": %s, "user_networks": ["%s"], "max_regions": 20}', lat, lon, network)
      requests[#requests + 1] = wrk.format("POST", "/v1/region-refresh", headers, body)
    end
  end
  file:close()
  assert(#requests > 0, "no queries in " .. path)
  -- Threads start at different offsets so that they do not ask the same point at once.
  counter = (tonumber(args[1]) or 0) + math.random(#requests)
end

function request()
  counter = counter + 1
  return requests[(counter % #requests) + 1]
end

-- PACE_MS=n makes each connection wait n ms before each request: a paced load (scripts/soak.sh) instead of as many
-- requests as the server answers.
local pace = tonumber(os.getenv("PACE_MS") or "")
if pace then
  function delay()
    return pace
  end
end
