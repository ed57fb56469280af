"""Build the jar of the Java target, reproducibly, with what PySpark already needs.

``javac`` of Java 17 compiles the Java target's sources against Spark's own jars (the installed ``pyspark/jars``,
Jackson included) and nothing else, with ``-Xlint:all -Werror``; no other version (another compiler writes other
class files).  The jar is written by this module, not by the
``jar`` tool, so its bytes depend on the class files only: entries in sorted order, one fixed date, a fixed
manifest.  It carries a fingerprint of what it was built from (the sources, the Java release, the Spark version);
when the jar already in the output has the same fingerprint it is kept as it is, so ``--check`` and every
regeneration that changes no Java source need no JDK, and the committed jar is proven current by its fingerprint.
A test rebuilds it from the sources and compares the bytes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path, PurePosixPath

from .render import OutputFile

JAVA_RELEASE = "17"
JAR_NAME = "streamcodecs-spark.jar"
FINGERPRINT_ENTRY = "META-INF/streamcodecs/fingerprint"
SPARK_VERSION_ENTRY = "META-INF/streamcodecs/spark-version"
"""The Spark version the jar was compiled against (``4.3.0``): its SQL functions, which use Spark's internal API,
run on that major and minor version only (the runtime's ``SparkSql``)."""
_DATE = (1980, 1, 1, 0, 0, 0)
_MANIFEST = "Manifest-Version: 1.0\r\nCreated-By: streamcodecs generator\r\n\r\n"


class MissingJdk(RuntimeError):
    """No ``javac`` to rebuild a jar whose sources changed: a problem of the environment, reported in one line."""


class JavacFailed(RuntimeError):
    """javac refused the Java target's sources: a generator bug (the checks let through a definition the Java code
    cannot hold, or a template is wrong), reported with javac's words and nothing written."""


def spark_jars() -> Path:
    spec = importlib.util.find_spec("pyspark")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("No module named 'pyspark'", name="pyspark")
    return Path(next(iter(spec.submodule_search_locations))) / "jars"


def classpath() -> list[Path]:
    """Spark's jars, less the few whose manifests name jars pyspark does not ship (Derby, the Scala compiler):
    javac would warn about those missing paths, and the build treats warnings as errors."""
    jars = sorted(spark_jars().glob("*.jar"))
    return [j for j in jars if all((j.parent / name).is_file() for name in _manifest_class_path(j))]


def _manifest_class_path(jar: Path) -> list[str]:
    try:
        with zipfile.ZipFile(jar) as z:
            manifest = z.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (zipfile.BadZipFile, KeyError, OSError):
        return []
    unfolded = manifest.replace("\r\n ", "").replace("\n ", "")  # continuation lines start with one space
    for line in unfolded.splitlines():
        if line.startswith("Class-Path:"):
            return line.removeprefix("Class-Path:").split()
    return []


def spark_version() -> str:
    jars = sorted(p.name for p in spark_jars().glob("spark-sql_*.jar"))
    return jars[0].removesuffix(".jar") if jars else "unknown"


def spark_release() -> str:
    """The version of the Spark the jar is compiled against: ``4.3.0`` of ``spark-sql_2.13-4.3.0``."""
    return spark_version().rpartition("-")[2]


def fingerprint(sources: list[OutputFile]) -> str:
    digest = hashlib.sha256(f"java {JAVA_RELEASE}\n{spark_version()}\n".encode())
    for f in sorted(sources, key=lambda f: f.path):
        content = f.content.encode("utf-8") if isinstance(f.content, str) else f.content
        digest.update(f"{f.path.as_posix()}\n{len(content)}\n".encode())
        digest.update(content)
    return digest.hexdigest()


def jar_fingerprint(jar: bytes) -> str | None:
    try:
        with zipfile.ZipFile(io.BytesIO(jar)) as z:
            return z.read(FINGERPRINT_ENTRY).decode("ascii").strip()
    except (zipfile.BadZipFile, KeyError, UnicodeDecodeError):
        return None


def jar_for(sources: list[OutputFile], previous: bytes | None) -> bytes:
    """The jar of ``sources``: ``previous`` (the jar built before) if it was built from the same, else a new build."""
    wanted = fingerprint(sources)
    if previous is not None and jar_fingerprint(previous) == wanted:
        return previous
    return build(sources, wanted)


def javac() -> str:
    """A javac of Java 17: ``$JAVA_HOME/bin/javac``, else the first on the PATH. Another version is refused, as a
    missing JDK is: it would write other class files, so the jar would change with the machine that built it."""
    candidates = [Path(os.environ["JAVA_HOME"]) / "bin" / "javac"] if os.environ.get("JAVA_HOME") else []
    on_path = shutil.which("javac")
    candidates += [Path(on_path)] if on_path else []
    found: list[str] = []
    for candidate in candidates:
        if candidate.is_file():
            version = _javac_version(candidate)
            if version.split(".")[0] == JAVA_RELEASE:
                return str(candidate)
            found.append(f"{candidate} is javac {version}")
    raise MissingJdk(
        f"error: the Java sources changed and the Spark jar must be rebuilt, which needs javac {JAVA_RELEASE} (a JDK"
        f"{': ' + '; '.join(found) if found else ''}): install one (e.g. openjdk-{JAVA_RELEASE}-jdk-headless) or set "
        "JAVA_HOME to it"
    )


def _javac_version(path: Path) -> str:
    """``17.0.15`` of ``javac 17.0.15`` (what ``javac -version`` prints), or what it printed."""
    try:
        result = subprocess.run([str(path), "-version"], capture_output=True, text=True, check=False, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unusable ({exc})"
    words = (result.stdout + result.stderr).split()
    return words[1] if len(words) >= 2 and words[0] == "javac" else "of unknown version"


def build(sources: list[OutputFile], print_: str) -> bytes:
    with tempfile.TemporaryDirectory(prefix="streamcodecs-javac-") as tmp:
        src, classes = Path(tmp) / "src", Path(tmp) / "classes"
        names = []
        for f in sorted(sources, key=lambda f: f.path):
            path = src / f.path
            path.parent.mkdir(parents=True, exist_ok=True)
            assert isinstance(f.content, str)
            path.write_text(f.content, encoding="utf-8", newline="\n")
            names.append(str(path))
        argfile = Path(tmp) / "sources.txt"
        argfile.write_text("\n".join(f'"{n}"' for n in names) + "\n", encoding="utf-8")
        result = subprocess.run(
            [
                javac(),
                "--release",
                JAVA_RELEASE,
                "-Xlint:all",
                "-Werror",
                "-implicit:none",
                "-encoding",
                "UTF-8",
                "-cp",
                os.pathsep.join(str(j) for j in classpath()),
                "-d",
                str(classes),
                f"@{argfile}",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise JavacFailed(
                "error: javac refused the generated Java sources, so nothing was written. This is a bug of the "
                "generator, not of your definitions' YAML: please report it with the definitions. javac said:\n"
                + (result.stdout + result.stderr).replace(str(src) + os.sep, "")
            )
        return _zip(classes, print_)


def _zip(classes: Path, print_: str) -> bytes:
    out = io.BytesIO()
    entries = [
        ("META-INF/MANIFEST.MF", _MANIFEST.encode()),
        (FINGERPRINT_ENTRY, f"{print_}\n".encode()),
        (SPARK_VERSION_ENTRY, f"{spark_release()}\n".encode()),
    ]
    entries += sorted(
        (PurePosixPath(p.relative_to(classes).as_posix()).as_posix(), p.read_bytes()) for p in classes.rglob("*.class")
    )
    with zipfile.ZipFile(out, "w") as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, data, compresslevel=9)
    return out.getvalue()
