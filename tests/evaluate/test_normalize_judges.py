import pytest

from proevent.evaluate import ExactJudge, FuzzyJudge, People, get_judge, normalize_location


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("The Café Nero", "cafe nero"),
        ("  the   BLUE-ridge  trailhead!! ", "blue ridge trailhead"),
        ("Joe’s Diner", "joes diner"),
        ("Room #4 / 2nd floor", "room 4 2nd floor"),
        ("Theatre", "theatre"),
        ("the the club", "the club"),
    ],
)
def test_normalize_location(raw, norm):
    assert normalize_location(raw) == norm


def test_case_and_punctuation_equal_under_every_judge():
    for judge in (ExactJudge(), FuzzyJudge()):
        assert judge.same("Blue Ridge Trailhead.", "blue ridge trailhead")


def test_one_letter_equal_under_fuzzy_only():
    assert FuzzyJudge().same("Blue Ridge Trailhead", "Blue Ridge Trialhead")  # a swap (OSA 1)
    assert FuzzyJudge().same("Blue Ridge Trailhead", "Blue Ridge Trailhed")
    assert not ExactJudge().same("Blue Ridge Trailhead", "Blue Ridge Trailhed")


def test_fuzzy_refuses_other_rooms_missing_words_and_short_words():
    fuzzy = FuzzyJudge()
    assert not fuzzy.same("Conference Room A", "Conference Room B")
    assert not fuzzy.same("Room 101", "Room 102")
    assert not fuzzy.same("Blue Ridge trailhead", "Blue Ridge")
    assert not fuzzy.same("Cafe Nero", "Cafe Nera")  # "nero" has 4 letters
    assert not fuzzy.same("Blue Ridge Trailhead", "Blue Ridge Trxxlhead")  # distance 2


def test_fuzzy_accepts_swapped_word_order():
    assert FuzzyJudge().same("Ridge Blue", "blue ridge")


def test_null_equals_only_null():
    for judge in (ExactJudge(), FuzzyJudge()):
        assert judge.same(None, None)
        assert not judge.same(None, "")
        assert not judge.same("x", None)


def test_unknown_judge_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown judge 'nope'"):
        get_judge("nope")


def test_names_first_word_stands_for_unique_person():
    people = People(["Jerry Chen", "Tom Baker", "Tom Hanks", "Ana Ruiz"])
    assert people.canonical_set(["ana", "JERRY   CHEN"]) == {"ana ruiz", "jerry chen"}
    assert people.canonical("Tom") == "tom"  # two Toms: no one stands for it
    assert people.canonical("Ｊｅｒｒｙ") == "jerry chen"  # NFKC full-width letters
