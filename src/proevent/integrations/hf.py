"""Hugging Face datasets: a proevent dataset as Parquet tables plus a dataset card, and back.

Layout of an export folder (ready for ``huggingface-cli upload``)::

    README.md          the dataset card (YAML header naming the two configs)
    cases.parquet      one row per case (config ``cases``)
    questions.parquet  one row per single-step question (config ``questions``, the default)
    dataset.json       the proevent manifest, byte for byte

The ``cases`` table is the lossless one: scalar columns for the case's scalar fields and JSON
text columns for the nested ones (``initial_timetable``, ``chats``, ``steps``, ``meta``), each the
exact JSON of the source line, plus ``extra`` (top-level fields the format does not define) and
``key_order``. JSON text rather than nested Arrow types because Arrow unifies struct fields across
rows: an update's ``value`` (string, list or null) and the free-form ``meta`` would come back with
added nulls or changed types. The remaining columns (counts, ``category`` ...) are conveniences for
filtering and are ignored on import. The manifest is also stored in the Parquet schema metadata, so
``cases.parquet`` alone can be imported.

The ``questions`` table is for reading and loading with ``datasets``: its events, messages and
chats are nested Arrow columns (``datasets`` features: lists of structs), since their fields are
fixed by the format; only ``gold_ops`` stays JSON text (an update's ``value`` is a string, a list
of names or null, which one Arrow type cannot hold). ``context`` holds the K earlier messages of
each chat with news, exactly what an agent's observation carries (K = ``context_messages``,
recorded in the schema metadata and the card).

Import writes ``cases.jsonl`` in the compact form :func:`proevent.io.write_dataset` writes, so a
dataset written by proevent comes back byte for byte (and with its original ``dataset.json``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from proevent.io import CASES_FILE, MANIFEST_FILE, FormatError, dumps_line, load_dataset, sha256_file
from proevent.model import DatasetCounts, DatasetManifest

if TYPE_CHECKING:
    import pyarrow as pa

from proevent.agents.protocol import DEFAULT_CONTEXT_MESSAGES

CASES_PARQUET = "cases.parquet"
QUESTIONS_PARQUET = "questions.parquet"
CARD_FILE = "README.md"
MANIFEST_METADATA_KEY = b"proevent.dataset"
FORMAT_METADATA_KEY = b"proevent.hf"
CONTEXT_METADATA_KEY = b"proevent.context_messages"
HF_FORMAT = "proevent.hf/2"
"""Version 2: the ``questions`` table's events, messages and chats are nested columns, plus ``context``."""

