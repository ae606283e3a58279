"""Every sentence the site says about a game, as templates: events, phase names,
prompts' pieces and the calendar.

The same templates render the mails and notices (app.notices.words.narrate) and the game
log, battle board and replay viewer in the browser (static/words.js, which receives
`words_data()` as JSON). A template names its values in braces: `{unit}`; how a value is
written (a unit's identity, a box's name, a side) depends on its name, see FIELD_KINDS.

Sentences end with a full stop in the template; free text from the data (a reason, a
stored text) has its own final full stop removed before it is filled in, so that no
sentence ends with two.
"""
from __future__ import annotations

import functools
from typing import Any

SIDES = {"union": "Union", "confederate": "Confederate"}

# How a value is written, by its name in the event's data. Names not listed are written
# as they are. Events where a name means something else say so in FIELD_OVERRIDES.
FIELD_KINDS = {
    "unit": "unit", "target": "unit",
    "box": "box", "to": "box", "from": "box", "path": "path",
    "side": "side", "winner": "side", "attacker": "side", "to_act": "side",
    "leader": "leader", "leadership": "by_side", "options": "list", "by": "ways",
    "reason": "sentence", "text": "sentence", "state": "title",
}
FIELD_OVERRIDES = {
    "promoted": {"to": "unit"},
    "server.create": {"by": "plain"}, "server.create_rematch": {"by": "plain"},
    "server.abort": {"by": "plain"}, "server.rewind": {"by": "plain"},
    "server.adjudicate": {"by": "plain"}, "server.adjudicate_draw": {"by": "plain"},
    "server.annul": {"by": "plain"}, "server.timeout": {"by": "plain"}, "server.time_extended": {"by": "plain"},
    "server.rematch": {"by": "plain", "game_id": "plain"}, "server.decline_rematch": {"by": "plain"},
    "server.accept_rematch": {"by": "plain", "game_id": "plain"},
    "server.computer_takeover": {"by": "plain"},
}

# how a unit moved (the `by` of a move)
WAYS = {"road": "road", "rail": "rail", "river": "river", "sea": "sea"}

