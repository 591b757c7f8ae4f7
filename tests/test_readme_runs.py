"""README.md and docs/reproduce.md run as written (issue 17, point 1).

Every fenced shell block (bash, sh, shell) of each document runs, in order, in a fresh folder that
holds a copy of ``examples/`` (the docs are read from the repository's folder), the way a reader
runs them in one terminal: an ``export`` carries over to the later commands. Python blocks run too.
What a test cannot do as a reader would is replaced, and only this:

- ``pip install -e ".[X]"`` is not run (this environment is installed with every extra): the test
  checks that each extra it names exists in ``pyproject.toml``;
- ``python -m pytest`` is not run (the suite would run itself); ``.ci/run`` runs it, and a test
  here checks that ``.ci/run`` finds exactly that line;
- a model is the scripted OpenAI-compatible server of the tests: ``PROEVENT_BASE_URL`` points at
  it and every ``--base-url`` (hosts of the reader's own network) is replaced by its URL;
- ``proevent serve`` gets a free port (never one of yours), must answer its page, and is stopped.

A block the test cannot run at all is marked in the document by an HTML comment on the line
before it, which names why: ``<!-- doc-test: skip: a person answers ... -->``. ``<!-- doc-test:
file NAME -->`` writes the block into the folder as NAME (the reader's own file), and ``<!--
doc-test: trial --cases N -->`` adds ``--cases N`` to the block's ``proevent generate`` commands,
which the document must offer in its text. The marks are few and each says why (checked here).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/reproduce.md")
SHELL = {"bash", "sh", "shell"}
MAX_SKIPS = 4
"""Skip marks allowed over all the documents: the human and review modes need a person."""
BIN = Path(sys.executable).parent
FENCE = re.compile(r"^```(\S*)\s*$")
MARK = re.compile(r"^<!--\s*doc-test:\s*(skip|file|trial)\b:?\s*(.*?)\s*-->\s*$")
COMMAND_TIMEOUT = 300


@dataclass
class Block:
    doc: str
    line: int
    lang: str
    code: str
    mark: tuple[str, str] | None

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def doc_blocks(doc: str) -> list[Block]:
    """The fenced blocks of a document, each with the mark on the line before it (if any).

    Raises:
        AssertionError: a mark is not followed by a block.
    """
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    pending: tuple[str, str, int] | None = None
    while i < len(lines):
        mark = MARK.match(lines[i].strip())
        fence = FENCE.match(lines[i])
        if mark:
            pending = (mark.group(1), mark.group(2), i + 1)
        elif fence:
            start = i
            i += 1
            body = []
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            mine = pending[:2] if pending and pending[2] == start else None
            assert pending is None or mine is not None, f"{doc}:{pending[2]}: a doc-test mark not right before a block"
            out.append(Block(doc, start + 1, fence.group(1), "\n".join(body) + "\n", mine))
            pending = None
        elif lines[i].strip() and pending is not None:
            raise AssertionError(f"{doc}:{pending[2]}: a doc-test mark must be on the line right before its block")
        i += 1
    return out


def commands(code: str) -> list[tuple[int, str]]:
    """The block's commands with their line offsets: continuation lines joined, comments and blanks left out."""
    out: list[tuple[int, str]] = []
    buf, first = "", 0
    for k, raw in enumerate(code.splitlines()):
        if not buf:
            first = k
        if raw.rstrip().endswith("\\"):
            buf += raw.rstrip()[:-1] + " "
            continue
        text = (buf + raw).strip()
        buf = ""
        if text and not text.startswith("#"):
            out.append((first, text))
    return out