CASE_SCALARS: tuple[str, ...] = ("format", "case_id", "user", "timezone", "start")
CASE_NESTED: tuple[str, ...] = ("initial_timetable", "chats", "steps", "meta")
"""The case fields stored as JSON text; with :data:`CASE_SCALARS` every field of the format."""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _str_list(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else []


def _require_pyarrow() -> Any:
    try:
        import pyarrow as pa
        import pyarrow.parquet  # noqa: F401 - registers pa.parquet
    except ImportError:
        raise RuntimeError('Hugging Face export needs pyarrow: pip install -e ".[hf]" in the proevent '
                           "repository") from None
    return pa


def cases_schema() -> pa.Schema:
    pa = _require_pyarrow()
    return pa.schema([
        ("case_id", pa.string()), ("format", pa.string()), ("user", pa.string()), ("timezone", pa.string()),
        ("start", pa.string()),
        ("initial_timetable", pa.string()), ("chats", pa.string()), ("steps", pa.string()), ("meta", pa.string()),
        ("extra", pa.string()), ("key_order", pa.list_(pa.string())),
        ("n_steps", pa.int64()), ("n_messages", pa.int64()), ("n_gold_ops", pa.int64()),
        ("category", pa.string()), ("subcategory", pa.string()), ("negotiation_turns", pa.int64()),
        ("concurrent_chats", pa.int64()), ("noise_content", pa.list_(pa.string())),
    ])


def _nested_types() -> tuple[Any, Any, Any]:
    """Arrow types of an event, a message and a chat: the fields of the data format, in its order."""
    pa = _require_pyarrow()
    event = pa.struct([("id", pa.string()), ("start", pa.string()), ("end", pa.string()),
                       ("location", pa.string()), ("participants", pa.list_(pa.string())),
                       ("description", pa.string())])
    message = pa.struct([("chat_id", pa.string()), ("time", pa.string()), ("sender", pa.string()),
                         ("text", pa.string())])
    chat = pa.struct([("chat_id", pa.string()), ("name", pa.string()), ("type", pa.string()),
                      ("members", pa.list_(pa.string()))])
    return event, message, chat


def questions_schema() -> pa.Schema:
    pa = _require_pyarrow()
    event, message, chat = _nested_types()
    return pa.schema([
        ("question_id", pa.string()), ("case_id", pa.string()), ("t", pa.int64()), ("user", pa.string()),
        ("timezone", pa.string()), ("step_start", pa.string()), ("step_end", pa.string()),
        ("n_messages", pa.int64()), ("n_gold_ops", pa.int64()), ("gold_op_types", pa.list_(pa.string())),
        ("needs_action", pa.bool_()),
        ("category", pa.string()), ("negotiation_turns", pa.int64()), ("concurrent_chats", pa.int64()),
        ("timetable_before", pa.list_(event)), ("context", pa.list_(message)), ("messages", pa.list_(message)),
        ("chats", pa.list_(chat)), ("gold_ops", pa.string()), ("gold_timetable", pa.list_(event)),
    ])


def _raw_cases(path: Path) -> Iterator[dict[str, Any]]:
    with path.open("r", encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def case_row(raw: dict[str, Any]) -> dict[str, Any]:
    """The ``cases`` row of one case, from its JSON object as read from ``cases.jsonl``."""
    meta = raw.get("meta") if isinstance(raw.get("meta"), dict) else {}
    steps = raw.get("steps") or []
    row: dict[str, Any] = {k: raw.get(k) for k in CASE_SCALARS}
    row.update({k: _json(raw[k]) if k in raw else None for k in CASE_NESTED})
    known = set(CASE_SCALARS) | set(CASE_NESTED)
    row["extra"] = _json({k: v for k, v in raw.items() if k not in known})
    row["key_order"] = list(raw)
    row["n_steps"] = len(steps)
    row["n_messages"] = sum(len(s.get("messages") or []) for s in steps)
    row["n_gold_ops"] = sum(len(s.get("gold_ops") or []) for s in steps)
    row["category"] = _str_or_none(meta.get("category"))
    row["subcategory"] = _str_or_none(meta.get("subcategory"))
    row["negotiation_turns"] = _int_or_none(meta.get("negotiation_turns"))
    row["concurrent_chats"] = _int_or_none(meta.get("concurrent_chats"))
    row["noise_content"] = _str_list(meta.get("noise_content"))
    return row


def _context(earlier: list[dict[str, Any]], new: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """The K earlier messages of each chat with news, chats in the order of their first new message
    (as :func:`proevent.agents.protocol.build_observation` gives them to an agent)."""
    if k <= 0:
        return []
    out: list[dict[str, Any]] = []
    for chat_id in dict.fromkeys(m.get("chat_id") for m in new):
        out += [m for m in earlier if m.get("chat_id") == chat_id][-k:]
    return out


def question_rows(raw: dict[str, Any], context_messages: int = DEFAULT_CONTEXT_MESSAGES) -> Iterator[dict[str, Any]]:
    """The ``questions`` rows of one case: step t with the gold S_{t-1} as its timetable and the
    ``context_messages`` earlier messages of each chat with news."""
    meta = raw.get("meta") if isinstance(raw.get("meta"), dict) else {}
    chats = raw.get("chats") or []
    before = raw.get("initial_timetable") or []
    earlier: list[dict[str, Any]] = []
    for step in raw.get("steps") or []:
        gold = step.get("gold_ops") or []
        messages = step.get("messages") or []
        yield {
            "question_id": f"{raw['case_id']}/{step['t']}",
            "case_id": raw["case_id"], "t": step["t"], "user": raw.get("user"),
            "timezone": raw.get("timezone"), "step_start": step.get("start"), "step_end": step.get("end"),
            "n_messages": len(step.get("messages") or []), "n_gold_ops": len(gold),
            "gold_op_types": [str(op.get("op")) for op in gold], "needs_action": bool(gold),
            "category": _str_or_none(meta.get("category")),
            "negotiation_turns": _int_or_none(meta.get("negotiation_turns")),
            "concurrent_chats": _int_or_none(meta.get("concurrent_chats")),
            "timetable_before": before, "context": _context(earlier, messages, context_messages),
            "messages": messages, "chats": chats, "gold_ops": _json(gold),
            "gold_timetable": step.get("gold_timetable") or [],
        }
        before = step.get("gold_timetable") or []
        earlier += messages


@dataclass
class HFExport:
    """What :func:`export_hf` wrote."""

    folder: Path
    cases: int
    questions: int
    files: list[Path]


def export_hf(
    dataset: str | Path, out: str | Path, *, overwrite: bool = False, context_messages: int = DEFAULT_CONTEXT_MESSAGES
) -> HFExport:
    """Write a dataset folder as Parquet tables plus a dataset card into ``out``; each question row
    carries the ``context_messages`` earlier messages per chat an agent sees (``--context K`` of a run).

    The dataset is loaded (format and checksum checked) first, so a broken dataset is never exported.

    Raises:
        FormatError: the dataset does not follow the data format.
        FileExistsError: ``out`` already holds an export and ``overwrite`` is not set.
    """
    from proevent.integrations.hf_card import render_card

    pa = _require_pyarrow()
    src = Path(dataset)
    ds = load_dataset(src)
    folder = Path(out)
    if (folder / CASES_PARQUET).exists() and not overwrite:
        raise FileExistsError(f"{folder / CASES_PARQUET} exists; pass --force to replace it")
    folder.mkdir(parents=True, exist_ok=True)
    raws = list(_raw_cases(src / CASES_FILE))
    manifest_bytes = (src / MANIFEST_FILE).read_bytes()
    metadata = {MANIFEST_METADATA_KEY: manifest_bytes, FORMAT_METADATA_KEY: HF_FORMAT.encode()}
    cases_table = pa.Table.from_pylist([case_row(r) for r in raws], schema=cases_schema().with_metadata(metadata))
    questions = [q for r in raws for q in question_rows(r, context_messages)]
    q_metadata = {**metadata, CONTEXT_METADATA_KEY: str(context_messages).encode()}
    questions_table = pa.Table.from_pylist(questions, schema=questions_schema().with_metadata(q_metadata))
    files = [folder / CASES_PARQUET, folder / QUESTIONS_PARQUET, folder / MANIFEST_FILE, folder / CARD_FILE]
    pa.parquet.write_table(cases_table, files[0], compression="zstd")
    pa.parquet.write_table(questions_table, files[1], compression="zstd")
    files[2].write_bytes(manifest_bytes)
    files[3].write_text(render_card(ds.manifest, ds.cases, context_messages=context_messages), encoding="utf-8")
    return HFExport(folder=folder, cases=len(raws), questions=len(questions), files=files)


def _manifest_from(folder: Path, table: pa.Table) -> tuple[DatasetManifest, bytes | None]:
    """The manifest: ``dataset.json`` beside the tables, else the one in the Parquet metadata."""
    path = folder / MANIFEST_FILE
    if path.exists():
        data = path.read_bytes()
    else:
        data = (table.schema.metadata or {}).get(MANIFEST_METADATA_KEY)
        if data is None:
            raise FormatError([f"{folder}: no {MANIFEST_FILE} and no proevent manifest in {CASES_PARQUET}"])
    try:
        return DatasetManifest.model_validate_json(data), data
    except ValueError as exc:
        raise FormatError([f"{path}: not a proevent dataset manifest: {exc}"]) from None


def row_to_case(row: dict[str, Any], where: str) -> dict[str, Any]:
    """Rebuild a case's JSON object from its ``cases`` row (inverse of :func:`case_row`).

    Raises:
        FormatError: a JSON column does not decode; the message names the row and the column.
    """
    values: dict[str, Any] = {k: row.get(k) for k in CASE_SCALARS}
    for key in (*CASE_NESTED, "extra"):
        text = row.get(key)
        if text is None:
            continue
        try:
            values[key] = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise FormatError([f"{where}: {key}: not valid JSON: {exc}"]) from None
    extra = values.pop("extra", None) or {}
    if not isinstance(extra, dict):
        raise FormatError([f"{where}: extra: expected a JSON object"])
    values.update(extra)
    order = row.get("key_order") or [*CASE_SCALARS, *CASE_NESTED, *extra]
    out = {k: values[k] for k in order if k in values}
    out.update({k: v for k, v in values.items() if k not in out and (v is not None or k in CASE_NESTED)})
    return out


def import_hf(folder: str | Path, out: str | Path, *, overwrite: bool = False) -> Path:
    """Read an export folder (or a ``cases.parquet`` file) back into a proevent dataset folder.

    The result is loaded again (format, checksum, every case validated) before returning.

    Raises:
        FormatError: the tables do not hold proevent cases; messages name the row and column.
        FileExistsError: ``out`` already holds a dataset and ``overwrite`` is not set.
    """
    pa = _require_pyarrow()
    src = Path(folder)
    parquet = src if src.is_file() else src / CASES_PARQUET
    if not parquet.exists():
        raise FormatError([f"{parquet}: file not found (expected an export of `proevent export hf`)"])
    table = pa.parquet.read_table(parquet)
    manifest, manifest_bytes = _manifest_from(parquet.parent, table)
    missing = [c for c in ("case_id", *CASE_NESTED) if c not in table.column_names]
    if missing:
        raise FormatError([f"{parquet.name}: missing column(s) {', '.join(missing)}"])
    dest = Path(out)
    if (dest / CASES_FILE).exists() and not overwrite:
        raise FileExistsError(f"{dest / CASES_FILE} exists; pass --force to replace it")
    dest.mkdir(parents=True, exist_ok=True)
    cases_path = dest / CASES_FILE
    with cases_path.open("w", encoding="utf-8", newline="\n") as fh:
        for i, row in enumerate(table.to_pylist()):
            fh.write(dumps_line(row_to_case(row, f"{parquet.name}: row {i}")))
    digest = sha256_file(cases_path)
    if manifest_bytes is not None and manifest.sha256.get(CASES_FILE) == digest:
        (dest / MANIFEST_FILE).write_bytes(manifest_bytes)
    else:  # content-equal but not byte-equal (e.g. the source was not written by proevent)
        raws = list(_raw_cases(cases_path))
        steps = sum(len(r["steps"]) for r in raws if isinstance(r.get("steps"), list))
        counts = DatasetCounts(cases=len(raws), steps=steps, single_step_questions=steps)
        manifest = manifest.model_copy(update={"counts": counts, "sha256": {CASES_FILE: digest}})
        (dest / MANIFEST_FILE).write_text(manifest.model_dump_json(indent=2) + "\n", encoding="utf-8")
    load_dataset(dest)
    return dest


__all__ = [
    "CARD_FILE", "CASES_PARQUET", "HF_FORMAT", "QUESTIONS_PARQUET", "HFExport", "case_row", "export_hf",
    "import_hf", "question_rows", "row_to_case",
]