# "" means: nothing to say (another event of the same decision says it).
EVENTS = {
    # ------------------------------------------------------------ server events
    "server.create": "{by} created the game ({scenario}{options_note}).",
    "server.create_rematch": "{by} created a rematch of game {rematch_of} ({scenario}{options_note}).",
    "server.join": "{username} takes the {side} seat.",
    "server.start": "The game begins: the {to_act} player moves first.",
    "server.undo": "The {side} player took back a decision.",
    "server.resign": "{username} ({side}) resigns.",
    "server.abort": "{by} aborted the game.",
    "server.offer_draw": "{side} ({username}) offers a draw.",
    "server.accept_draw": "{side} ({username}) accepts the draw: the game is drawn.",
    "server.decline_draw": "{side} ({username}) declines the draw.",
    "server.rematch": "{by} asks for a rematch with sides swapped, playing the {side}: game {game_id}.",
    "server.decline_rematch": "{by} declines the rematch.",
    "server.accept_rematch": "{by} accepts the rematch: game {game_id}.",
    "server.rewind": ("An administrator ({by}) rewound the game to seq {back_to}: {reason}. "
                      "Seqs {to_seq}–{through_seq} are superseded."),
    "server.adjudicate": "An administrator ({by}) adjudicated the game: the {winner} wins. {reason}.",
    "server.adjudicate_draw": "An administrator ({by}) adjudicated the game: a draw. {reason}.",
    "server.annul": "An administrator ({by}) annulled the game: {reason}.",
    "server.auto": "Automatic ({side}): {action_type}.",
    # a forced move or a standing order's answer, said in the reader's language ("template" in
    # the event's data); older events carry their English sentence as "text"
    "server.auto_forced": "Automatic ({side}, the only legal choice): {choice}.",
    "server.auto_orders": "Standing orders ({side}: {order_words}): {choice}.",
    "server.timeout": "{by} ({winner}) claims the win on time: the {side} player did not move in time.",
    "server.time_extended": "{by} gives the {side} player {days} more days.",
    "server.computer_takeover": "{by} gives the {side} seat, left by its player, to {username}.",
    "server.text": "{text}.",
    "server.other": "{type}.",
    # ------------------------------------------------------------ decisions
    "action.activate": "{side} activates {box} (a March).",
    "action.move": "{unit} moves to {path} ({by}).",
    "action.sea_move": "{unit} moves by sea to {to}.",
    "action.invade": "{unit} makes a naval invasion of {to}.",
    "action.entrench": "{unit} entrenches.",
    "action.end_march": "{side} ends the March.",
    "action.end_movement": "{side} ends movement.",
    "action.fight": "",
    "action.withdraw": "",
    "action.stand": "The {side} cavalry stands and fights.",
    "action.retreat": "",
    "action.reinforce": "{unit} reinforces the battle{at_battle}{from_box}.",
    "action.open_fire": "{side} opens fire.",
    "action.target": "{unit} will fire at {target}.",
    "action.promote": "",
    "action.no_promotion": "{side} promotes nobody.",
    "action.roll_marches": "",
    "action.roll_recruits": "",
    "action.roll_replacements": "",
    "action.recruit": "",
    "action.end_recruitment": "{side} ends recruitment.",
    "action.refit": "",
    "action.supply_loss": "",
    "action.place_leader": "",
    "action.move_leader": "{leader} moves to {path}.",
    "action.reinforce_leader": "",
    "action.leader_bonus": "{side} gives {unit} a leader's +1.",
    "action.bonus_done": "{side} announces the leader pluses.",
    "action.rally": "",
    "action.no_rally": "{side} rallies nobody.",
    "action.contain": "",
    "action.end_combat": "{side} ends combat.",
    "action.breakout": "{side} breaks out of {box}.",
    "action.other": "{side}: {action_type}.",
    # ------------------------------------------------------------ dice
    "roll.marches": "{side} rolls {value}: {marches} marches{invasion_note}.",
    "roll.recruits": "{side} rolls {value}: {points} recruitment points.",
    "roll.replacements": "{side} rolls {value} for replacements (6.2).",
    "roll.fire.hit": "{unit}{at_battle} fires at {target}: {value}, hit (needs {need}).",
    "roll.fire.miss": "{unit}{at_battle} fires at {target}: {value}, miss (needs {need}).",
    "roll.washington": "{side} rolls {value} for the capture of Washington (A6.0).",
    "roll.leadership": "{side} rolls {value} for battlefield leadership, day {day} (A7.0).",
    "roll.morale": "{unit} tests its morale: {value}, modifier {modifier}, morale {morale} (A7.0).",
    "roll.desertion": "{unit} tests for desertion: {value}, modifier {modifier}, morale {morale} (A7.0).",
    "roll.border_support": "{side} rolls {value} for the support of {state}, modifier {modifier} (A8.3).",
    "roll.other": "{side} rolls {value} ({purpose}).",
    # ------------------------------------------------------------ what happened
    "player_turn": "Turn {turn} · {date} · {side} player turn",
    "battle": "Battle at {box}: the {attacker} attacks.",
    "battle_day": "Day {day} of the battle at {box}: leadership {leadership}.",
    "battle_leadership": "{side} leadership at {box}: {leadership}.",
    "reduced": "{unit} is reduced.",
    "eliminated": "{unit} is eliminated.",
    "impossible_shot": "{unit} cannot hit {target} (combat value below 1, 5.33).",
    "shot_wasted": "{unit} has no target left (5.1).",
    "garrison_destroyed": "The coastal defence of {box} is destroyed (A5.0).",
    "retreated": "The {side} retreats from {box} to {to}.",
    "routed_retreat": "The routed {side} units retreat from {box} to {to} (A8.1).",
    "withdrew": "The defending cavalry withdraws from {box} to {to}.",
    "battle_won": "The {winner} wins the battle of {box} (round {round}).",
    "promoted": "{unit} at {box} is promoted to {to}.",
    "recruited": "{unit} is recruited at {box}.",
    "refitted": "{unit} is refitted.",
    "drafted": "{unit} is drafted into the Recruitment Pool (7.2).",
    "captured": "The {side} captures {box}.",
    "control_reverts": "{box} reverts to its original owner.",
    "kentucky_entered": "{unit} violates Kentucky's neutrality.",
    "out_of_supply": "{unit} at {box} is out of supply and lost (A2.2).",
    "washington_captured": "Washington falls: the Union Army Maximum loses {loss}, {total} in all (A6.0).",
    "contained": "The Union contains the enemy at {box} (A4.0).",
    "routed": "{unit} routs (A8.1).",
    "rallied": "{unit} rallies (A8.1).",
    "deserted": "{unit} deserts (A7.0).",
    "foreign_intervention": "Foreign intervention: Europe sends forces to the Confederacy (A8.4).",
    "foreign_replaced": "{unit} returns to Europe to be sent again (A8.4).",
    "border_militia": "{state} rises for the Confederacy: {unit} joins the Recruitment Pool (A8.3).",
    "leader_placed": "{leader} takes command at {box} (value {value}).",
    "leader_caught": "{leader} is caught alone at {box} and returns later (8.2.2).",
    "leader_reinforces": "{leader} joins the battle at {box}.",
    "game_over": "Game over: the {winner} wins. {reason}.",
    "game_over_draw": "Game over: nobody wins. {reason}.",
    "other": "{type}.",
}

