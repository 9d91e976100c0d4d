-- wrk script for scripts/hotpath.sh: POST /v1/hands/analyze with one 10-card
-- hand (the OpenAPI example: a four-card set whose 7 of hearts also fits a
-- run, so the solver has choices to make).
wrk.method = "POST"
wrk.path = "/v1/hands/analyze"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]}'

-- Count non-200 answers: the comparison is only fair if every one is a 200.
not_ok = 0
function response(status, headers, body)
   if status ~= 200 then not_ok = not_ok + 1 end
end
