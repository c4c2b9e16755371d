"""The Grim Harlequinn Fae: tricksters of masks and curses (all of it our design).

Six of its cards have a different card back (the rulebook's one fact about this warband):
Masked Reveller x2 and Veil of Masks x2 (added earlier, in ``cards.py``), Changeling and
Mirror Step here.
"""

from __future__ import annotations

from siege.games.castle_assault.card_model import command, unit

F = "fae"


def add_cards() -> None:
    unit("Thornling Sprite", F, 1, 3, 2, 0, 2, "Quick.", quick=True)
    unit("Grim Jester", F, 2, 2, 2, 0, 3,
         "Gloat 2: +2 Attack while the Curse token lies on an opposing unit.", gloat=2)
    unit("Hexweaver", F, 3, 1, 2, 0, 4,
         "Hex Aura 2: opposing units in the square in front of it and the square behind have "
         "-1 Attack.", aura={"size": 2, "stat": "attack", "amount": -1, "foes": True})
    unit("Bramble Knight", F, 3, 2, 3, 1, 4,
         "Stalwart 2: +2 Armor while it stands in its own castle area.", stalwart=2)
    unit("Will-o'-Wisp", F, 2, 3, 2, 0, 2, "Phase. Haste.", phase=True, haste=True)
    unit("Pixie Archers", F, 2, 2, 2, 0, 2, "Action: Ranged Adjacent (1-3).",
         ranged={"low": 1, "high": 3, "spread": True})
    unit("Moonlit Dryad", F, 2, 1, 1, 1, 4, "Aura 4: friendly units gain +1 Armor.",
         aura={"size": 4, "stat": "armor", "amount": 1})
    unit("Changeling", F, 2, 2, 2, 0, 2, "Resurrection. A different card back.",
         resurrection=True, marked_back=True)
    unit("Harlequinn Duelist", F, 4, 2, 3, 1, 4, "Blooded 2: +2 Attack while it is damaged.",
         blooded=2)
    unit("Vaelith, the Masque Lord", F, 5, 2, 4, 1, 6,
         "Lord. Hex Aura 4: opposing units within 2 squares ahead or behind have -1 Armor.",
         lord=True, aura={"size": 4, "stat": "armor", "amount": -1, "foes": True})
    unit("Nightmare Steed", F, 4, 4, 3, 0, 3, "Consume. Haste.", consume=True, haste=True)
    unit("Keening Banshee", F, 5, 1, 2, 0, 4,
         "Epic. Action: Burn, Ranged Adjacent (1-4): hits every unit in range, friend or foe.",
         epic=True, ranged={"low": 1, "high": 4, "spread": True, "blast": True})
    command("Mirror Step", F, 1, "command", "blink", "friendly_unit", 0,
            "Move a friendly unit sideways to any free square of its row, passing over "
            "whatever stands between (it may engage there). A different card back.",
            marked_back=True)
    command("Mischief", F, 1, "command", "shove", "enemy_unit", 1,
            "Move an opposing unit 1 space sideways into a free square (it may engage there).")
    command("Vanish", F, 3, "command", "bounce", "enemy_unit", 0,
            "Return an opposing unit (not a hero) to its owner's hand; its attachments are "
            "discarded.")
    command("Wither", F, 1, "instant", "weaken", "enemy_unit", 2,
            "Instant: an opposing unit has -2 Attack this turn.")
    command("Hex Bolt", F, 2, "instant", "damage_cursed", "enemy_unit", 1,
            "Instant: deal 1 damage to an opposing unit, or 3 if it carries the Curse token.")
    command("Evil Eye", F, 1, "command", "curse_now", "enemy_unit", 0,
            "Put the Curse token on an opposing unit now, when your hero could place it.")