# Pieces of sentences that appear only when the event gives them something to say.
PARTS = {
    "options_note": ", options {options}",
    "at_battle": " at {box}",
    "from_box": " from {from}",
    "invasion_note": " and a naval invasion",
    "unit": "{side} {type} {number}",
    "earlier": "... ({count} earlier entries in the game log)",
    "first_turn": "Turn {turn} · {date} · {side} player turn",
    "first_turn_unknown": "The first Player Turn",
    "hit": "HIT", "miss": "miss",
    "crack_target": "crack target {n}", "entrenched": "entrenched −1", "river": "river +1",
    # the standing battle orders (app.playbyturn.orders), by their key
    "order_stand": "defending cavalry stands", "order_spread": "spread fire",
    "order_reduced": "finish reduced units first", "order_retreat_after_round": "retreat after round {round}",
    "order_outnumbered": "retreat when outnumbered", "order_never_reinforce": "never reinforce",
    "order_promote": "promote after a win", "order_no_promotion": "no promotion",
}

# Decisions too small for a mail: the log shows them in grey, notices leave them out.
MINOR = ["server.create", "action.end_march", "action.end_movement", "action.open_fire", "action.target",
         "action.no_promotion", "action.end_recruitment", "action.bonus_done", "action.no_rally",
         "action.end_combat", "action.other", "roll.other", "other", "server.other"]

# Which events mark something in the log's styling (the browser's CSS classes).
STYLE = {"battle": "ev-battle", "battle_won": "ev-battle", "eliminated": "loss", "captured": "capture",
         "game_over": "over", "game_over_draw": "over", "server.rewind": "over", "server.adjudicate": "over",
         "server.adjudicate_draw": "over", "server.annul": "over", "server.accept_draw": "over",
         "server.auto": "auto", "server.auto_forced": "auto", "server.auto_orders": "auto",
         "roll.fire.hit": "hit", "roll.fire.miss": "miss"}

PHASES = {
    "setup": "setup", "marches_roll": "roll for marches", "movement": "movement", "battle_choice": "combat",
    "battle": "combat", "promotion": "promotion", "recruit_roll": "recruitment", "recruitment": "recruitment",
    "replacement_roll": "replacements", "supply": "supply", "leaders": "leaders", "over": "game over",
}

STATUS = {
    "turn_info": "Turn {turn}", "player_turn": "{side} player turn",
    "marches_left": "{marches} march left", "marches_left_plural": "{marches} marches left",
    "battle_round": "battle of {box}, round {round}", "wins": "{winner} wins", "over": "over", "drawn": "a draw",
    "annulled": "annulled",
}