def _extras() -> set[str]:
    return set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
               ["optional-dependencies"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Reader:
    """Runs one document's blocks in one folder, as one terminal session would."""

    def __init__(self, folder: Path, base_url: str) -> None:
        self.folder = folder
        self.base_url = base_url
        self.env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "150",
                    "PROEVENT_BASE_URL": base_url, "NO_COLOR": "1"}
        for key in ("PROEVENT_MODEL", "OPENAI_MODEL", "OPENAI_BASE_URL", "PROEVENT_PROFILE"):
            self.env.pop(key, None)
        self.ran: list[str] = []
        self.failures: list[str] = []

    def run_block(self, block: Block) -> None:
        kind, arg = block.mark or ("", "")
        if kind == "skip":
            return
        if kind == "file":
            (self.folder / arg).write_text(block.code, encoding="utf-8")
            return
        if block.lang == "python":
            self._run(block, 0, f"{shlex.quote(sys.executable)} -", stdin=block.code)
            return
        if block.lang not in SHELL:
            return
        for offset, text in commands(block.code):
            for part in (p.strip() for p in text.split("&&")):
                if kind == "trial" and part.startswith("proevent generate"):
                    part = f"{part.split(' #')[0]} {arg}"
                self._command(block, offset, part)

    def _command(self, block: Block, offset: int, part: str) -> None:
        where = f"{block.doc}:{block.line + 1 + offset}"
        if part.startswith("export "):
            name, _, value = part[len("export "):].partition("=")
            self.env[name.strip()] = value.split(" #")[0].strip().strip("'\"")
            return
        if part.startswith("pip install"):
            named = set(re.findall(r"\[([\w,-]+)\]", part))
            unknown = {e for group in named for e in group.split(",")} - _extras()
            if unknown:
                self.failures.append(f"{where}: `{part}` names extras pyproject.toml lacks: {sorted(unknown)}")
            return
        if "python -m pytest" in part:
            return  # .ci/run runs it (test_ci_runs_the_readmes_test_command)
        part = re.sub(r"--base-url\s+\S+", f"--base-url {self.base_url}", part)
        if part.startswith("proevent serve"):
            self._serve(where, part)
            return
        self._run(block, offset, part)

    def _run(self, block: Block, offset: int, cmd: str, stdin: str | None = None) -> None:
        where = f"{block.doc}:{block.line + 1 + offset}"
        t0 = time.monotonic()
        try:
            res = subprocess.run(["bash", "-c", cmd], cwd=self.folder, env=self.env, input=stdin, text=True,
                                 capture_output=True, timeout=COMMAND_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.failures.append(f"{where}: `{cmd[:120]}` ran over {COMMAND_TIMEOUT} s")
            return
        self.ran.append(f"{where} {time.monotonic() - t0:5.1f} s  {cmd[:100]}")
        if res.returncode != 0:
            tail = (res.stdout + res.stderr)[-1500:]
            self.failures.append(f"{where}: `{cmd[:160]}` exited {res.returncode}:\n{tail}")

    def _serve(self, where: str, cmd: str) -> None:
        port = _free_port()
        t0 = time.monotonic()
        proc = subprocess.Popen(["bash", "-c", f"exec {cmd.split(' #')[0]} --port {port}"], cwd=self.folder,
                                env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                start_new_session=True)
        try:
            url, status, deadline = f"http://127.0.0.1:{port}/", None, time.monotonic() + 90
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    with urllib.request.urlopen(url, timeout=5) as resp:
                        status = resp.status
                    break
                except OSError:
                    time.sleep(0.3)
            if status != 200:
                os.killpg(proc.pid, signal.SIGTERM)
                out = proc.communicate(timeout=30)[0]
                self.failures.append(f"{where}: `{cmd}` did not answer {url} (status {status}):\n{out[-1500:]}")
                return
            self.ran.append(f"{where} {time.monotonic() - t0:5.1f} s  {cmd[:100]} (answered {url})")
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGINT)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def _reader_folder(tmp_path: Path, doc: str) -> Path:
    folder = tmp_path / Path(doc).stem
    folder.mkdir()
    shutil.copytree(ROOT / "examples", folder / "examples",
                    ignore=shutil.ignore_patterns("metrics.json", "__pycache__"))
    return folder


@pytest.mark.parametrize("doc", DOCS)
def test_the_docs_shell_blocks_run_as_written(doc, tmp_path, scripted_server):
    folder = _reader_folder(tmp_path, doc)
    reader = Reader(folder, scripted_server.base_url)
    blocks = doc_blocks(doc)
    assert any(b.lang in SHELL for b in blocks), doc
    for block in blocks:
        reader.run_block(block)
    print(f"\n{doc}: commands run\n" + "\n".join(reader.ran))
    assert not reader.failures, f"{len(reader.failures)} command(s) of {doc} failed:\n\n" + "\n\n".join(
        reader.failures)
    # what the commands leave in the reader's folder is ignored by git (issue 17, point 8)
    own = {"examples", *(b.mark[1] for b in blocks if b.mark and b.mark[0] == "file")}  # the reader's own files
    made = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir() if p.name not in own)
    assert made, f"{doc}: the commands wrote nothing"
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *made], cwd=ROOT, capture_output=True,
                             text=True).stdout.split()
    assert sorted(set(made) - set(ignored)) == [], f"{doc}: folders its commands create that .gitignore misses"


def test_marks_are_few_and_say_why():
    marks = [(b.where, b.mark) for doc in DOCS for b in doc_blocks(doc) if b.mark]
    skips = [(w, reason) for w, (kind, reason) in marks if kind == "skip"]
    assert len(skips) <= MAX_SKIPS, skips
    for where, reason in skips:
        assert len(reason.split()) >= 6, f"{where}: a skip mark says why in a sentence, not {reason!r}"
    for where, (kind, arg) in marks:
        if kind == "trial":
            assert re.fullmatch(r"--cases \d+", arg), (where, arg)
            doc = where.split(":")[0]
            assert f"`{arg}`" in (ROOT / doc).read_text(encoding="utf-8"), f"{where}: the text must offer {arg}"
        if kind == "file":
            assert re.fullmatch(r"[\w.-]+", arg), (where, arg)


def test_the_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    first = doc_blocks("README.md")[0]
    assert first.lang == "bash" and first.line == 3, "the README's first lines are its two commands"
    quickstart, tests = [c for _, c in commands(first.code)]
    assert quickstart.startswith("pip install") and quickstart.endswith("proevent quickstart")
    assert tests.startswith("pip install") and "python -m pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extract = re.search(r"^test_cmd=\$\((.*)\)$", ci, re.M)
    assert extract, ".ci/run lost its test_cmd line"
    got = subprocess.run(["bash", "-c", extract.group(1)], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert got == tests
