"""Energy (001_75e061fbe3c8e794.txt:165, 293-295, 314-322, 345): one Energy card from the
hand per turn; a cost is paid by type, Colorless by any Energy; a Retreat Cost is paid
by discarding Energy, never more than it needs."""

from __future__ import annotations

from engine_tables import FIRE, GRASS, MON, game, player, table

from assistant.cards import Card
from assistant.engine.actions import Attach
from assistant.engine.energy import cheapest_payment, cost_paid, retreat_payment_problem
from assistant.engine.model import Slot

DOUBLE = Card("Double Colorless Energy", "Energy", ("Special",), id="dce", provides=("Colorless", "Colorless"))


def test_one_energy_from_the_hand_per_turn() -> None:
    g = game(table(player(hand=[GRASS, FIRE])))
    assert g.play(Attach(card=GRASS, target=("A", 0))).accepted
    assert g.play(Attach(card=FIRE, target=("A", None))).reason == "energy-already-attached"


def test_only_energy_cards_attach() -> None:
    assert game(table(player(hand=[MON]))).play(Attach(card=MON, target=("A", None))).reason == "not-energy"


def test_typed_symbols_need_their_type_and_colorless_takes_any() -> None:
    assert cost_paid(("Fire", "Colorless"), [FIRE, GRASS])
    assert not cost_paid(("Fire", "Colorless"), [GRASS, GRASS])
    assert cost_paid(("Colorless", "Colorless"), [DOUBLE])
    assert not cost_paid(("Grass", "Colorless", "Colorless"), [DOUBLE])


def test_a_retreat_cost_is_paid_without_overpaying() -> None:
    """003:740-760: discard until the cost is covered; the last card may overpay."""
    assert retreat_payment_problem(1, [DOUBLE], [DOUBLE]) == ""
    assert "more Energy" in retreat_payment_problem(1, [GRASS, FIRE], [GRASS, FIRE])
    assert "needs 2" in retreat_payment_problem(2, [GRASS], [GRASS, FIRE])
    assert "not attached" in retreat_payment_problem(1, [FIRE], [GRASS])


def test_the_cheapest_payment_uses_single_energy_first() -> None:
    slot = Slot(MON, energy=[DOUBLE, GRASS])
    assert cheapest_payment(slot, 1) == (GRASS,)
    assert cheapest_payment(slot, 2) == (GRASS, DOUBLE)
