"""Every Python example of the README and of docs/PYTHON.md runs as written
(the Spark one where Spark can run; see test_spark.py)."""

from __future__ import annotations

import pathlib
import re

import pytest

from test_spark import spark_or_skip

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "docs" / "PYTHON.md"]


def examples():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for number, block in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
            yield pytest.param(block, id=f"{page.name}-{number}")


def test_the_pages_have_examples():
    assert len(list(examples())) >= 3


@pytest.mark.parametrize("code", list(examples()))
def test_example_runs(code):
    if "pyspark" in code:
        spark_or_skip()
    exec(compile(code, "<example>", "exec"), {})
