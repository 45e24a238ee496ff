-- wrk: POST /analyze with one of the benchmark's boards (BOARD and VARIANT in the environment, as in
-- ceiling_app.py's REQUESTS)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"board":"' .. (os.getenv("BOARD") or "X...O....") .. '","variant":"' .. (os.getenv("VARIANT") or "normal") .. '"}'
