-- wrk script for scripts/load.sh: sends requests drawn at random from a pool
-- file (written by requests.py: METHOD, PATH, EXPECTED STATUS, CONTENT TYPE,
-- BODY, tab-separated), counts what each expected status was sent and what
-- came back, and prints one `LOAD key value` line per figure for the script.
--
--   wrk -s mix.lua URL -- POOL.tsv

local pool = {}
-- Globals, not locals: done() reads them from each thread with thread:get.
sent = {}
got = {}
local threads = {}

function setup(thread)
   thread:set("id", #threads + 1)
   table.insert(threads, thread)
end

function init(args)
   for line in io.lines(args[1]) do
      local method, path, expect, ctype, body =
         line:match("^(%u+)\t([^\t]+)\t(%d+)\t([^\t]*)\t(.*)$")
      local headers = {}
      if ctype ~= "" then headers["Content-Type"] = ctype end
      if body == "" then body = nil end
      table.insert(pool, { wrk.format(method, path, headers, body), expect })
   end
   math.randomseed(os.time() * 100 + id)
end

function request()
   local entry = pool[math.random(#pool)]
   sent[entry[2]] = (sent[entry[2]] or 0) + 1
   return entry[1]
end

function response(status, headers, body)
   local key = tostring(status)
   got[key] = (got[key] or 0) + 1
end

function done(summary, latency, requests)
   local sent_total, got_total = {}, {}
   for _, thread in ipairs(threads) do
      for status, n in pairs(thread:get("sent")) do
         sent_total[status] = (sent_total[status] or 0) + n
      end
      for status, n in pairs(thread:get("got")) do
         got_total[status] = (got_total[status] or 0) + n
      end
   end
   local seconds = summary.duration / 1e6
   local e = summary.errors
   io.write(string.format("LOAD requests %d\n", summary.requests))
   io.write(string.format("LOAD seconds %.2f\n", seconds))
   io.write(string.format("LOAD rps %.0f\n", summary.requests / seconds))
   for _, p in ipairs({ 50, 90, 99, 99.9 }) do
      io.write(string.format("LOAD p%s_ms %.3f\n", tostring(p), latency:percentile(p) / 1000))
   end
   io.write(string.format("LOAD max_ms %.3f\n", latency.max / 1000))
   io.write(string.format("LOAD socket_errors %d\n", e.connect + e.read + e.write + e.timeout))
   io.write(string.format("LOAD errors_detail connect=%d,read=%d,write=%d,timeout=%d\n",
                          e.connect, e.read, e.write, e.timeout))
   local statuses = {}
   for status, _ in pairs(sent_total) do statuses[status] = true end
   for status, _ in pairs(got_total) do statuses[status] = true end
   local server_errors = 0
   for status, _ in pairs(statuses) do
      local s, g = sent_total[status] or 0, got_total[status] or 0
      io.write(string.format("LOAD status_%s sent=%d got=%d\n", status, s, g))
      if tonumber(status) >= 500 then server_errors = server_errors + g end
   end
   io.write(string.format("LOAD server_errors %d\n", server_errors))
end
