"""Benchmarks of the Python module, in one run:

1. ``min_deadwood_many`` over 1,000,000 random 10-card masks (and 11-card
   masks), best of several runs, one thread;
2. OpenSpiel's ``GinRummyUtils.min_deadwood`` in a Python loop over a sample
   of the same hands, scaled to a million (``pip install open_spiel``);
3. the HTTP batch endpoint (``POST /v1/hands/analyze/batch``, NDJSON) of a
   running service over the same million hands (``--service URL``; start a
   release build with ``--workers 1`` to compare one core with one core);
4. ``analyze_hand`` calls per second from Python;
5. Spark ``local[2]``: ``with_analysis`` over 1,000,000 hands against a
   row-at-a-time Python UDF doing the same with the module.

    target/python-venv/bin/python scripts/python/bench.py [--skip-spark] [--spark-rows N]
        [--service http://127.0.0.1:8080]

Run with the module installed from a release build (``pip install ./python``;
``maturin develop`` without ``--release`` measures a debug build).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np

import gin_referee as gr


def random_ids(rng: np.random.Generator, count: int, size: int) -> np.ndarray:
    out = np.empty((count, size), dtype=np.int64)
    for start in range(0, count, 100_000):
        stop = min(count, start + 100_000)
        out[start:stop] = np.argsort(rng.random((stop - start, 52)), axis=1)[:, :size]
    return out


def masks_of(ids: np.ndarray) -> np.ndarray:
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), ids.astype(np.uint64)), axis=1)


def best_of(runs: int, call) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def bench_vectorised(rng: np.random.Generator) -> np.ndarray:
    ids = random_ids(rng, 1_000_000, 10)
    masks = masks_of(ids)
    seconds = best_of(9, lambda: gr.min_deadwood_many(masks))
    print(f"min_deadwood_many, 1,000,000 random 10-card masks: {seconds * 1e3:.1f} ms "
          f"(best of 9; {seconds * 1e9 / len(masks):.1f} ns a hand)")
    eleven = masks_of(random_ids(rng, 1_000_000, 11))
    seconds = best_of(5, lambda: gr.min_deadwood_many(eleven))
    print(f"min_deadwood_many, 1,000,000 random 11-card masks: {seconds * 1e3:.1f} ms (best of 5)")
    copy = best_of(9, lambda: masks.copy())
    print(f"  (a copy of the 1,000,000-mask input alone: {copy * 1e3:.2f} ms)")
    return ids


def bench_openspiel(ids: np.ndarray) -> None:
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel: not installed (pip install open_spiel), skipped")
        return
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    sample = [list(map(int, row)) for row in ids[:20_000]]
    start = time.perf_counter()
    theirs = [utils.min_deadwood(hand) for hand in sample]
    seconds = time.perf_counter() - start
    ours = gr.min_deadwood_many(masks_of(ids[:20_000]))
    agree = bool(np.array_equal(np.array(theirs), ours))
    print(f"OpenSpiel GinRummyUtils.min_deadwood, Python loop: {len(sample):,} hands in "
          f"{seconds:.2f} s = {seconds / len(sample) * 1e6:.1f} us a hand, "
          f"{seconds / len(sample) * 1e6:.1f} s per million (scaled); answers agree: {agree}")


def bench_analyze() -> None:
    body = {"hand": ["7S", "7H", "7D", "7C", "8H", "9H", "KS", "QD", "2C", "3D"]}
    count = 20_000
    seconds = best_of(3, lambda: [gr.analyze_hand(body) for _ in range(count)])
    print(f"analyze_hand from Python: {count / seconds:,.0f} calls/s (dict in, dict out)")


def bench_spark(rng: np.random.Generator, rows: int) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
        from pyspark.sql import SparkSession
        from pyspark.sql import functions as F
        from pyspark.sql.types import IntegerType
    except ImportError as error:
        print(f"Spark: skipped ({error})")
        return
    from gin_referee.spark import with_analysis

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    ids = random_ids(rng, rows, 10)
    cards = np.array(gr.CARDS, dtype=object)[ids]
    hands = pa.array(cards.tolist(), type=pa.list_(pa.string()))
    expected = int(gr.min_deadwood_many(masks_of(ids)).astype(np.int64).sum())
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "hands.parquet")
        pq.write_table(pa.table({"id": pa.array(np.arange(rows)), "hand": hands}), path)
        spark = (
            SparkSession.builder.master("local[2]")
            .appName("gin-referee-bench")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.memory", "4g")
            # The baseline is the classic row-at-a-time UDF, not Spark's
            # Arrow-batched Python UDFs.
            .config("spark.sql.execution.pythonUDF.arrow.enabled", "false")
            .getOrCreate()
        )
        try:
            df = spark.read.parquet(path).repartition(2).cache()
            df.count()

            @F.udf(returnType=IntegerType())
            def deadwood_udf(hand):
                import gin_referee
                import numpy

                mask = numpy.array([gin_referee.card_mask(hand)], dtype=numpy.uint64)
                return int(gin_referee.min_deadwood_many(mask)[0])

            def run_batches():
                out = with_analysis(df).agg(
                    F.sum("deadwood"), F.sum(F.col("gin").cast("int")), F.sum(F.col("can_knock").cast("int"))
                )
                return out.collect()[0]

            def run_rows():
                analysed = (
                    df.withColumn("deadwood", deadwood_udf("hand"))
                    .withColumn("gin", F.col("deadwood") == 0)
                    .withColumn("can_knock", F.col("deadwood") <= 10)
                )
                out = analysed.agg(
                    F.sum("deadwood"), F.sum(F.col("gin").cast("int")), F.sum(F.col("can_knock").cast("int"))
                )
                return out.collect()[0]

            from gin_referee import spark as gin_spark

            first = run_batches()
            assert int(first[0]) == expected, (first, expected)
            path = "arrow_udf" if hasattr(F, "arrow_udf") else "mapInArrow"
            batches = best_of(5, run_batches)
            print(f"Spark local[2], with_analysis ({path}), {rows:,} hands: {batches:.2f} s "
                  f"(best of 5, after a warm-up run; sum of deadwood checked)")
            if path == "arrow_udf":
                gin_spark._force_map_in_arrow = True
                try:
                    assert tuple(run_batches()) == tuple(first)
                    mapped = best_of(5, run_batches)
                finally:
                    gin_spark._force_map_in_arrow = False
                print(f"Spark local[2], with_analysis (mapInArrow, Spark before 4.1), {rows:,} hands: "
                      f"{mapped:.2f} s (best of 5)")
            spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "50000")
            larger = best_of(5, run_batches)
            spark.conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")
            print(f"Spark local[2], with_analysis ({path}), Arrow batches of 50,000 rows "
                  f"(default 10,000): {larger:.2f} s (best of 5)")
            again = run_rows()
            assert tuple(again) == tuple(first), (again, first)
            per_row = best_of(3, run_rows)
            print(f"Spark local[2], row-at-a-time Python UDF with the module, {rows:,} hands: "
                  f"{per_row:.2f} s (best of 3): with_analysis is {per_row / batches:.1f}x faster")
        finally:
            spark.stop()


def bench_http_batch(ids: np.ndarray, service: str) -> None:
    """The same hands as NDJSON lines to the analyse batch endpoint, answers
    read as they stream (http.client sends the whole body first, as most
    clients do; the service spools what is not read yet)."""
    import http.client
    import urllib.parse

    cards = gr.CARDS
    body = "".join(
        '{"hand":[' + ",".join(f'"{cards[i]}"' for i in row) + "]}\n" for row in ids.tolist()
    ).encode()
    url = urllib.parse.urlsplit(service)
    best = float("inf")
    for _ in range(3):
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=600)
        start = time.perf_counter()
        conn.request("POST", "/v1/hands/analyze/batch", body=body,
                     headers={"content-type": "application/x-ndjson"})
        response = conn.getresponse()
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: response.read(1 << 20), b""))
        best = min(best, time.perf_counter() - start)
        conn.close()
        assert lines == len(ids), (lines, len(ids))
    print(f"HTTP batch (analyze, NDJSON, {len(body) / 1e6:.0f} MB), {len(ids):,} hands: "
          f"{best:.2f} s (best of 3; {best * 1e9 / len(ids):.0f} ns a hand)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-spark", action="store_true")
    parser.add_argument("--spark-rows", type=int, default=1_000_000)
    parser.add_argument("--service", help="base URL of a running gin-referee for the HTTP batch")
    args = parser.parse_args()
    rng = np.random.default_rng(20261126)
    ids = bench_vectorised(rng)
    bench_openspiel(ids)
    if args.service:
        bench_http_batch(ids, args.service)
    bench_analyze()
    if not args.skip_spark:
        bench_spark(rng, args.spark_rows)


if __name__ == "__main__":
    main()
