-- wrk script: POST /v1/hands/state mid-hand (the OpenAPI example `discard`:
-- the non-dealer has drawn and may discard or knock; its seat's view, with
-- OpenSpiel ids), for the one-worker throughput figure in BENCHMARKS.md.
wrk.method = "POST"
wrk.path = "/v1/hands/state"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"actions":[{"action":"pass","player":"non_dealer"},{"action":"pass","player":"dealer"},{"action":"draw","card":"2H","from":"stock","player":"non_dealer"}],"deal":{"dealer":["7S","8S","TS","JD","QH","KH","3C","4C","7H","4S"],"non_dealer":["AS","2S","3S","4H","5H","6H","9C","9D","9H","KC"],"stock":["2H","5S","6S","9S","JS","QS","KS","AH","3H","8H","TH","JH","AD","2D","3D","4D","5D","6D","7D","8D","TD","QD","KD","AC","5C","6C","7C","8C","TC","JC","QC"],"upcard":"2C"},"openspiel":true,"seat":"non_dealer"}'

-- Count non-200 answers: the figure is only fair if every one is a 200.
not_ok = 0
function response(status, headers, body)
   if status ~= 200 then not_ok = not_ok + 1 end
end
