"""Gin Rummy analysis of a Spark DataFrame of hands, on the executors.

``with_analysis(df)`` adds ``deadwood``, ``gin`` and ``can_knock`` to a
DataFrame whose hand column is ``array<string>``. The work runs in the
executors' Python workers over Arrow batches: each batch's card strings
become OpenSpiel masks with vectorised Arrow and NumPy operations, and the
masks are solved by :func:`gin_referee.min_deadwood_many` in one call per
batch, without a Python call per row.

On Spark 4.1 and later the batches are those of an Arrow UDF (``arrow_udf``)
over the hand column alone, so the other columns never leave the JVM; on
older Spark, ``mapInArrow`` over whole rows (a million hands on ``local[2]``:
about 2.3 s with ``mapInArrow``, see ``scripts/python/bench.py`` for the
Arrow UDF's figure).

Needs the ``spark`` extra (pyspark, pyarrow, pandas) and ``gin_referee``
installed where the executors' Python runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from . import knock_limit

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa
    from pyspark.sql import DataFrame

__all__ = ["with_analysis"]


def with_analysis(
    df: "DataFrame",
    hand: str = "hand",
    profile: str = "standard",
    upcard: Optional[str] = None,
) -> "DataFrame":
    """``df`` with three columns added, from its ``array<string>`` column ``hand``:

    * ``deadwood`` (int): the least deadwood of the hand; for 11 cards (right
      after the draw), of the ten left by the best discard, as the service's
      ``analyze_hand`` counts it.
    * ``gin`` (bool): that deadwood is 0.
    * ``can_knock`` (bool): that deadwood is within the knock limit of
      ``profile`` (10 for ``standard``), as the service's ``can_knock``.

    A null hand gives nulls. ``profile`` is a preset name; a preset whose
    knock limit is the upcard's value (``oklahoma``) needs ``upcard``, the
    first upcard for every row. Cards may be written in every spelling the
    service reads (``"TS"``, ``"10s"``, ``"10♠"``).

    Raises:
        Problem: at once, on the driver, for an unknown profile or a missing
            upcard (``unknown_profile``, ``upcard_required``); when the job
            runs, for a hand with a card that cannot be read, a card twice or
            neither 10 nor 11 cards (``invalid_body``, ``duplicate_card``,
            ``wrong_card_count``), naming the hand.
        ValueError: ``hand`` is not a column, or the DataFrame already has
            one of the added columns.
    """
    from pyspark.sql.types import BooleanType, IntegerType, StructField, StructType

    limit = knock_limit(profile, upcard)
    if hand not in df.columns:
        raise ValueError(f"the DataFrame has no column {hand!r}")
    added = ("deadwood", "gin", "can_knock")
    clash = [name for name in added if name in df.columns]
    if clash:
        raise ValueError(f"the DataFrame already has the column(s) {', '.join(clash)}")
    from pyspark.sql import functions as F

    arrow_udf = getattr(F, "arrow_udf", None)
    if arrow_udf is not None and not _force_map_in_arrow:
        struct = "deadwood int, gin boolean, can_knock boolean"

        def analyse_hands(hands):  # type: ignore[no-untyped-def]
            from gin_referee import _arrow

            return _arrow.analysis_struct(hands, limit, profile)

        udf = arrow_udf(analyse_hands, struct, F.ArrowUDFType.SCALAR)
        column = "__gin_referee_analysis"
        analysed = df.withColumn(column, udf(F.col(f"`{hand}`")))
        return analysed.select(
            *[F.col(f"`{name}`") for name in df.columns],
            *[F.col(f"{column}.{name}").alias(name) for name in added],
        )

    schema = StructType(
        list(df.schema.fields)
        + [
            StructField("deadwood", IntegerType(), True),
            StructField("gin", BooleanType(), True),
            StructField("can_knock", BooleanType(), True),
        ]
    )

    def analyse(batches: "Iterator[pa.RecordBatch]") -> "Iterator[pa.RecordBatch]":
        from gin_referee import _arrow

        for batch in batches:
            yield _arrow.analyse(batch, hand, limit, profile)

    return df.mapInArrow(analyse, schema)


#: Use ``mapInArrow`` even where ``arrow_udf`` exists (tests and benchmarks
#: of the older path).
_force_map_in_arrow = False
