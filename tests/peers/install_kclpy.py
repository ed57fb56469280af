"""Install the Python part of amazon-kclpy into the running interpreter, without Maven.

amazon-kclpy is published on PyPI only as a source distribution. Its setup.py downloads
every jar listed in its pom.xml from Maven Central while building, and fails when any
jar is missing. The Python package itself needs none of them: the jars only run the
bundled Java MultiLangDaemon, which the interop tests do not start.

So this script:

1. downloads the sdist with pip (no dependencies, no wheel);
2. extracts it into a temporary directory;
3. creates an empty placeholder ``amazon_kclpy/jars/<artifactId>-<version>.jar`` for
   every ``<dependency>`` in pom.xml (``${...}`` resolved from ``<properties>``), so the
   setup.py downloader skips them all and its "missing jars" check passes;
4. runs ``pip install --no-deps`` on the extracted directory;
5. checks that ``amazon_kclpy.kcl`` and ``amazon_kclpy.v3.processor`` import.

It does nothing when amazon-kclpy 3.2.0 is already installed. Standard library only.

Usage: python tests/peers/install_kclpy.py
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

KCLPY_VERSION = "3.2.0"
REQUIREMENT = f"amazon-kclpy=={KCLPY_VERSION}"
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}
PROPERTY = re.compile(r"\$\{([^}]+)\}")
IMPORT_CHECK = "from amazon_kclpy import kcl; from amazon_kclpy.v3 import processor"


class InstallError(Exception):
    """A step failed; the message says which and what to do."""


def run_pip(*args: str) -> None:
    """Run ``python -m pip ARGS`` with this interpreter; raise InstallError on failure."""
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    result = subprocess.run(command, check=False, capture_output=True, text=True)
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()
        raise InstallError(f"'{' '.join(command)}' failed (exit {result.returncode}):\n{output}")


def download_sdist(dest: Path) -> Path:
    try:
        run_pip("download", REQUIREMENT, "--no-deps", "--no-binary", ":all:", "--dest", str(dest))
    except InstallError as error:
        raise InstallError(
            f"could not download the {REQUIREMENT} sdist (is the package index reachable?)\n{error}"
        ) from None
    archives = sorted(dest.glob("amazon_kclpy-*.tar.gz")) + sorted(dest.glob("amazon-kclpy-*.tar.gz"))
    if len(archives) != 1:
        found = ", ".join(p.name for p in dest.iterdir()) or "nothing"
        raise InstallError(f"expected one amazon-kclpy sdist (.tar.gz) from pip download, found: {found}")
    return archives[0]


def extract(archive: Path, dest: Path) -> Path:
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):  # refuse links and paths outside dest
            tar.extractall(dest, filter="data")
        else:
            tar.extractall(dest)
    roots = [p for p in dest.iterdir() if p.is_dir() and (p / "setup.py").is_file()]
    if len(roots) != 1:
        raise InstallError(f"{archive.name} does not contain exactly one directory with a setup.py")
    return roots[0]


def jar_names(pom: Path) -> list[str]:
    """``<artifactId>-<version>.jar`` for every <dependency> in the pom, as setup.py names them."""
    if not pom.is_file():
        raise InstallError(f"the sdist has no {pom.name}; cannot tell which jars setup.py expects")
    try:
        root = ET.parse(pom).getroot()
    except ET.ParseError as error:
        raise InstallError(f"{pom.name} is not valid XML: {error}") from None
    properties = {}
    props = root.find("m:properties", POM_NS)
    if props is not None:
        for child in props:
            properties[child.tag.split("}", 1)[-1]] = (child.text or "").strip()

    def resolve(text: str) -> str:
        def lookup(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in properties:
                raise InstallError(f"{pom.name}: property ${{{name}}} is used but not defined")
            return properties[name]

        return PROPERTY.sub(lookup, text)

    names = []
    for dep in root.iter(f"{{{POM_NS['m']}}}dependency"):
        artifact = dep.findtext("m:artifactId", namespaces=POM_NS)
        version = dep.findtext("m:version", namespaces=POM_NS)
        if not artifact or not version:
            raise InstallError(f"{pom.name}: a <dependency> lacks <artifactId> or <version>")
        names.append(f"{resolve(artifact.strip())}-{resolve(version.strip())}.jar")
    if not names:
        raise InstallError(f"{pom.name} lists no <dependency>; the sdist layout has changed")
    return names


def create_placeholders(source: Path) -> int:
    jars = source / "amazon_kclpy" / "jars"
    if not jars.is_dir():
        raise InstallError(f"the sdist has no amazon_kclpy/jars directory under {source.name}")
    names = jar_names(source / "pom.xml")
    for name in names:
        (jars / name).touch()
    return len(names)


def imports_work() -> bool:
    result = subprocess.run([sys.executable, "-c", IMPORT_CHECK], check=False, capture_output=True, text=True)
    return result.returncode == 0


def install() -> None:
    with tempfile.TemporaryDirectory(prefix="kclpy-") as tmp:
        tmp_path = Path(tmp)
        archive = download_sdist(tmp_path / "download")
        source = extract(archive, tmp_path / "src")
        count = create_placeholders(source)
        print(f"install_kclpy: {count} empty placeholder jars created (the Java daemon will not run)")
        run_pip("install", "--no-deps", str(source))
    if not imports_work():
        raise InstallError(f"pip installed {REQUIREMENT} but '{IMPORT_CHECK}' fails in {sys.executable}")


def installed_version() -> str | None:
    """The amazon-kclpy version this interpreter can import, or None."""
    from importlib import metadata

    try:
        import amazon_kclpy  # noqa: F401
    except ImportError:
        return None
    try:
        return metadata.version("amazon-kclpy")
    except metadata.PackageNotFoundError:  # importable from a source tree on sys.path, not installed
        return "unknown"


def main() -> int:
    found = installed_version()
    if found == KCLPY_VERSION:
        print(f"install_kclpy: amazon-kclpy {found} is already installed in {sys.executable}; nothing to do")
        return 0
    if found is not None:
        print(f"install_kclpy: amazon-kclpy {found} is importable; installing {KCLPY_VERSION} over it")
    try:
        install()
    except InstallError as error:
        print(f"install_kclpy: error: {error}", file=sys.stderr)
        return 1
    print(f"install_kclpy: installed {REQUIREMENT} into {sys.executable}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
