"""An independent reference scorer: the point metrics of ../shared/spec/metrics.md, standard library only.

Written from the two specs (metrics.md and data-format.md), not from proevent's evaluator, and
importing nothing of proevent, so that it can check the evaluator and be the baseline its speed is
measured against (bench/bench_evaluate.py). It reads a dataset folder and a run folder and prints
the ``single`` and ``multi`` objects of metrics.json (no intervals, no breakdowns, repeat 0 only,
location judge ``exact`` or ``fuzzy``).

    python bench/reference_scorer.py DATASET RUN [--judge fuzzy]

It favours plainness over speed: a straightforward Python implementation of every rule.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

ATTRIBUTES = ("start", "end", "location", "participants", "description")
SCORED = ("start", "end", "location", "participants")
TYPES = ("insert", "update", "delete")
_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_EID = re.compile(r"^e([1-9][0-9]*)$")
_APOSTROPHES = str.maketrans("", "", "'\u2019\u02bc")


# ---- attribute equality -------------------------------------------------------------------------

def norm_time(value: str | None) -> str | None:
    return value[:16] if value is not None and "T" in value else value


def norm_location(text: str) -> str:
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.category(c).startswith("M"))
    text = text.casefold().translate(_APOSTROPHES)
    text = "".join(" " if unicodedata.category(c)[0] in "PS" else c for c in text)
    text = " ".join(text.split())
    return text[4:] if text.startswith("the ") else text


def osa_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (restricted Damerau-Levenshtein), in code points."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def same_location(a: str | None, b: str | None, judge: str) -> bool:
    if a is None or b is None:
        return a is None and b is None
    na, nb = norm_location(a), norm_location(b)
    if na == nb:
        return True
    if judge == "exact":
        return False
    wa, wb = sorted(na.split()), sorted(nb.split())
    if len(wa) != len(wb):
        return False
    return all(x == y or (len(x) >= 5 and len(y) >= 5 and osa_distance(x, y) == 1) for x, y in zip(wa, wb))


class People:
    """Name canonicalisation: NFKC, casefold, collapsed space; a unique first word names its person."""

    def __init__(self, names: list[str]) -> None:
        full = {self.base(n) for n in names}
        firsts: dict[str, list[str]] = {}
        for name in full:
            firsts.setdefault(name.split(" ")[0], []).append(name)
        self.first = {word: owners[0] for word, owners in firsts.items() if len(owners) == 1}

    @staticmethod
    def base(name: str) -> str:
        return " ".join(unicodedata.normalize("NFKC", name).casefold().split())

    def canonical(self, name: str) -> str:
        name = self.base(name)
        return self.first.get(name, name)

    def same(self, a: list[str], b: list[str]) -> bool:
        return {self.canonical(n) for n in a} == {self.canonical(n) for n in b}


def equal_value(attribute: str, a: Any, b: Any, people: People, judge: str) -> bool:
    if attribute in ("start", "end"):
        return norm_time(a) == norm_time(b)
    if attribute == "location":
        return same_location(a, b, judge)
    if attribute == "participants":
        return people.same(a, b)
    return a == b


def equal_events(a: dict, b: dict, people: People, judge: str) -> bool:
    return all(equal_value(k, a.get(k), b.get(k), people, judge) for k in SCORED)


# ---- operation validity -------------------------------------------------------------------------

def valid_value(attribute: str, value: Any) -> bool:
    if attribute in ("start", "end"):
        return value is None or (isinstance(value, str) and bool(_TIME.match(value) or _DATE.match(value)))
    if attribute == "location":
        return value is None or isinstance(value, str)
    if attribute == "participants":
        return isinstance(value, list) and all(isinstance(p, str) for p in value)
    return isinstance(value, str)


def op_type(op: Any) -> str | None:
    kind = op.get("op") if isinstance(op, dict) else None
    return kind if kind in TYPES else None


def is_cosmetic(op: Any) -> bool:
    return op_type(op) == "update" and op.get("attribute") == "description"


def is_valid(op: Any, ids_before: set[str], deleted: set[str]) -> bool:
    kind = op_type(op)
    if kind == "insert":
        event = op.get("event")
        return isinstance(event, dict) and all(k in event and valid_value(k, event[k]) for k in ATTRIBUTES)
    if kind is None or not isinstance(op.get("id"), str) or op["id"] not in ids_before or op["id"] in deleted:
        return False
    if kind == "delete":
        return True
    return op.get("attribute") in ATTRIBUTES and "value" in op and valid_value(op["attribute"], op["value"])


def validity(ops: list, ids_before: set[str]) -> list[bool]:
    deleted: set[str] = set()
    out = []
    for op in ops:
        ok = is_valid(op, ids_before, deleted)
        if ok and op_type(op) == "delete":
            deleted.add(op["id"])
        out.append(ok)
    return out


def equivalent(p: dict, g: dict, people: People, judge: str) -> bool:
    kind = op_type(p)
    if kind != op_type(g):
        return False
    if kind == "insert":
        return equal_events(p["event"], g["event"], people, judge)
    if p["id"] != g["id"]:
        return False
    if kind == "delete":
        return True
    return p["attribute"] == g["attribute"] and equal_value(p["attribute"], p["value"], g["value"], people, judge)


def max_matching(adj: list[list[int]]) -> int:
    """Size of a maximum bipartite matching (augmenting paths); adj[i] lists the right nodes of i."""
    right_of: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j not in seen:
                seen.add(j)
                if j not in right_of or augment(right_of[j], seen):
                    right_of[j] = i
                    return True
        return False

    return sum(augment(i, set()) for i in range(len(adj)))


# ---- applying operations to a timetable ---------------------------------------------------------

class Table:
    """A timetable with the id rule of the data format (``e<k>``, k above every id of its history)."""

    def __init__(self, events: list[dict]) -> None:
        self.events = [dict(e) for e in events]
        self.high = 0
        for e in self.events:
            self.note(e["id"])

    def note(self, eid: str) -> None:
        m = _EID.match(eid)
        if m:
            self.high = max(self.high, int(m.group(1)))

    def apply(self, ops: list) -> None:
        ids_before = {e["id"] for e in self.events}
        for op, ok in zip(ops, validity(ops, ids_before)):
            if not ok:
                continue
            kind = op["op"]
            if kind == "insert":
                self.high += 1
                event = {k: op["event"][k] for k in ATTRIBUTES}
                event["id"] = f"e{self.high}"
                self.events.append(event)
            elif kind == "delete":
                self.events = [e for e in self.events if e["id"] != op["id"]]
            else:
                for e in self.events:
                    if e["id"] == op["id"]:
                        e[op["attribute"]] = op["value"]


# ---- the files ----------------------------------------------------------------------------------

def load_cases(folder: Path) -> list[dict]:
    with open(folder / "cases.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_lines(folder: Path) -> dict[tuple, dict]:
    lines: dict[tuple, dict] = {}
    with open(folder / "predictions.jsonl", encoding="utf-8") as fh:
        for raw in fh:
            if raw.strip():
                line = json.loads(raw)
                lines[(line["case_id"], line["mode"], line["t"], line.get("repeat", 0))] = line
    return lines


def people_of(case: dict) -> People:
    names = [case["user"]]
    for chat in case["chats"]:
        names.extend(chat["members"])
    return People(names)


def predicted(line: dict | None) -> list:
    if line is None or line.get("error") is not None:
        return []
    return list(line.get("ops") or [])


# ---- single-step --------------------------------------------------------------------------------

def score_single(cases: list[dict], lines: dict, judge: str) -> dict | None:
    if not any(key[1] == "single" and key[3] == 0 for key in lines):
        return None
    n = {"questions": 0, "missing": 0, "errors": 0, "invalid_ops": 0, "no_gold": 0, "fd": 0, "need": 0, "mn": 0}
    hit = {k: 0 for k in ("all", *TYPES)}
    pred = dict(hit)
    gold = dict(hit)
    for case in cases:
        people = people_of(case)
        before = case["initial_timetable"]
        for step in case["steps"]:
            line = lines.get((case["case_id"], "single", step["t"], 0))
            n["questions"] += 1
            n["missing"] += line is None
            n["errors"] += line is not None and line.get("error") is not None
            ops = predicted(line)
            ok = validity(ops, {e["id"] for e in before})
            kept = [(op, v) for op, v in zip(ops, ok) if not is_cosmetic(op)]
            n["invalid_ops"] += sum(not v for _, v in kept)
            g_ops = [g for g in step["gold_ops"] if not is_cosmetic(g)]
            if g_ops:
                n["need"] += 1
                n["mn"] += not kept
            else:
                n["no_gold"] += 1
                n["fd"] += bool(kept)
            valid_preds = [op for op, v in kept if v]
            for kind in ("all", *TYPES):
                ps = [op for op in valid_preds if kind == "all" or op_type(op) == kind]
                gs = [g for g in g_ops if kind == "all" or op_type(g) == kind]
                pred[kind] += sum(1 for op, _ in kept if kind == "all" or op_type(op) == kind)
                gold[kind] += len(gs)
                adj = [[j for j, g in enumerate(gs) if equivalent(p, g, people, judge)] for p in ps]
                hit[kind] += max_matching(adj)
            before = step["gold_timetable"]

    def ratio(a: int, b: int) -> float | None:
        return a / b if b else None

    out: dict[str, Any] = {k: n[k] for k in ("questions", "missing", "errors", "invalid_ops")}
    out.update(fdr=ratio(n["fd"], n["no_gold"]), mnr=ratio(n["mn"], n["need"]),
               precision=ratio(hit["all"], pred["all"]), recall=ratio(hit["all"], gold["all"]))
    for kind in TYPES:
        out[kind] = {"precision": ratio(hit[kind], pred[kind]), "recall": ratio(hit[kind], gold[kind])}
    return out


# ---- multi-step ---------------------------------------------------------------------------------

def best_matching(gold: list[dict], mine: list[dict], previous: dict[str, str], people: People,
                  judge: str) -> dict[str, str]:
    """M_t as gold id -> agent id: maximum, then most partners kept from M_{t-1}, then in list order.

    Each connected component of the "equal events" graph is searched exhaustively, gold events in
    order, each trying the agent's events in order and "unmatched" last; the first matching found
    with the best (size, kept) is the one the order rule picks.
    """
    edges = {(i, j) for i in range(len(gold)) for j in range(len(mine))
             if equal_events(gold[i], mine[j], people, judge)}
    kept = {(i, j) for i, j in edges if previous.get(gold[i]["id"]) == mine[j]["id"]}
    result: dict[str, str] = {}
    unseen = set(range(len(gold)))
    while unseen:
        comp_g, comp_m = _component(min(unseen), edges)
        unseen -= comp_g
        for i, j in _best_in_component(sorted(comp_g), sorted(comp_m), edges, kept):
            result[gold[i]["id"]] = mine[j]["id"]
    return result


def _component(start: int, edges: set[tuple[int, int]]) -> tuple[set[int], set[int]]:
    comp_g, comp_m, todo = {start}, set(), [("g", start)]
    while todo:
        side, k = todo.pop()
        for i, j in edges:
            if side == "g" and i == k and j not in comp_m:
                comp_m.add(j)
                todo.append(("m", j))
            elif side == "m" and j == k and i not in comp_g:
                comp_g.add(i)
                todo.append(("g", i))
    return comp_g, comp_m


def _best_in_component(golds: list[int], mines: list[int], edges: set, kept: set) -> tuple:
    best: tuple = ((-1, -1), ())

    def search(pos: int, used: frozenset, chosen: tuple, size: int, keep: int) -> None:
        nonlocal best
        if pos == len(golds):
            if (size, keep) > best[0]:
                best = ((size, keep), chosen)
            return
        i = golds[pos]
        for j in mines:
            if j not in used and (i, j) in edges:
                search(pos + 1, used | {j}, (*chosen, (i, j)), size + 1, keep + ((i, j) in kept))
        search(pos + 1, used, chosen, size, keep)

    search(0, frozenset(), (), 0, 0)
    return best[1]


def target_events(case: dict) -> set[str]:
    targets: set[str] = set()
    before = {e["id"] for e in case["initial_timetable"]}
    for step in case["steps"]:
        after = {e["id"] for e in step["gold_timetable"]}
        for g in step["gold_ops"]:
            if op_type(g) in ("update", "delete") and not is_cosmetic(g):
                targets.add(g["id"])
        if any(op_type(g) == "insert" for g in step["gold_ops"]):
            targets |= after - before
        before = after
    return targets


def score_multi(cases: list[dict], lines: dict, judge: str) -> dict | None:
    if not any(key[1] == "multi" and key[3] == 0 for key in lines):
        return None
    n = {"cases": len(cases), "missing": 0, "errors": 0, "target_events": 0, "successes": 0, "tsr": 0}
    for case in cases:
        people = people_of(case)
        targets = target_events(case)
        mine = Table(case["initial_timetable"])
        partner = {e["id"]: e["id"] for e in case["initial_timetable"]}  # M_0
        last_partner = dict(partner)
        failed: set[str] = set()
        whole = True
        for step in case["steps"]:
            line = lines.get((case["case_id"], "multi", step["t"], 0))
            n["missing"] += line is None
            n["errors"] += line is not None and line.get("error") is not None
            mine.apply(predicted(line))
            gold = step["gold_timetable"]
            partner = best_matching(gold, mine.events, partner, people, judge)
            whole &= len(gold) == len(mine.events) == len(partner)
            present = {e["id"] for e in gold}
            mine_ids = {e["id"] for e in mine.events}
            taken = {agent: g for g, agent in partner.items()}
            for g in targets - failed:
                if g in present:
                    if g in partner:
                        last_partner[g] = partner[g]
                    else:
                        failed.add(g)
                elif g in last_partner:  # deleted (it was present and matched before)
                    agent = last_partner[g]
                    if agent in mine_ids and taken.get(agent) in (None, g):
                        failed.add(g)
        n["target_events"] += len(targets)
        n["successes"] += len(targets - failed)
        n["tsr"] += whole
    esr = n["successes"] / n["target_events"] if n["target_events"] else None
    return {"cases": n["cases"], "missing": n["missing"], "errors": n["errors"],
            "target_events": n["target_events"], "esr": esr, "tsr": n["tsr"] / n["cases"] if n["cases"] else None}


def score(dataset: Path, run: Path, judge: str = "fuzzy") -> dict:
    cases, lines = load_cases(dataset), load_lines(run)
    return {"judge": judge, "single": score_single(cases, lines, judge), "multi": score_multi(cases, lines, judge)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", type=Path)
    ap.add_argument("run", type=Path)
    ap.add_argument("--judge", choices=("exact", "fuzzy"), default="fuzzy")
    args = ap.parse_args(argv)
    json.dump(score(args.dataset, args.run, args.judge), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
