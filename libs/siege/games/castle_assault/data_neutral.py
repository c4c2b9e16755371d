"""The neutral commands after Shift, Ranged Blessing and Flight (those three are in
``cards.py``): eighteen more, all our design. Any warband's deck may hold them."""

from __future__ import annotations

from siege.games.castle_assault.card_model import command

N = "neutral"


def add_cards() -> None:
    command("Rallying Horn", N, 2, "command", "momentum_max", "player", 0,
            "Move the Momentum Meter to Max on your side.")
    command("Repel", N, 1, "instant", "push", "enemy_unit", 2,
            "Instant: push an opposing unit up to 2 spaces back toward its own castle, through "
            "free battlefield squares only.")
    command("Swift Boots", N, 1, "attachment", "movement", "friendly_unit", 1,
            "Attachment: the unit gains +1 Movement.")
    command("Knight's Panoply", N, 3, "attachment", "panoply", "friendly_unit", 1,
            "Attachment: the unit gains +1 Attack and +1 Armor.")
    command("Shield Wall", N, 2, "instant", "team_armor", "player", 1,
            "Instant: every friendly unit gains +1 Armor this turn.")
    command("Battle Cry", N, 2, "command", "team_attack", "player", 1,
            "Every friendly unit gains +1 Attack this turn.")
    command("Cut Supply Lines", N, 1, "instant", "exhaust", "player", 2,
            "Instant: your opponent exhausts up to 2 of their Ready resources.")
    command("Assassin's Blade", N, 2, "command", "destroy_cheap", "enemy_unit", 2,
            "Destroy an opposing unit (not a hero) that costs 2 or less.")
    command("Dark Pact", N, 0, "command", "sacrifice", "friendly_unit", 2,
            "Destroy one of your own units (not your hero) and draw 2 cards.")
    command("Purify", N, 1, "instant", "cleanse", "friendly_unit", 0,
            "Instant: the Curse token leaves your unit; it passes to your hero.")
    command("Cataclysm", N, 3, "command", "damage_all", "", 1,
            "Deal 1 damage to every unit on the battlefield, friend or foe.")
    command("Calm Skies", N, 1, "command", "clear_ongoing", "", 0,
            "Discard the Ongoing Environment card in effect.")
    command("Battle Trance", N, 2, "command", "extra_action", "friendly_unit", 0,
            "A friendly unit that has taken its Unit Action this turn may take one more.")
    command("Raise the Fallen", N, 2, "command", "recover", "player", 0,
            "Return the Unit card most recently put in your discard pile to your hand.")
    command("Hidden Cache", N, 1, "command", "ready", "player", 2,
            "Ready up to 2 of your exhausted resources.")
    command("Sabotage the Gate", N, 4, "command", "damage_castle", "castle", 2,
            "Deal 2 damage to the opposing castle.")
    command("Retreat", N, 1, "instant", "bounce_own", "friendly_unit", 0,
            "Instant: return one of your units (not your hero) to your hand; its attachments "
            "are discarded.")
    command("Ambush", N, 2, "instant", "ambush", "enemy_unit", 0,
            "Instant: an opposing unit touching the front of one of your units takes damage "
            "equal to that unit's Attack.")
