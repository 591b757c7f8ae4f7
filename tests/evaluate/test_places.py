"""The places judge, the labelled location pairs and ``proevent judge-check``."""

from __future__ import annotations

import json
import shutil

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from fixtures import FLAWED_RUN, TINY, load_example_run, load_tiny
from proevent.cli import app
from proevent.evaluate import evaluate, gazetteer, get_judge
from proevent.evaluate.places import PlacesJudge, canonical_name, hits, same_place
from proevent.evaluate.placeset import (
    Pair,
    PairContext,
    agreement,
    blind_subset,
    cohen_kappa,
    data_path,
    load_pairs,
    score_judge,
    split_of,
)

runner = CliRunner()

SAME = [
    ("Golden Dragon", "Golden Dragon, Oakland"),  # a city added
    ("Rosa's", "Rosa's, 12 Mill Road, Cambridge"),  # an address added
    ("green cafe on 5th", "Green Cafe, 5th Ave"),  # "on" qualifier, street type added
    ("Lisbon", "Lisbon, Portugal"),
    ("12 Mill Road", "Mill Rd 12"),  # abbreviation and order
    ("Hauptstraße 5", "Hauptstr. 5"),
    ("St Pancras", "Saint Pancras"),
    ("Blue Ridge Trailhead", "Blue Ridge Trialhead"),  # swapped letters
    ("Tom's house", "Tom's place"),  # home words after a possessive
    ("MSG", "Madison Square Garden"),
    ("Zoom", "Zoom call"),
    ("Zoom", "online"),
    ("Star bucks", "Starbucks"),
    ("Paris", "Paris, France"),  # the best-known Paris is in France
    ("Toronto", "Toronto, ON"),
    ("Gare du Nord", "Paris Gare du Nord"),  # a city before a name of its own
    ("Forty-Second Street", "42nd St"),
    ("Notting Hill", "Notting Hil"),  # a doubled letter, pinned by "Notting"
    ("Shinjuku Station", "Shinjuku Staton"),  # a vowel dropped
    ("Lena's place", "Lena's"),
    ("Hotel Ritz", "Ritz Hotel"),  # order free where a word names the place
    ("Room 3, Hall 2", "Hall 2 Room 3"),  # labels keep their numbers in any order
    ("Floor 2", "2nd floor"),
    ("Meeting room Everest", "Everest room at the Zurich office"),  # a named room, kind and order aside
    ("Seminar room B12", "B12 (3rd floor, Physics building)"),  # a labelled code and the code alone
    ("Plac Wolności", "pl. Wolności"),
    ("Aldi, Karl-Liebknecht-Straße", "Aldi on Karl-Liebknecht-Str."),  # a chain, the same street
    ("Discord", "Discord voice channel"),
    ("Teams", "Teams (link in the calendar invite)"),  # a remark without place words
    ("Nando's, Leeds", "Nando's"),  # a city added to a chain
    ("Greenwood Elementary", "Greenwood Elementary School, 1200 Pine Ave"),  # a kind the name already says
    ("No. 10 Downing Street", "10 Downing Street"),  # the number sign dropped
    ("One Canada Square", "1 Canada Square"),  # number words
    ("Koeln", "Köln"),  # an umlaut written out
    ("Mt. Hood", "Mount Hood"),
    ("Sankt Pauli", "St. Pauli"),
    ("Il Duomo", "Duomo"),  # Italian and Dutch articles
    ("Museo Picasso", "Picasso Museum"),  # a kind of place in another language
    ("Musée Rodin", "Rodin Museum"),
    ("Calle Mayor 5", "C/ Mayor 5"),
    ("Rue Sainte-Catherine", "Ste-Catherine St"),
    ("Zoom meeting", "zoom.us"),
    ("Hilton, Room 204", "Hilton"),  # a room added to a chain
]
DIFFERENT = [
    ("Conference Room B", "Conference Room A"),
    ("Room 4", "Room 4B"),
    ("Golden Dragon, Oakland", "Golden Dragon, Berkeley"),  # conflicting qualifiers
    ("Oakland", "Golden Dragon, Oakland"),  # a city against a venue
    ("Tom's place", "his place"),
    ("Zoom", "Microsoft Teams"),
    ("Zoom", "Conference Room B"),
    ("Merton College", "Morton College"),  # one letter for another in a short word
    ("Brighton", "Brighton Beach"),
    ("12 Mill Road", "21 Mill Road"),
    ("phone call", "online"),
    ("Paris", "Paris, Texas"),  # a qualifier naming another country or state: a namesake
    ("London", "London, Ontario"),
    ("Brooklyn", "Brooklyn Bowl"),  # a city alone against a venue named after it
    ("Lisbon", "Lisbon Cafe"),
    ("the park", "Riverside Park"),
    ("Premier Inn", "Premier Inn Hub"),  # a place kind is never read as a city ("Hub")
    ("Central Park", "Park Central"),  # only modifiers and kinds: the order makes the name
    ("Kingston", "Kingstown"),  # a slip does not make a place-name part ("town")
    ("Carlton Road", "Charlton Road"),  # the first two letters carry a short name
    ("Dalston", "Dalton"),  # a consonant less in a short name
    ("Tom's place", "Tom"),  # a person is not their home
    ("Manchestr", "Manchester Street"),  # "str" is a street only as "str."
    ("Hall 2 Room 3", "Hall 3 Room 2"),  # a label binds its number
    ("Level 2, Bay 7", "Level 7, Bay 2"),
    ("North Gate, South Campus", "South Gate, North Campus"),  # a compass point binds its word
    ("Riverdale Clinic", "Rivervale Clinic"),  # "dale" / "vale" are place-name parts
    ("Maria's flat", "Maria's Bar"),  # a home is not a venue of the owner's name
    ("Starbucks on Queen Street", "Starbucks"),  # a branch of a chain dropped
    ("Costa, Euston station", "Costa"),
    ("Starbucks Soho", "Starbucks"),
    ("Costa, Manchester Road", "Costa, Manchester"),  # a street named after a city is not the city
    ("Zoom", "Zoom (Room 4, Oslo office)"),  # a qualifier with place words is a place
    ("Greenwood Elementary", "Greenwood Middle School"),
    ("Cologne", "Cologne Cathedral"),  # a cathedral is a place of its own
    ("11 Downing Street", "No. 10 Downing Street"),
    ("Lecture Hall H3", "Lecture Hall H4"),
]