# The prompt above the map: "mine" to the player who decides, "theirs" to everyone else
# after "Waiting for the Union player (alice): ".
PROMPTS = {
    "open_mine": "Waiting for an opponent to join. Share the page's address (or the invitation link).",
    "open_theirs": "This game waits for a second player.",
    "over": "Game over. {winner_wins}{reason_note}", "winner_wins": "{winner} wins", "reason_note": ": {reason}",
    "drawn": "A draw",
    "annulled": "Annulled by an administrator, no result",
    "aborted": "This game was aborted.",
    "waiting": "Waiting for the {side} player{seat_note}: {doing}", "seat_note": " ({username})",
    "pick_target": "Choose the enemy unit that {unit} fires at (Esc to choose another shooter).",
    "pick_destination": "{unit}: choose a highlighted destination{entrench_note}. Esc cancels.",
    "entrench_note": ", or entrench", "sea_note": ", move a unit by sea",
    "marches_roll": {"mine": "Roll the die for your marches.", "theirs": "rolling for marches."},
    "movement.active": {"mine": "Marching from {active}: choose a unit, then a highlighted destination; "
                                "end the March when done.", "theirs": "marching from {active}."},
    "movement": {"mine": "{marches_left}: choose a highlighted box to activate it{sea_note}, or end movement.",
                 "theirs": "moving."},
    "battle_choice": {"mine": "Choose the next battle: pick a highlighted box.", "theirs": "choosing a battle."},
    "battle": {"mine": "battle.", "theirs": "battle."},
    "battle.withdraw": {"mine": "Your cavalry at {box} is attacked: withdraw to a highlighted box, or stand and fight.",
                        "theirs": "the defender decides whether to withdraw from {box}."},
    "battle.prepare": {"mine": "Battle of {box}, round {round}: retreat to a highlighted box, reinforce with a "
                               "highlighted unit, or open fire.", "theirs": "preparing round {round} at {box}."},
    "battle.target": {"mine": "Battle of {box}, round {round}: choose one of your units, then the enemy it fires at "
                              "({assigned} of {shooters} assigned).",
                      "theirs": "assigning targets at {box} (round {round})."},
    "battle.promote": {"mine": "You won at {box}: choose a highlighted unit to promote it, or no promotion.",
                       "theirs": "promoting after the battle of {box}."},
    "battle.bonus": {"mine": "Battle of {box}: give your leaders' pluses (+1 each), then announce them (A8.2).",
                     "theirs": "announcing leader pluses at {box}."},
    "battle.rally": {"mine": "End of a battle day at {box}: rally one routed unit, or none (A8.11).",
                     "theirs": "rallying at {box}."},
    "battle.rout_retreat": {"mine": "Your routed units at {box} must retreat: choose a box (A8.1).",
                            "theirs": "routed units retreat from {box}."},
    "promotion": {"mine": "Promotion: choose a highlighted unit to promote it, or no promotion.",
                  "theirs": "promoting."},
    "recruit_roll": {"mine": "Roll the die for recruitment points.", "theirs": "rolling for recruits."},
    "recruitment": {"mine": "{points} recruitment point(s): choose a highlighted city to recruit, or end recruitment.",
                    "theirs": "recruiting."},
    "replacement_roll": {"mine": "Roll for replacements (6.2).", "theirs": "rolling for replacements."},
    "supply": {"mine": "{supply_box} is out of supply: choose the piece it loses (A2.2).",
               "theirs": "checking supply."},
    "leaders": {"mine": "Place your arriving or returning leader on a box with your units (A8.2).",
                "theirs": "placing a leader."},
}

