"""The batched ``easy`` bot (batch/easy.py): its shots looked up by relative pose
(batch/shot_table.py) are the bot's own measure, its plans are the referee's checks'
legal plans drawn as the bot draws them, and it plays the referee's ``easy`` bot's games
(docs/batch.md "Policies", "Statistically the same games")."""

from __future__ import annotations

import numpy as np
import pytest
from test_batch_random_plans import tiers_of

from dogfight.batch import shot_table
from dogfight.batch.aim import nearest_in_arc, sample_points
from dogfight.batch.bridge import from_states, to_state
from dogfight.batch.compare import matchup
from dogfight.batch.differential import random_table
from dogfight.batch.easy import easy_plans
from dogfight.batch.plan_kinds import kind
from dogfight.batch.policies import best_tier_plans, sequences
from dogfight.batch.spec import Floats, Spec
from dogfight.catalog.loader import Catalog
from dogfight.rules.plans import Plan, plan_problems
from dogfight.rules.turns import check_plans
from dogfight.sim.duel import duel_situation
from dogfight.situation.format import build, parse_situation


def _spec(catalog: Catalog) -> Spec:
    return from_states([build(duel_situation(), catalog, 0)]).spec


def _measured(
    spec: Spec, fx: Floats, fy: Floats, fh: Floats, tx: Floats, ty: Floats, th: Floats, w: int
) -> Floats:
    """Cards weapon ``w`` at poses f fires at bases at poses t, by the bot's measure
    (the nearest sample point in the arc, the ruler and half mark, the bases apart)."""
    px, py = sample_points(spec, tx, ty, th)
    axis = fh + spec.arc_centre[w]
    d2 = nearest_in_arc(spec, fx, fy, axis, float(spec.arc_half[w]), px, py)
    apart = (fx - tx) ** 2 + (fy - ty) ** 2 > (spec.base_length * 0.9) ** 2
    out: Floats = np.where(d2 <= spec.half**2, 2.0, 1.0) * ((d2 <= spec.ruler**2) & apart)
    return out


def test_the_shot_table_holds_the_bots_measure(catalog: Catalog) -> None:
    """At the centre of every cell drawn the table's four shots (each side's front and
    rear weapon at the other) are the bot's measure exactly, wherever the two bases
    stand on the table; at any pose (the cell's centre stands for it) they agree but
    within half a cell of a boundary, 99% of the time and more."""
    spec = _spec(catalog)
    table = shot_table.shot_table(spec, True)
    rng = np.random.default_rng(4)
    count = 40_000
    reach = spec.ruler + spec.base_radius + 4.0
    dx, dy = rng.uniform(-reach, reach, count), rng.uniform(-reach, reach, count)
    dh = rng.uniform(0.0, 360.0, count)
    # any firer's pose on the table
    fx, fy, fh = rng.uniform(0, 90, count), rng.uniform(0, 90, count), rng.uniform(0, 360, count)
    ix = np.clip(dx / shot_table.STEP + table.centre, 0, table.size - 1).astype(np.int64)
    iy = np.clip(dy / shot_table.STEP + table.centre, 0, table.size - 1).astype(np.int64)
    ih = np.rint(dh / shot_table.HEADING_STEP).astype(np.int64) % shot_table.HEADINGS
    code = table.codes[(ix * table.size + iy) * shot_table.HEADINGS + ih]
    centre = (
        (ix - table.size / 2.0 + 0.5) * shot_table.STEP,
        (iy - table.size / 2.0 + 0.5) * shot_table.STEP,
        ih * shot_table.HEADING_STEP,
    )
    for rel, exact in ((centre, True), ((dx, dy, dh), False)):
        c, s = np.cos(np.radians(fh)), np.sin(np.radians(fh))
        tx, ty, th = fx + rel[0] * c - rel[1] * s, fy + rel[0] * s + rel[1] * c, fh + rel[2]
        for which, w, mine in (
            (shot_table.MINE_FRONT, 0, True),
            (shot_table.MINE_REAR, 1, True),
            (shot_table.THEIRS_FRONT, 0, False),
            (shot_table.THEIRS_REAR, 1, False),
        ):
            if mine:
                measured = _measured(spec, fx, fy, fh, tx, ty, th, w)
            else:
                measured = _measured(spec, tx, ty, th, fx, fy, fh, w)
            looked_up = table.cards[which][code]
            assert (measured > 0).mean() > 0.05  # the draws reach the shots
            same = (measured == looked_up).mean()
            assert same == 1.0 if exact else same > 0.99, (which, exact, same)


def test_a_table_without_the_rear_arc_has_the_same_front_shots(catalog: Catalog) -> None:
    spec = _spec(catalog)
    front = shot_table.shot_table(spec, False).codes
    both = shot_table._build(spec, True).codes
    mask = (1 << (2 * shot_table.MINE_FRONT)) * 3 | (1 << (2 * shot_table.THEIRS_FRONT)) * 3
    assert np.array_equal(front & mask, both & mask)