@pytest.mark.parametrize(("a", "b"), SAME)
def test_same_place(a: str, b: str) -> None:
    assert same_place(a, b) and same_place(b, a)


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_different_place(a: str, b: str) -> None:
    assert not same_place(a, b) and not same_place(b, a)


def test_a_business_in_the_description_is_no_home() -> None:
    """"Sophie's" is Sophie's home ("Sophie's flat") unless the description names a business."""
    judge = PlacesJudge()
    assert judge.same("Sophie's", "Sophie's flat", PairContext("dinner with Sophie"))
    assert not judge.same("Sophie's", "Sophie's flat", PairContext("drinks after work at the bar"))
    assert judge.same("Sophie's place", "Sophie's flat", PairContext("drinks after work at the bar"))
    assert same_place("Sophie's", "Sophie's flat") and not same_place("Sophie's", "Sophie's flat", hits("pub quiz"))


def test_judge_null_and_registration() -> None:
    judge = get_judge("places")
    assert isinstance(judge, PlacesJudge) and judge.name == "places"
    assert judge.same(None, None) and not judge.same(None, "Zoom") and not judge.same("Zoom", None)
    assert judge.same("Golden Dragon", "Golden Dragon, Oakland")
    assert judge.decisions() == [{"a": "golden dragon", "b": "golden dragon oakland", "same": True}]


places = st.text(alphabet=st.sampled_from(list("abcdeRoms'’,.- 12()&ß")), max_size=30)


@settings(max_examples=300, deadline=None)
@given(places, places)
def test_symmetric(a: str, b: str) -> None:
    assert same_place(a, b) == same_place(b, a)


@settings(max_examples=200, deadline=None)
@given(places)
def test_identity_and_case_and_space_invariance(a: str) -> None:
    judge = PlacesJudge()
    assert judge.same(a, a)
    assert judge.same(a, f"  {a.upper()} ") == judge.same(a, a)


@settings(max_examples=200, deadline=None)
@given(places, places)
def test_case_and_whitespace_do_not_change_a_verdict(a: str, b: str) -> None:
    assert same_place(a, b) == same_place(" ".join(a.split()).lower(), f" {b.lower()}  ")