# The buttons and choices that carry out a legal action.
CHOICES = {
    "move": "Move to {dest} by {by_words}{via_note}", "via_note": " via {via}", "by_joiner": " and ",
    "sea_move": "Move by sea to {to}", "invade": "Naval invasion of {to}", "entrench": "Entrench {unit}",
    "recruit": "Recruit {unit_type} at {box}", "activate": "Activate {box}", "fight": "Fight at {box}",
    "withdraw": "Withdraw to {to}", "retreat": "Retreat to {to}", "reinforce": "Reinforce with {unit}",
    "promote": "Promote {unit}", "refit": "Refit {unit}", "target": "{unit} fires at {target}",
    "roll_marches": "Roll for marches", "roll_recruits": "Roll for recruits",
    "roll_replacements": "Roll for replacements", "end_march": "End march", "end_movement": "End movement",
    "open_fire": "Open fire", "stand": "Stand and fight", "no_promotion": "No promotion",
    "end_recruitment": "End recruitment", "supply_loss": "Out of supply: remove {unit}",
    "place_leader": "Place {leader} at {box}", "move_leader": "{leader} to {dest}{sea_note}", "sea_note": " by sea",
    "reinforce_leader": "{leader} joins the battle", "leader_bonus": "+1 to {unit}", "bonus_done": "Pluses announced",
    "rally": "Rally {unit}", "no_rally": "No rally", "contain": "Contain the enemy at {box}",
    "end_combat": "End combat", "breakout": "Break out of {box} (one march)",
}

# What a notice says first (the rest is what happened since the player's last move).
NOTICES = {
    "turn": "Game {game}: your turn ({side}).",
    "battle": "Game {game}: a battle decision waits for you ({side}).",
    "choice": "Game {game}: retreat, reinforce or fire on? ({side})",
    "resigned": "Game {game}: your opponent resigned. You win.",
    "aborted": "Game {game} was aborted.",
    "game_over": "Game {game} is over: {winner} wins. {reason}",
    "drawn": "Game {game} is over: a draw, by agreement.",
    "draw_offer": "Game {game}: {who} offers you a draw. Accept or decline it on the game page.",
    "rematch": "Game {game}: {who} asks for a rematch with sides swapped: join game {new_game}.",
    "since": "Since your last move:",
    "vacation": "Game {game}: your opponent {who} is on vacation until {until}; their clock is paused until then.",
}


MODES = {"live": "Live", "async": "By turn"}

# the parts of words_data() that are names and sentences (the rest is data: keys, styles)
TRANSLATED_PARTS = ("sides", "events", "parts", "phases", "status", "prompts", "choices", "notices", "modes",
                    "ways", "unit_types")


@functools.cache
def words_data(lang: str = "en") -> dict[str, Any]:
    """Everything above as one JSON-ready dict in one language: what the page receives,
    with the page scripts' own words (`ui`, the client catalogue)."""
    from rules_engine import calendar
    from rules_engine.advanced import tables
    from rules_engine.data import pieces

    from ...i18n import client_words, translator
    english = {
        "sides": SIDES, "fields": FIELD_KINDS, "field_overrides": FIELD_OVERRIDES,
        "events": EVENTS, "parts": PARTS, "minor": MINOR, "style": STYLE,
        "phases": PHASES, "status": STATUS, "prompts": PROMPTS,
        "choices": CHOICES, "notices": NOTICES, "modes": MODES, "ways": WAYS,
        "unit_types": {code: t["name"] for code, t in pieces()["types"].items()},
        "leaders": {lid: info["name"] for lid, info in tables()["leaders"].items()},
        "calendar": [{"turn": n, "year": y, "months": m, "label": calendar.label(n)}
                     for n, (y, m) in enumerate(calendar.track(), start=1)],
    }
    t = translator(lang)
    said = {k: translated(v, t.gettext) if k in TRANSLATED_PARTS else v for k, v in english.items()}
    return {**said, "lang": t.lang, "ui": client_words(t.lang)}


def translated(value: Any, gettext: Any) -> Any:
    if isinstance(value, str):
        return gettext(value) if value else value
    if isinstance(value, dict):
        return {k: translated(v, gettext) for k, v in value.items()}
    if isinstance(value, list):
        return [translated(v, gettext) for v in value]
    return value