@pytest.mark.parametrize("ruleset", ["wog", "wow", "wow-basic"])
def test_easy_plans_pass_the_referees_checks(catalog: Catalog, ruleset: str) -> None:
    """On random tables (2 to 6 airplanes, some damaged: rudders jammed, engines hit,
    on fire, with reminders of their last maneuver), every plan the batched easy bot
    gives passes the referee's checks and breaks no flight restriction."""
    rng = np.random.default_rng(8)
    states = [
        build(parse_situation(random_table(catalog, ruleset, rng, i)), catalog, i)
        for i in range(80)
    ]
    batch = from_states(states)
    easy_plans(batch, rng)
    checked = 0
    for b, template in enumerate(states):
        state = to_state(batch, b, template)
        plans = {
            vid: Plan(cards=tuple(batch.spec.card_ids[c] for c in batch.plan[b, n]))
            for n, vid in enumerate(batch.names[b])
            if batch.alive[b, n]
        }
        for vid, plan in check_plans(state, plans, alone=True).items():
            vehicle = state.vehicles[vid]
            cards = state.rules.maneuver_cards(vehicle.type)
            flown = [cards[c] for c in plan.cards]
            assert not plan_problems(vehicle.previous, flown, state.rules.restrictions)
            checked += 1
    assert checked > 200


def test_sampled_plans_are_of_the_best_safety_tier(catalog: Catalog) -> None:
    """The plans drawn for an airplane are legal and keep it on the table 1 cm inside
    when some do (in mid-table most of its plans, facing the table's edge 6 cm ahead
    only a few: the draws then come from those few); uniform among them: each plan
    drawn about as often."""
    situation = duel_situation()
    data = situation.model_dump(mode="json")
    data["vehicles"][0]["pose"] = {"x": 6.0, "y": 45.0, "heading": 180.0}  # the edge ahead
    corner = parse_situation(data)
    batch = from_states([build(situation, catalog, 0), build(corner, catalog, 0)])
    spec = batch.spec
    seqs = sequences(spec)
    rng = np.random.default_rng(2)
    b, n = np.array([0, 1]), np.array([0, 0])
    picks = best_tier_plans(batch, b, n, 3000, rng)
    for row in range(2):
        deck = int(spec.type_deck[batch.type[b[row], n[row]]])
        k = int(kind(spec, batch.prev_symbol[b[row], n[row]], batch.prev_steep[b[row], n[row]]))
        t = int(seqs.count[deck])
        rad = np.radians(batch.heading[b[row], n[row]])
        f, lft = seqs.forward[deck, :t], seqs.left[deck, :t]
        fx = batch.x[b[row], n[row]] + f * np.cos(rad) - lft * np.sin(rad)
        fy = batch.y[b[row], n[row]] + f * np.sin(rad) + lft * np.cos(rad)
        tier = np.where(seqs.legal[deck, k, :t], tiers_of(spec, fx, fy), -1)
        best = np.flatnonzero(tier == tier.max())
        assert np.isin(picks[row], best).all()
        if row == 1:
            assert tier.max() == 5 and len(best) < 300 < t  # a few plans are safe there
            counts = np.bincount(picks[row], minlength=t)[best]
            expected = 3000 / len(best)
            chi2 = ((counts - expected) ** 2 / expected).sum()
            assert chi2 < len(best) + 4 * np.sqrt(2 * len(best))


@pytest.mark.parametrize(
    "first,second,ruleset",
    [
        ("sopwith-camel", "albatros-d5a", "wog"),
        ("bristol-f2b", "fokker-d7", "wow"),
    ],
)
def test_batched_easy_games_are_the_referees_easy_games(
    catalog: Catalog, first: str, second: str, ruleset: str
) -> None:
    """The easy bot on both sides: win rates and game lengths of batched duels agree with
    the referee's (the batched bot looks its shots up in the table; the referee's
    measures them)."""
    report = matchup(
        catalog, first, second, 2000, 150, seed=3, max_turns=12, bot="easy", ruleset=ruleset
    )
    assert report["agree"], report


def test_easy_plans_with_every_gun_jammed_in_the_first_phase(catalog: Catalog) -> None:
    """A gun jammed for the turn's first maneuver fires from the second: the bot scores
    the later phases without an aim bonus from the first (no weapon of the batch could
    fire then) and plans every airplane."""
    batch = from_states([build(duel_situation(), catalog, i) for i in range(4)])
    batch.jams[..., 0] = 1
    batch.y[:, 1] = batch.y[:, 0] + 20.0  # close enough to fire at each other
    easy_plans(batch, np.random.default_rng(1))
    assert (batch.plan[batch.alive] >= 0).all()