labels = st.sampled_from(["Room", "Hall", "Level", "Bay", "Gate", "Terminal", "Platform", "Floor", "Seat"])


@settings(max_examples=200, deadline=None)
@given(labels, labels, st.integers(1, 99), st.integers(1, 99))
def test_labels_bind_their_numbers(x: str, y: str, i: int, j: int) -> None:
    """Written in either order a label keeps its number; swapping the numbers makes another place."""
    assume(x != y)
    assert same_place(f"{x} {i} {y} {j}", f"{y} {j}, {x} {i}")
    assert same_place(f"{x} {i} {y} {j}", f"{x} {j} {y} {i}") == (i == j)


def test_the_set_is_large_labelled_and_split_by_id() -> None:
    pairs = load_pairs()
    assert len(pairs) >= 400 and len({p.id for p in pairs}) == len(pairs)
    assert {p.category for p in pairs} >= {"qualifier_city", "qualifier_street", "qualifier_address", "qualifier_room",
                                           "abbreviation", "word_order", "article_possessive", "typo",
                                           "nickname_case", "online", "different_room", "different_branch",
                                           "same_chain", "granularity", "unresolved"}
    assert 0.25 < sum(p.split == "heldout" for p in pairs) / len(pairs) < 0.35
    assert split_of("lp0016") == "heldout" and split_of("lp0001") == "dev"  # sha256(id) mod 10 < 3, and 7
    blind = [json.loads(line) for line in data_path("location_pairs.blind.jsonl").read_text().splitlines()]
    assert len(blind) >= 100 and all("label" not in row for row in blind)
    assert sorted(row["id"] for row in blind) == sorted(p.id for p in blind_subset(pairs))


def test_places_meets_its_targets_on_the_set() -> None:
    score = score_judge(PlacesJudge(), load_pairs())
    assert score.recall is not None and score.recall >= 0.90
    assert score.precision is not None and score.precision >= 0.98


def test_gazetteer() -> None:
    assert gazetteer.city("paris") == ("FR", "") and gazetteer.city("portland") == ("US", "OR")
    assert gazetteer.region("texas") == ("US", "TX") and gazetteer.region("wa") == ("US", "WA")
    assert gazetteer.region("portugal") == ("PT", "") and gazetteer.region("on") == ("CA", "")
    assert gazetteer.is_place_name("brooklyn") and not gazetteer.is_place_name("golden dragon")
    # a compound street is its name and "Straße" ("Hauptstr." = "Hauptstraße" = "Haupt Straße")
    assert canonical_name("Hauptstr.") == "haupt street" == canonical_name("Hauptstraße")
    assert canonical_name("St. Mary's") == "street marys"
    assert canonical_name("Hall 2 Room 3") == "hall_2 room_3" and canonical_name("Fjord meeting room") == "room_fjord"
    assert {"Starbucks", "Pret A Manger", "Nando's"} <= set(gazetteer.chain_names())
    assert not any(name.startswith("#") for name in gazetteer.chain_names())


def test_score_judge_counts_by_hand() -> None:
    pairs = [Pair("a", "c", "Room 1", "room 1", "x", True), Pair("b", "c", "Room 1", "Room 2", "x", True),
             Pair("c", "c", "Zoom", "Teams", "x", False), Pair("d", "c", "Cafe", "Café", "x", False)]
    score = score_judge(get_judge("exact"), pairs)
    assert (score.tp, score.fn, score.tn, score.fp) == (1, 1, 1, 1)
    assert score.precision == 0.5 and score.recall == 0.5 and score.f1 == 0.5
    assert [p.id for p, _ in score.disagreements] == ["b", "d"]


def test_cohen_kappa_by_hand() -> None:
    a = ["same", "same", "same", "different", "different", "same"]
    b = ["same", "same", "different", "different", "same", "same"]
    # p_o = 4/6; p_e = (4/6)(4/6) + (2/6)(2/6) = 20/36; kappa = (24/36 - 20/36) / (16/36) = 0.25
    assert cohen_kappa(a, b) == pytest.approx(0.25)
    assert cohen_kappa(["same"] * 3, ["same"] * 3) is None and cohen_kappa([], []) is None
    sklearn = pytest.importorskip("sklearn.metrics")
    assert cohen_kappa(a, b) == pytest.approx(sklearn.cohen_kappa_score(a, b))


