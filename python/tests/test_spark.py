"""gin_referee.spark: the per-batch Arrow work (needs pyarrow only), then
with_analysis on a local[2] Spark session (needs pyspark and Java)."""

from __future__ import annotations

import os
import shutil
import sys

import numpy as np
import pytest

import gin_referee as gr
from conftest import dense_hands, random_hands

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install './python[spark]')")


def hands_table(rng, count):
    """Random and dense hands of 10 and 11 cards as lists of canonical strings,
    some in other spellings; their masks."""
    rows = list(random_hands(rng, count // 2)) + list(dense_hands(rng, count // 4))
    rows += list(random_hands(rng, count - len(rows), size=11))
    hands = [[gr.CARDS[int(c)] for c in row] for row in rows]
    for hand in hands[::37]:
        hand[0] = hand[0].lower().replace("t", "10")
    for hand in hands[5::101]:
        hand[-1] = hand[-1][0] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[hand[-1][1]]
    return hands, np.array([sum(1 << int(c) for c in row) for row in rows], dtype=np.uint64)


def test_batches_are_analysed_like_min_deadwood_many(rng):
    from gin_referee import _arrow

    hands, masks = hands_table(rng, 2000)
    expected = gr.min_deadwood_many(masks)
    batch = pa.RecordBatch.from_arrays(
        [pa.array(range(len(hands))), pa.array(hands, type=pa.list_(pa.string()))], names=["id", "hand"]
    )
    out = _arrow.analyse(batch, "hand", 10)
    assert out.schema.names == ["id", "hand", "deadwood", "gin", "can_knock"]
    deadwood = out.column("deadwood").to_numpy()
    assert np.array_equal(deadwood, expected)
    assert np.array_equal(out.column("gin").to_numpy(zero_copy_only=False), expected == 0)
    assert np.array_equal(out.column("can_knock").to_numpy(zero_copy_only=False), expected <= 10)
    # A slice of the batch (offsets not starting at 0), large strings, nulls.
    sliced = _arrow.analyse(batch.slice(700, 300), "hand", 0)
    assert np.array_equal(sliced.column("deadwood").to_numpy(), expected[700:1000])
    assert np.array_equal(sliced.column("can_knock").to_numpy(zero_copy_only=False), expected[700:1000] == 0)
    large = pa.RecordBatch.from_arrays(
        [pa.array(hands[:50] + [None], type=pa.large_list(pa.large_string()))], names=["hand"]
    )
    out = _arrow.analyse(large, "hand", 10)
    assert np.array_equal(out.column("deadwood").to_numpy(zero_copy_only=False)[:50], expected[:50])
    assert out.column("deadwood")[50].as_py() is None and out.column("gin")[50].as_py() is None


def test_two_byte_spellings_take_the_table_and_agree(rng):
    """Every string two bytes long (either case): the ids come straight from
    Arrow's string data; sliced arrays and large strings too."""
    from gin_referee import _arrow

    rows = random_hands(rng, 3000)
    masks = np.array([sum(1 << int(c) for c in row) for row in rows], dtype=np.uint64)
    expected = gr.min_deadwood_many(masks)
    case = rng.integers(0, 4, size=rows.shape)
    spell = {0: str, 1: str.lower, 2: lambda c: c[0].lower() + c[1], 3: lambda c: c[0] + c[1].lower()}
    hands = [[spell[int(k)](gr.CARDS[int(c)]) for c, k in zip(row, ks)] for row, ks in zip(rows, case)]
    for kind in (pa.string(), pa.large_string()):
        array = pa.array(hands, type=pa.list_(kind))
        ids = _arrow.card_ids(array.values)
        assert np.array_equal(ids, rows.reshape(-1))
        assert np.array_equal(_arrow.analysis_arrays(array, 10)[0].to_numpy(), expected)
        sliced = array.slice(1234, 1000)
        assert np.array_equal(_arrow.analysis_arrays(sliced, 10)[0].to_numpy(), expected[1234:2234])
    # A spelling of another length ("7♠" is four bytes) sends the batch the
    # other way, with the same answers.
    card = gr.CARDS[int(rows[7][3])]
    hands[7][3] = card[0] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[1]]
    array = pa.array(hands, type=pa.list_(pa.string()))
    assert np.array_equal(_arrow.analysis_arrays(array, 10)[0].to_numpy(), expected)


def test_bad_hands_in_a_batch_raise_problems_naming_the_hand():
    from gin_referee import _arrow

    good = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]
    for hand, code in [
        (good[:9], "wrong_card_count"),
        (good[:9] + ["as"], "duplicate_card"),
        (good[:9] + ["AS"], "duplicate_card"),
        (good[:9] + ["1X"], "invalid_body"),
    ]:
        batch = pa.RecordBatch.from_arrays([pa.array([good, hand])], names=["hand"])
        with pytest.raises(gr.Problem) as caught:
            _arrow.analyse(batch, "hand", 10)
        assert caught.value.code == code
        if code == "wrong_card_count":
            assert "the hand AS 2S" in caught.value.detail


