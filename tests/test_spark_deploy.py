"""The Spark functions where users run them, compared with the local session: on a cluster whose executors are
separate JVMs (``local-cluster[2,1,1024]``) and over Spark Connect, on both paths, and their SQL functions.

One driver process serves the whole run (``spark_deploy.py server``: the cluster, and Spark Connect in the same
JVM), and one Connect client process runs the same cases through it (``spark_deploy.py connect``); each runs every
case of ``spark_deploy.CASES`` on the JVM path and on the Python fallback and ``SQL_CASES`` once, and the tests here
compare each result with the local session's. On the cluster the executors' Python imports the pip-installed
package (the venv's, no ``PYTHONPATH``); over Connect it is shipped as a zip with ``addArtifacts(..., pyfile=True)``.
"""

from __future__ import annotations

import os
import pickle
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import spark_deploy
from spark_checks import GENERATED

pytestmark = pytest.mark.spark

SCRIPT = Path(spark_deploy.__file__)
STARTUP = 900
"""Seconds the cluster may take to start and run every case (about 100 on this project's machines)."""


def _environment() -> dict[str, str]:
    """This environment without ``PYTHONPATH``: the processes import the package as a user's do, installed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYSPARK_PYTHON"] = sys.executable
    return env


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tail(path: Path) -> str:
    lines = [line for line in path.read_text(errors="replace").splitlines() if not line.startswith("\tat ")]
    return "\n".join(lines[-40:])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The cluster's results, and the port of its Spark Connect server (which runs until the end of the run)."""
    directory = tmp_path_factory.mktemp("cluster")
    out, log, port = directory / "results.pickle", directory / "server.log", _port()
    with log.open("wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, str(SCRIPT), "server", str(out), str(port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=_environment(),
            text=True,
        )
    try:
        assert process.stdout is not None
        ready = process.stdout.readline()  # READY, or nothing when it died
        if ready.strip() != "READY":
            process.wait(timeout=STARTUP)
            pytest.fail(f"the cluster driver exited ({process.returncode}):\n{_tail(log)}", pytrace=False)
        yield {**pickle.loads(out.read_bytes()), "port": port}
    finally:
        if process.stdin is not None:
            process.stdin.close()  # the driver stops
        try:
            process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def connect(server: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The results of a Spark Connect client of the cluster's driver."""
    directory = tmp_path_factory.mktemp("connect")
    out, log = directory / "results.pickle", directory / "client.log"
    with log.open("wb") as stderr:
        done = subprocess.run(
            [sys.executable, str(SCRIPT), "connect", str(out), str(server["port"])],
            stdout=stderr,
            stderr=stderr,
            env=_environment(),
            timeout=STARTUP,
            check=False,
        )
    if done.returncode != 0:
        pytest.fail(f"the Spark Connect client exited ({done.returncode}):\n{_tail(log)}", pytrace=False)
    return pickle.loads(out.read_bytes())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def local(spark: Any) -> dict[str, Any]:
    """The same cases in the test's local session (local[2], one JVM)."""
    return {**{path: spark_deploy.run(spark, path) for path in spark_deploy.PATHS}, "sql": spark_deploy.run_sql(spark)}


CASES = [(path, name) for path in spark_deploy.PATHS for name in spark_deploy.CASES]


def _expected(local: dict[str, Any], path: str, name: str) -> tuple[str, Any]:
    """The local result, which must be rows (at least one) or, for a case named after a failure, a failure."""
    kind, value = local[path][name]
    assert kind == ("failed" if "FAILFAST" in name or "fail_on_error" in name else "rows"), value
    assert value, name
    return kind, value


def test_the_cluster_has_two_executor_jvms_that_load_the_jar(server: dict[str, Any]) -> None:
    assert server["executors"] == 2
    assert server["path"].startswith("JVM path: "), server["path"]  # the jar's Probe answered from an executor


def test_on_the_cluster_the_executors_import_the_installed_package(server: dict[str, Any]) -> None:
    assert server["origin"] == [str(GENERATED)]


def test_over_connect_the_executors_import_the_zip_the_client_shipped(connect: dict[str, Any]) -> None:
    assert connect["path"].startswith("JVM path: "), connect["path"]
    assert [Path(o).name for o in connect["origin"]] == [spark_deploy.SHIPPED], connect["origin"]


@pytest.mark.parametrize(("path", "name"), CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_on_a_cluster_as_in_local_mode(server: dict[str, Any], local: dict[str, Any], path: str, name: str) -> None:
    assert server[path][name] == _expected(local, path, name)


@pytest.mark.parametrize(("path", "name"), CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_over_spark_connect_as_in_local_mode(
    connect: dict[str, Any], local: dict[str, Any], path: str, name: str
) -> None:
    assert connect[path][name] == _expected(local, path, name)


@pytest.mark.parametrize("name", list(spark_deploy.SQL_CASES))
def test_sql_gives_the_python_functions_rows(spark: Any, local: dict[str, Any], name: str) -> None:
    """In the local session, the SQL query gives what its Python functions give (on the JVM path; the SQL functions
    are the same Java UDFs)."""
    _, python = spark_deploy.SQL_CASES[name]
    assert local["sql"][name] == spark_deploy.result(python, spark)
    assert local["sql"][name][1]


@pytest.mark.parametrize("name", list(spark_deploy.SQL_CASES))
def test_sql_on_a_cluster_and_over_connect_as_in_local_mode(
    server: dict[str, Any], connect: dict[str, Any], local: dict[str, Any], name: str
) -> None:
    assert server["sql"][name] == local["sql"][name]
    assert connect["sql"][name] == local["sql"][name]
