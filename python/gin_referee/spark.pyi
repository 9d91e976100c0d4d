from typing import Optional

from pyspark.sql import DataFrame

def with_analysis(
    df: DataFrame, hand: str = "hand", profile: str = "standard", upcard: Optional[str] = None
) -> DataFrame:
    """df with deadwood (int), gin and can_knock (bool) added from its
    array<string> column `hand`, computed on the executors over Arrow batches."""
