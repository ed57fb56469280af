"""The JVM path's plumbing: the jar (reproducible, current, loaded by the session) and the choice of path."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from streamcodecs_gen import jar
from streamcodecs_gen.java_sources import java_sources
from streamcodecs_gen.pipeline import load_protocols
from streamcodecs_gen.render import Options

REPO = Path(__file__).resolve().parent.parent
COMMITTED = REPO / "output" / "py" / "streamcodecs" / "spark" / jar.JAR_NAME


def _sources() -> list:
    definitions = REPO / "protocol-definitions"
    return java_sources(load_protocols(definitions, REPO), Options())


def test_the_committed_jar_was_built_from_the_current_java_sources() -> None:
    assert jar.jar_fingerprint(COMMITTED.read_bytes()) == jar.fingerprint(_sources())


@pytest.mark.skipif(shutil.which("javac") is None, reason="needs javac (a JDK) to rebuild the jar")
def test_the_jar_rebuilt_from_the_sources_is_the_committed_one_byte_for_byte() -> None:
    sources = _sources()
    assert jar.build(sources, jar.fingerprint(sources)) == COMMITTED.read_bytes()


def _generate_with_path(out: Path, *path: Path) -> subprocess.CompletedProcess[str]:
    """The generator run into ``out`` with only ``path`` and python's own directory on PATH, and no JAVA_HOME."""
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = os.pathsep.join([*map(str, path), str(Path(sys.executable).parent)])
    return subprocess.run(
        [sys.executable, str(REPO / "generator.py"), "-q", "-r", str(out)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_without_javac_a_stale_jar_is_one_line_and_exit_2(tmp_path: Path) -> None:
    result = _generate_with_path(tmp_path / "out")  # python, but no javac
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "javac 17" in result.stderr
    assert not (tmp_path / "out").exists()


def test_a_javac_of_another_version_is_refused_as_a_missing_one_is(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "javac"
    fake.write_text("#!/bin/sh\necho javac 21.0.2\nexit 0\n", encoding="utf-8")
    fake.chmod(0o755)
    result = _generate_with_path(tmp_path / "out", bin_dir)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "javac 17" in result.stderr and "is javac 21.0.2" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.spark
def test_the_session_loads_the_packaged_jar_and_uses_the_jvm(spark) -> None:
    from streamcodecs.spark import _jvm

    assert _jvm.available(spark)


@pytest.mark.spark
def test_configure_keeps_the_jars_already_set() -> None:
    from pyspark.sql import SparkSession
    from streamcodecs.spark import configure
    from streamcodecs.spark._jvm import JAR

    builder = configure(SparkSession.Builder().config("spark.jars", "a.jar"))
    assert builder._options["spark.jars"] == f"a.jar,{JAR}"
    assert configure(builder)._options["spark.jars"] == f"a.jar,{JAR}"  # once only


@pytest.mark.spark
def test_configure_with_sql_adds_the_extension_after_those_set() -> None:
    from pyspark.sql import SparkSession
    from streamcodecs.spark import SQL_EXTENSIONS, configure

    assert "spark.sql.extensions" not in configure(SparkSession.Builder())._options  # opt-in
    builder = configure(SparkSession.Builder().config("spark.sql.extensions", "a.Ext"), sql=True)
    assert builder._options["spark.sql.extensions"] == f"a.Ext,{SQL_EXTENSIONS}"
    assert configure(builder, sql=True)._options["spark.sql.extensions"] == f"a.Ext,{SQL_EXTENSIONS}"


@pytest.mark.spark
def test_path_says_which_path_runs_and_why(spark) -> None:
    from streamcodecs.spark import _jvm, path

    assert str(path(spark)) == "JVM path: the session loaded this package's streamcodecs-spark.jar"
    spark.conf.set(_jvm.CONF, "false")
    try:
        assert str(path(spark)) == 'Python path: spark.streamcodecs.jvm is "false" in this session'
    finally:
        spark.conf.set(_jvm.CONF, "true")


@pytest.mark.spark
def test_the_python_path_on_request_gives_no_warning(spark) -> None:
    from streamcodecs.spark import _jvm

    spark.conf.set(_jvm.CONF, "false")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert not _jvm.available(spark)
            assert _jvm.java_udf("kcl", "Decode", None) is None  # type: ignore[arg-type]
    finally:
        spark.conf.set(_jvm.CONF, "true")
    assert _jvm.available(spark)
