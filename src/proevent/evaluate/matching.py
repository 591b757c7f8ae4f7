"""Maximum one-to-one matchings (metrics spec, "Operation equivalence" and the multi-step M_t)."""

from __future__ import annotations

from collections.abc import Callable, Sequence


def max_matching(n_left: int, adj: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """A maximum bipartite matching by augmenting paths (Kuhn); ``adj[i]`` lists the right
    vertices left vertex ``i`` may pair with. Deterministic: left in order, neighbours in order."""
    match_right: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in match_right or augment(match_right[j], seen):
                match_right[j] = i
                return True
        return False

    for i in range(n_left):
        if adj[i]:
            augment(i, set())
    return sorted((i, j) for j, i in match_right.items())


def event_matching(
    n_gold: int,
    n_pred: int,
    compatible: Sequence[tuple[int, int]],
    kept: Callable[[int, int], bool],
) -> dict[int, int]:
    """M_t: among maximum matchings of the compatible pairs, one keeping the most partners of
    M_{t-1} (``kept(i, j)``); remaining ties broken in order — the earliest gold event takes the
    earliest predicted event, and a matched partner is preferred to none.

    Returns gold index -> predicted index. Each connected component of the compatibility graph
    is solved on its own by an exhaustive search in that order with a bound; components are tiny
    in practice (identical events), and a one-to-one pair is taken directly.
    """
    if not compatible:
        return {}
    parent = list(range(n_gold + n_pred))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in compatible:
        ri, rj = find(i), find(n_gold + j)
        if ri != rj:
            parent[ri] = rj
    comps: dict[int, list[tuple[int, int]]] = {}
    for i, j in compatible:
        comps.setdefault(find(i), []).append((i, j))

    result: dict[int, int] = {}
    for pairs in comps.values():
        if len(pairs) == 1:
            i, j = pairs[0]
            result[i] = j
            continue
        result.update(_best_in_component(sorted(pairs), kept))
    return result


def _best_in_component(pairs: list[tuple[int, int]], kept: Callable[[int, int], bool]) -> dict[int, int]:
    golds = sorted({i for i, _ in pairs})
    options: dict[int, list[int]] = {i: [] for i in golds}
    for i, j in pairs:
        options[i].append(j)
    best: list[tuple[int, int] | dict[int, int]] = [(-1, -1), {}]
    current: dict[int, int] = {}
    used: set[int] = set()
    n = len(golds)

    def search(k: int, card: int, keep: int) -> None:
        rem = n - k
        if (card + rem, keep + rem) <= best[0]:  # type: ignore[operator]
            return
        if k == n:
            best[0], best[1] = (card, keep), dict(current)
            return
        i = golds[k]
        for j in options[i]:
            if j in used:
                continue
            used.add(j)
            current[i] = j
            search(k + 1, card + 1, keep + (1 if kept(i, j) else 0))
            del current[i]
            used.discard(j)
        search(k + 1, card, keep)

    search(0, 0, 0)
    return best[1]  # type: ignore[return-value]