def test_bad_pairs_file_names_file_line_and_field(tmp_path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"id": "x", "category": "c", "gold": "A", "pred": "B", "description": "d", "label": "same"}\n'
                    '{"id": "y", "category": "c", "gold": "A", "pred": "B", "description": "d", "label": "maybe"}\n')
    with pytest.raises(ValueError, match=r"p\.jsonl:2: field 'label'"):
        load_pairs(path)
    with pytest.raises(ValueError, match="ids not in the set"):
        agreement([], {"zz": True}, path)


def _write_pairs(tmp_path):
    rows = [("p1", "Golden Dragon", "Golden Dragon, Oakland", "same"), ("p2", "Room 1", "Room 2", "different"),
            ("p3", "Zoom", "Teams", "different"), ("p4", "Rosa's", "Rosas", "same")]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps({"id": i, "category": "c", "gold": g, "pred": p, "description": "lunch",
                                        "label": lab}) + "\n" for i, g, p, lab in rows))
    second = tmp_path / "second.jsonl"
    second.write_text("".join(json.dumps({"id": i, "label": lab}) + "\n"
                              for i, lab in [("p1", "same"), ("p2", "different"), ("p3", "same"), ("p4", "same")]))
    return path, second


def test_judge_check_cli(tmp_path) -> None:
    path, second = _write_pairs(tmp_path)
    out = tmp_path / "check.json"
    result = runner.invoke(app, ["judge-check", "--pairs", str(path), "--judge", "fuzzy", "--judge", "places",
                                 "--second", str(second), "--show", "all", "--json", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())
    assert report["judges"]["places"]["all"]["precision"] == 1.0 and report["judges"]["places"]["all"]["recall"] == 1.0
    fuzzy = report["judges"]["fuzzy"]["all"]
    assert (fuzzy["tp"], fuzzy["fn"], fuzzy["tn"]) == (1, 1, 2)
    assert "said different: p1" in result.output
    # 3 of 4 agree; p_e = (3/4)(2/4) + (1/4)(2/4) = 1/2; kappa = (3/4 - 1/2) / (1/2) = 0.5
    assert report["agreement"]["kappa"] == pytest.approx(0.5) and report["agreement"]["differ"] == ["p3"]
    bad = runner.invoke(app, ["judge-check", "--pairs", str(tmp_path / "missing.jsonl")])
    assert bad.exit_code == 1 and "missing.jsonl: cannot read" in bad.output


def test_metrics_version_chooses_the_judge() -> None:
    ds, run = load_tiny(), load_example_run("flawed")
    assert evaluate(ds, run, ci=False).metrics["judge"] == "places"
    old = evaluate(ds, run, ci=False, metrics_version=1).metrics
    assert old["judge"] == "fuzzy" and old["metrics_version"] == 1
    assert evaluate(ds, run, judge="fuzzy", ci=False).metrics["metrics_version"] == 2
    with pytest.raises(ValueError, match="unknown metrics version 7"):
        evaluate(ds, run, ci=False, metrics_version=7)


def test_evaluate_cli_metrics_version_1(tmp_path) -> None:
    run_dir = tmp_path / "flawed"
    shutil.copytree(FLAWED_RUN, run_dir)
    result = runner.invoke(app, ["evaluate", str(TINY), str(run_dir), "--metrics-version", "1", "--no-ci"])
    assert result.exit_code == 0, result.output
    written = json.loads((run_dir / "metrics.json").read_text())
    assert written["judge"] == "fuzzy" and written["metrics_version"] == 1


FRESH_SETS = [
    # (file, pairs labelled same, precision, recall): each set written by an independent annotator
    # who saw no code and no earlier pairs. ``fresh``: half used for development, half unseen until
    # measured (100.0 / 100.0 now; 98.9% precision before the known places). The others were each
    # measured once, unseen, after the rules of their time (fresh3 97.4 / 66.7, fresh4 95.8 / 82.7,
    # fresh5 99.0 / 87.3, fresh6 97.8 / 83.5, fresh7 93.0 / 83.0) and are development data since;
    # the floors are their figures after the rules added for the seventh set (fresh3 100.0 / 90.1,
    # fresh4 100.0 / 96.4, fresh5 100.0 / 94.5, fresh6 97.9 / 84.4, fresh7 100.0 / 87.5). fresh8 was
    # measured once, unseen, at b99a11a (98.0 / 86.6); the floors of fresh6-8 are now their figures after
    # the rules added for the eighth set (fresh6 99.0 / 92.7, fresh7 100.0 / 88.4, fresh8 100.0 / 96.4).
    # fresh9 was measured once, unseen, at 0412669 (98.9 / 80.4); the floors of fresh3 and fresh9 are now their
    # figures after the rules added for the ninth set (fresh3 100.0 / 91.9, fresh9 100.0 / 94.6).
    # fresh10 was measured once, unseen, at 0f64367 (98.0 / 86.6); the floors of fresh6 and fresh10 are now their
    # figures after the rules added for the tenth set (fresh6 100.0 / 92.7, fresh10 100.0 / 99.1). The floors of
    # fresh3 and fresh6 are now their figures after the rules added for the eleventh set (100.0 / 92.8, 100.0 / 93.6).
    ("location_pairs.fresh.jsonl", 102, 1.0, 1.0),
    ("location_pairs.fresh3.jsonl", 111, 1.0, 0.927),
    ("location_pairs.fresh4.jsonl", 110, 1.0, 0.96),
    ("location_pairs.fresh5.jsonl", 110, 1.0, 0.94),
    ("location_pairs.fresh6.jsonl", 109, 1.0, 0.935),
    ("location_pairs.fresh7.jsonl", 112, 1.0, 0.883),
    ("location_pairs.fresh8.jsonl", 112, 1.0, 0.964),
    ("location_pairs.fresh9.jsonl", 112, 1.0, 0.946),
    ("location_pairs.fresh10.jsonl", 112, 1.0, 0.991),
    # fresh11 (landmarks by nickname or address, national address formats, local-language names) was
    # measured once, unseen, at c53d88f (94.5 / 62.2) and again at 720eaca, after the tenth set's rules
    # (93.2 / 62.2); its floor is now its figure after the rules added for it (97.8 / 80.2: its two false "same"
    # and most of its misses are conventions of other sets or knowledge of the world, docs/metrics.md).
    ("location_pairs.fresh11.jsonl", 111, 0.978, 0.801),
    # fresh12 (everyday places as chats write them; a strict annotator: a room, a street or a channel dropped is
    # another door) was measured once, unseen, at 8bd7e77 (89.7 / 72.2; 89.5 / 71.3 with the judge of c53d88f);
    # its floor is now its figure after the rules added for it (93.9 / 85.2: its six false "same" are qualifiers
    # and an article its annotator counts apart where earlier sets do not, docs/metrics.md).
    ("location_pairs.fresh12.jsonl", 108, 0.938, 0.851),
    # fresh13 (everyday places in 20-odd countries, by a twelfth independent annotator) was measured once,
    # unseen, at a6d4267 and again after the twelfth set's rules at fffcbce: 96.3 / 68.4 both times; its floor is now
    # its figure after the rules added for it (98.9 / 76.3: most of what is left needs knowledge of the world or is
    # its annotator's convention against earlier sets', docs/metrics.md).
    ("location_pairs.fresh13.jsonl", 114, 0.988, 0.763),
    # fresh14 (everyday places typed casually, Ghana to Quebec, by a thirteenth independent annotator) was measured
    # unseen before and after the thirteenth set's rules (e0438c9, aa81020): 96.1 / 74.0 both times. No rule has been
    # written for it: the floor is that unseen figure.
    ("location_pairs.fresh14.jsonl", 100, 0.961, 0.74),
]


@pytest.mark.parametrize(("name", "same", "precision", "recall"), FRESH_SETS)
def test_the_fresh_sets_keep_their_figures(name: str, same: int, precision: float, recall: float) -> None:
    """A guard that later rules do not fall below what was measured on each fresh set."""
    from proevent.evaluate.placeset import data_path, load_pairs, score_judge

    pairs = load_pairs(data_path(name))
    assert len(pairs) == 200 and sum(p.same for p in pairs) == same
    score = score_judge(get_judge("places"), pairs)
    assert score.precision >= precision and score.recall >= recall
