-- tokentrace.lua: a wrk script that records what tokentrace needs, one row per response.
--
--   TOKENTRACE_WRK_OUT=wrk_requests.csv wrk -t2 -c8 -d30s -s scripts/wrk/tokentrace.lua \
--       http://127.0.0.1:8000
--   ./tokentrace clients --db run.duckdb --format wrk wrk_requests.csv
--
-- Every request is an OpenAI-compatible streaming completion with its own X-Request-Id
-- (<prefix><thread>-<n>), which vLLM and SGLang log, so the rows join the engine's records by ID.
-- The server must echo X-Request-Id in its response (vLLM: --enable-request-id-headers; the
-- simulator does): wrk's response() callback does not say which request it answers, the header
-- does. A response without it is counted in the summary, never guessed.
--
-- Rows: request_id,start_us,end_us,status,bytes (epoch microseconds, from gettimeofday through
-- LuaJIT's FFI): start when wrk asks for the request, end when the whole response has arrived.
-- wrk cannot see the first token, so tokentrace attributes these rows by the end-to-end view
-- (docs/formats/gateways.md#wrk).
--
-- Environment: TOKENTRACE_WRK_OUT (file, appended; default wrk_requests.csv), TOKENTRACE_WRK_PREFIX
-- (ID prefix; default wrk-<epoch s>-), TOKENTRACE_WRK_PATH (default /v1/completions),
-- TOKENTRACE_WRK_MODEL, TOKENTRACE_WRK_PROMPT_WORDS (default 100), TOKENTRACE_WRK_MAX_TOKENS
-- (default 32).

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_usec; } tokentrace_timeval;
  int gettimeofday(tokentrace_timeval *tv, void *tz);
]]
local tv = ffi.new("tokentrace_timeval")

local function now_us()
  ffi.C.gettimeofday(tv, nil)
  return tonumber(tv.tv_sec) * 1000000 + tonumber(tv.tv_usec)
end

local out_path = os.getenv("TOKENTRACE_WRK_OUT") or "wrk_requests.csv"
local prefix = os.getenv("TOKENTRACE_WRK_PREFIX") or ("wrk-" .. os.time() .. "-")
local path = os.getenv("TOKENTRACE_WRK_PATH") or "/v1/completions"
local model = os.getenv("TOKENTRACE_WRK_MODEL") or "tokentrace-sim"
local words = tonumber(os.getenv("TOKENTRACE_WRK_PROMPT_WORDS") or "100")
local max_tokens = tonumber(os.getenv("TOKENTRACE_WRK_MAX_TOKENS") or "32")
local header = "request_id,start_us,end_us,status,bytes"

local threads = {}
local counter = 1

-- main state, before the threads start: number them and write the header once
function setup(thread)
  thread:set("id", counter)
  table.insert(threads, thread)
  if counter == 1 then
    local f = io.open(out_path, "a")
    f:write(header, "\n")
    f:close()
  end
  counter = counter + 1
end

local body
local started = {}
local sent = 0
local written = 0
unmatched = 0 -- global: done() reads it from each thread
local file

function init(args)
  local prompt = string.rep("hello ", words)
  body = '{"model":"' .. model .. '","prompt":"' .. prompt .. '","max_tokens":' .. max_tokens
      .. ',"stream":true,"ignore_eos":true}'
  file = io.open(out_path, "a")
  file:setvbuf("line") -- one write(2) per row: threads append whole lines (O_APPEND)
end

function request()
  sent = sent + 1
  local rid = prefix .. id .. "-" .. sent
  started[rid] = now_us()
  return wrk.format("POST", path,
    { ["Content-Type"] = "application/json", ["X-Request-Id"] = rid }, body)
end

function response(status, headers, body)
  local done = now_us()
  local rid = nil
  for name, value in pairs(headers) do
    if string.lower(name) == "x-request-id" then
      rid = value
    end
  end
  local start = rid and started[rid]
  if not start then
    unmatched = unmatched + 1
    return
  end
  started[rid] = nil
  file:write(rid, ",", string.format("%d", start), ",", string.format("%d", done), ",", status,
    ",", #body, "\n")
  written = written + 1
end

function done(summary, latency, requests)
  local missing = 0
  for _, thread in ipairs(threads) do
    missing = missing + (thread:get("unmatched") or 0)
  end
  io.stderr:write(string.format(
    "tokentrace.lua: rows appended to %s; responses without X-Request-Id: %d\n",
    out_path, missing))
end