def skip(reason):
    """Skips where Spark cannot run; fails instead where it must (CI sets
    GIN_REFEREE_REQUIRE_SPARK), so that the Spark tests never pass unseen."""
    if os.environ.get("GIN_REFEREE_REQUIRE_SPARK"):
        pytest.fail(reason)
    pytest.skip(reason)


def spark_or_skip():
    try:
        import pyspark  # noqa: F401
    except ImportError as error:
        skip(f"pyspark is not importable ({error}); pip install './python[spark]'")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        skip("Java is not installed (no `java` on PATH, no JAVA_HOME); Spark needs Java 17")
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    return (
        SparkSession.builder.master("local[2]")
        .appName("gin-referee-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )


@pytest.fixture(scope="module")
def spark():
    session = spark_or_skip()
    yield session
    session.stop()


@pytest.mark.parametrize("path", ["arrow_udf", "mapInArrow"])
def test_with_analysis_on_local_spark(spark, rng, path, monkeypatch):
    from gin_referee import spark as gin_spark
    from gin_referee.spark import with_analysis
    from pyspark.sql import functions as F

    if path == "arrow_udf" and not hasattr(F, "arrow_udf"):
        pytest.skip("this pyspark has no arrow_udf (Spark 4.1+): with_analysis takes mapInArrow")
    monkeypatch.setattr(gin_spark, "_force_map_in_arrow", path == "mapInArrow")

    hands, masks = hands_table(rng, 10_000)
    expected = gr.min_deadwood_many(masks)
    df = spark.createDataFrame([(i, h) for i, h in enumerate(hands)], "id long, hand array<string>")
    df = df.repartition(4)
    analysed = with_analysis(df)
    assert analysed.columns == ["id", "hand", "deadwood", "gin", "can_knock"]
    rows = analysed.collect()
    assert len(rows) == len(hands)
    for row in rows:
        want = int(expected[row["id"]])
        assert (row["deadwood"], row["gin"], row["can_knock"]) == (want, want == 0, want <= 10), row
    straight = with_analysis(df, profile="straight").where("can_knock").count()
    assert straight == int((expected == 0).sum())


def test_with_analysis_refuses_on_the_driver(spark):
    from gin_referee.spark import with_analysis

    df = spark.createDataFrame([(["AS"],)], "hand array<string>")
    with pytest.raises(gr.Problem) as caught:
        with_analysis(df, profile="oklahoma")
    assert caught.value.code == "upcard_required"
    with pytest.raises(ValueError):
        with_analysis(df, hand="cards")
    # A bad hand fails the job with the module's problem.
    with pytest.raises(Exception) as failed:
        with_analysis(df).collect()
    assert "wrong_card_count" in str(failed.value)
