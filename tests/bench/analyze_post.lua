-- wrk: POST /analyze with the benchmark's board (BOARD in the environment, as in ceiling_app.py)
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"board":"' .. (os.getenv("BOARD") or "X...O....") .. '"}'
