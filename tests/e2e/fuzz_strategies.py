"""What the fuzz throws at the commands streams of its two clients (``commands_key(sender)``):
hypothesis strategies for random bytes, entries with missing or extra fields, msgpack maps with
unknown tags and wrong field types, random well-typed commands (many naming another client than
their sender), spoofed notices, and validly signed but illegal, out-of-turn, stale, duplicate or
oversized actions; and the inputs that must be in every run, among them the attacks of issue 18
("a bus no client can break"): acting, joining and creating as another client, and creating an
id another client created."""

from __future__ import annotations

import itertools
import random
from typing import Any

import msgspec
from fuzz_model import (
    FINISHED,
    FUZZER,
    FUZZER_B,
    GAMES,
    LIVE,
    LOBBY,
    SENDERS,
    Fields,
    Known,
    Model,
)
from hypothesis import strategies as st

from siege.contracts.messages import (
    MAX_ACTION_BYTES,
    ActionRejected,
    CommandRefused,
    CreateMatch,
    JoinMatch,
    LogAppended,
    MatchFinished,
    Message,
    RegisterEntrant,
    SeatGranted,
    SeatPrompted,
    SubmitAction,
)
from siege.contracts.rejections import RejectionCode
from siege.engine.registry import get_engine
from siege.hosting.lobby import OPEN
from siege.hosting.seats import seat_token

BIG = 1 << 20
MSGPACK_INT = st.integers(min_value=-(1 << 63), max_value=(1 << 64) - 1)
# Nesting depths far from where msgspec gives up in a service (about 970), so that the small
# difference between the stacks of the test and of a service never decides a prediction.
DEPTHS = st.integers(10, 700) | st.integers(1300, 100_000)
_encode = msgspec.msgpack.encode


def deeply_nested(message: Any, depth: int) -> bytes:
    """``message`` as a msgpack map with one more field: ``depth`` arrays, one in the other."""
    fields = msgspec.msgpack.decode(_encode(message))
    body = b"".join(_encode(k) + _encode(v) for k, v in fields.items())
    head = bytes([0x80 | (len(fields) + 1)]) if len(fields) < 15 else b"\xde" + (
        len(fields) + 1).to_bytes(2, "big")
    return head + body + _encode("zz") + b"\x91" * depth + b"\xc0"


def fits(obj: Any) -> bool:
    """Whether msgpack can carry it (hypothesis draws integers beyond 64 bits)."""
    try:
        _encode(obj)
    except OverflowError:
        return False
    return True


def strategies(model: Model, tokens: dict[tuple[str, int], str]) -> st.SearchStrategy[Any]:
    """Everything thrown at the commands streams, as (fields, note, sender)."""
    known_ids = sorted(model.known)
    ids = [*known_ids, LOBBY]
    texts = st.text(max_size=24)
    weird_ids_list = ["", "{s1}:log:fz-live-a", "a\tb\t0", "t-0123456789ab", "x" * 5000,
                      "fz-live-a ", "FZ-LIVE-A", "\ufffd\u202e"]
    weird_ids = st.sampled_from(weird_ids_list)
    pool = st.sampled_from([f"fzc-{i}" for i in range(3)])  # created and joined by the fuzz
    match_ids = st.one_of(st.sampled_from(ids), texts.map(lambda s: "fzr-" + s), weird_ids, pool)
    clients = st.one_of(
        st.sampled_from([FUZZER, FUZZER_B, "", "bad client", "a" * 65, "x{y}", "c:1", "*",
                         "é"]),
        st.from_regex(r"[A-Za-z0-9_.-]{1,12}", fullmatch=True), texts,
        st.sampled_from(model.known[FINISHED].holders))
    games = st.one_of(st.sampled_from([*GAMES, "", "chess", "CASTLE-DASH"]), texts)
    names = st.lists(st.text(max_size=8), max_size=8)
    options = st.dictionaries(st.sampled_from(["x", "speed", ""]) | st.text(max_size=6),
                              st.text(max_size=8), max_size=3)
    random_actions = st.one_of(st.binary(max_size=64), st.just(b""),
                               st.sampled_from([b"\x00" * (MAX_ACTION_BYTES + 1), b"\x00" * BIG]))
    decisions = MSGPACK_INT
    values = st.recursive(
        st.none() | st.booleans() | MSGPACK_INT | st.floats() | st.text(max_size=10)
        | st.binary(max_size=10),
        lambda inner: st.lists(inner, max_size=3)
        | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=6)
    counter = itertools.count()

    def command_id(suffix: str = "") -> str:
        return f"fz{next(counter)}{suffix}"

    # -- well-typed random commands ------------------------------------------------------------
    create = st.builds(CreateMatch, match_id=match_ids, game=games,
                       seat_names=names | st.just(["big" * (BIG // 9)] * 3),
                       options=options, client=clients, clients=st.lists(clients, max_size=7))
    # Creates that may well succeed: new matches and lobbies appear during the barrage.
    timeouts = st.sampled_from(["0", "-5", "1500", "abc", "", "1e3"]) | st.integers(
        -10, 10**12).map(str)
    valid_create = st.builds(
        CreateMatch, match_id=pool | match_ids, game=st.sampled_from(GAMES),
        seat_names=st.lists(st.text(max_size=8), min_size=2, max_size=4),
        options=st.dictionaries(st.sampled_from(["decision_timeout_ms", "x"]), timeouts,
                                max_size=2),
        client=st.sampled_from([FUZZER, ""]) | clients,
        clients=st.just([]) | st.lists(st.sampled_from([OPEN, FUZZER]) | clients, min_size=2,
                                       max_size=4))
    join = st.builds(JoinMatch, match_id=pool | match_ids, client=clients,
                     seat=st.sampled_from([-1, 0, 1, 2, 3, 7, -2]) | MSGPACK_INT,
                     name=st.text(max_size=10))
    register = st.builds(RegisterEntrant, tournament_id=texts, client=clients, name=texts)
    unsigned = st.builds(
        SubmitAction, match_id=match_ids, seat=MSGPACK_INT, decision=decisions,
        command_id=st.builds(command_id, texts), action=random_actions,
        token=st.one_of(texts, st.sampled_from(sorted(tokens.values())),
                        st.sampled_from(sorted(tokens.values())).map(str.upper)),
        client=clients)
    notices = st.one_of(
        st.builds(LogAppended, match_id=st.sampled_from(ids), first=MSGPACK_INT,
                  last=MSGPACK_INT, reannounce=st.booleans()),
        st.builds(MatchFinished, match_id=st.sampled_from(ids), game=games, seat_names=names,
                  ranks=st.lists(MSGPACK_INT, max_size=5)),
        st.builds(SeatGranted, match_id=st.sampled_from(ids), game=games, seat=MSGPACK_INT,
                  token=texts, stream=texts),
        st.builds(ActionRejected, match_id=st.sampled_from(ids), seat=MSGPACK_INT,
                  command_id=texts, code=st.sampled_from(RejectionCode)),
        st.builds(CommandRefused, command=texts, subject=texts,
                  code=st.sampled_from(RejectionCode)),
        st.builds(SeatPrompted, match_id=st.sampled_from(ids), seat=MSGPACK_INT,
                  decision=decisions, view=st.just(msgspec.Raw(b"\x80")),
                  legal=st.just([msgspec.Raw(b"\xc0")])),
    )

    # -- validly signed commands that must be refused -------------------------------------------
    live_ids = sorted(m for m in known_ids if not model.known[m].over)
    out_of_range = [7, -1, (1 << 64) - 1, -(1 << 63)]

    def perturbed(action: Any) -> st.SearchStrategy[bytes]:
        """A legal action with one field changed: mostly illegal, sometimes another legal one."""
        spelt = msgspec.to_builtins(action)
        keys = sorted(k for k in spelt if k != "t")
        if not keys:
            return st.just(_encode({**spelt, "t": spelt["t"] + "x"}))
        return st.tuples(st.sampled_from(keys), values).map(
            lambda kv: _encode({**spelt, kv[0]: kv[1]}))

    @st.composite
    def signed(draw: st.DrawFn) -> SubmitAction:
        """A SubmitAction with a valid token for its match and seat: the match service passes
        it on, and the rules service must refuse it with the right code."""
        intent = draw(st.sampled_from(
            ["illegal"] * 4 + ["stale", "turn", "seat", "over", "duplicate", "unknown", "any"]))
        if intent in ("illegal", "stale", "turn", "seat", "duplicate"):
            match_id = draw(st.sampled_from(live_ids))
        elif intent == "over":
            match_id = FINISHED
        elif intent == "unknown":
            match_id = draw(st.sampled_from([LOBBY, *weird_ids_list])
                            | st.uuids().map(lambda u: f"ghost-{u.hex}"))
        else:
            match_id = draw(st.sampled_from(ids) | match_ids)
        k = model.known.get(match_id)
        game = k.game if k else draw(st.sampled_from(GAMES))
        players = k.players if k else 3
        pending = sorted(k.pending) if k else [0]
        waiting = [s for s in range(players) if s not in pending] or pending
        current = k.decision if k else 1
        seat = draw({
            "illegal": st.sampled_from(pending), "stale": st.sampled_from(pending),
            "turn": st.sampled_from(waiting), "seat": st.sampled_from([players, *out_of_range]),
        }.get(intent, st.integers(0, players - 1) | st.sampled_from(out_of_range)))
        other_decisions = st.sampled_from([current - 1, current + 1, 0, -1, 1 << 40]) | decisions
        if intent == "stale":
            decision = draw(other_decisions)
        elif intent in ("illegal", "turn", "seat"):
            decision = current
        else:
            decision = draw(st.just(current) | other_decisions)
        engine = get_engine(game)
        other_game = draw(st.sampled_from([g for g in GAMES if g != game]))
        legal_here = [a for acts in (k.legal.values() if k else ()) for a in acts]
        typed = st.sampled_from(engine.action_types).flatmap(st.builds).filter(fits)
        foreign = st.sampled_from(get_engine(other_game).action_types).flatmap(
            st.builds).filter(fits)
        objects = [typed, foreign] + ([st.sampled_from(legal_here)] if legal_here else [])
        encoded = st.one_of(*objects).map(_encode)
        # An unknown field added: an equal action to msgspec, which ignores unknown fields.
        respelt = st.one_of(*objects).map(lambda a: _encode({**msgspec.to_builtins(a), "zz": 1}))
        nested = st.tuples(st.one_of(*objects), DEPTHS).map(
            lambda p: deeply_nested(p[0], p[1]))
        actions = [encoded, respelt, nested, random_actions]
        if legal_here:
            actions.append(st.sampled_from(legal_here).flatmap(perturbed))
        action = draw(st.one_of(*actions))
        accepted = [a.command_id for a in k.accepted] if k else []
        cid = draw(st.sampled_from(accepted) if intent == "duplicate" and accepted
                   else st.builds(command_id, texts))
        # Mostly the sender's own ("" is, and the fuzzer is when it sends), so most signed
        # commands get past the stream's attribution to the game's checks.
        own = st.sampled_from(["", FUZZER])
        client = draw(st.one_of(own, own, own, clients))
        return SubmitAction(match_id=match_id, seat=seat, decision=decision, command_id=cid,
                            action=action, token=seat_token(model.secret, match_id, seat),
                            client=client)

    typed_commands = st.one_of(create, valid_create, join, register, unsigned, signed(), notices)

    # -- bytes that are not (quite) messages ----------------------------------------------------
    tags = st.one_of(st.sampled_from(["cmd.launch_rockets", "cmd.submit_action ", "",
                                      "CMD.JOIN_MATCH", "note.log_appended", "cmd.create_match"]),
                     texts, values)

    @st.composite
    def mangled(draw: st.DrawFn) -> bytes:
        """A real command as a msgpack map, with one field changed, dropped or added."""
        base: dict[str, Any] = msgspec.msgpack.decode(_encode(draw(typed_commands)))
        key = draw(st.sampled_from(sorted(base)))
        how = draw(st.sampled_from(["retype", "drop", "add", "tag", "not a map"]))
        if how == "retype":
            base[key] = draw(values)
        elif how == "drop":
            del base[key]
        elif how == "add":
            base[draw(texts)] = draw(values)
        elif how == "tag":
            base["t"] = draw(tags)
        else:
            return _encode(draw(st.lists(values, max_size=4) | values))
        return _encode(base)

    def as_fields(message: Message) -> Fields:
        return {b"m": _encode(message)}

    big_blob = st.integers(0, 2**32).map(lambda n: random.Random(n).randbytes(BIG))
    raw = st.one_of(
        st.binary(max_size=200).map(lambda b: ({b"m": b}, "random bytes")),
        big_blob.map(lambda b: ({b"m": b}, "1 MB of random bytes")),
        st.dictionaries(st.binary(max_size=4).filter(lambda k: k != b"m"), st.binary(max_size=30),
                        min_size=1, max_size=3).map(lambda f: (f, "no m field")),
        st.tuples(st.sampled_from([b"M", b"m ", b"msg"]), typed_commands).map(
            lambda p: ({p[0]: _encode(p[1])}, "a command under the wrong field")),
        mangled().map(lambda b: ({b"m": b}, "a mangled msgpack map")),
        big_blob.map(lambda b: ({b"m": _encode({"t": "cmd.join_match", "match_id": b,
                                                "client": FUZZER})}, "1 MB of wrong type")),
        st.tuples(typed_commands, DEPTHS).map(
            lambda p: ({b"m": deeply_nested(p[0], p[1])}, "a deeply nested command")),
    )
    extra = st.one_of(
        st.tuples(typed_commands, st.dictionaries(st.binary(min_size=1, max_size=4).filter(
            lambda k: k != b"m"), st.binary(max_size=30), min_size=1, max_size=3)).map(
            lambda p: ({**as_fields(p[0]), **p[1]}, "a command with extra fields")),
        st.tuples(st.sampled_from(ids).map(str.encode) | st.binary(max_size=8),
                  st.binary(max_size=6), st.binary(max_size=6) | st.none()).map(
            lambda p: ({b"m": p[0], b"f": p[1], **({b"l": p[2]} if p[2] is not None else {})},
                       "a shard-bus pointer on the command stream")),
    )
    kinds = {
        "raw": raw, "extra": extra,
        "typed": typed_commands.map(lambda m: (as_fields(m), f"typed {type(m).__name__}")),
        "signed": signed().map(lambda m: (as_fields(m), "signed SubmitAction")),
    }
    # Signed commands are the only ones that reach the game: give them a good share.
    entries = st.sampled_from(["raw", "raw", "extra", "typed", "typed", "signed", "signed",
                               "signed"]).flatmap(kinds.__getitem__)
    # Mostly the fuzzer, which holds the seats (so its signed commands get far); sometimes the
    # second client, which holds nothing and whose every "client": "fuzzer" is an impostor's.
    senders = st.sampled_from([FUZZER, FUZZER, FUZZER, *SENDERS])
    return st.tuples(entries, senders).map(lambda p: (*p[0], p[1]))


def explicit_shots(model: Model,
                   tokens: dict[tuple[str, int], str]) -> list[tuple[Fields, str, str]]:
    """Inputs that must be in every run, whatever hypothesis draws, as (fields, note, sender)."""
    live = model.known["fz-live-b"]
    seat = min(live.pending)
    legal = _encode(live.legal[seat][0])
    # A seat not asked now (every seat may be asked at once, as for Castle Dash's cannonballs).
    idle_seats = [(k, s) for k in (model.known[m] for m in LIVE) for s in range(k.players)
                  if s not in k.pending]
    done = model.known[FINISHED]
    lobby = model.lobby_create
    assert lobby is not None

    def submit(note: str, sender: str = FUZZER, **changes: Any) -> tuple[Fields, str, str]:
        base = {"match_id": live.match_id, "seat": seat, "decision": live.decision,
                "command_id": f"explicit-{note}", "action": legal,
                "token": tokens[live.match_id, seat], "client": FUZZER}
        base.update(changes)
        if "token" not in changes:
            base["token"] = seat_token(model.secret, base["match_id"], base["seat"])
        return {b"m": _encode(SubmitAction(**base))}, note, sender

    def command(message: Message, note: str, sender: str = FUZZER) -> tuple[Fields, str, str]:
        return {b"m": _encode(message)}, note, sender

    def recreate(k: Known | None, note: str, sender: str = FUZZER, **changes: Any) -> tuple[
            Fields, str, str]:
        """The create that made ``k`` (the lobby for None) again, with ``changes``."""
        base: dict[str, Any] = (
            {"match_id": k.match_id, "game": k.game, "options": k.options,
             "seat_names": [f"s{i}" for i in range(k.players)], "client": ""} if k else
            {"match_id": lobby.match_id, "game": lobby.game, "options": lobby.options,
             "seat_names": list(lobby.seat_names), "clients": list(lobby.clients),
             "client": ""})
        base.update(changes)
        return command(CreateMatch(**base), note, sender)

    b = FUZZER_B
    return [
        ({b"m": b"\xc1\xff not msgpack"}, "garbage", FUZZER),
        ({b"m": b""}, "empty m", b),
        ({b"m": _encode({"t": "cmd.launch_rockets"})}, "unknown tag", FUZZER),
        ({b"x": b"no message field"}, "no m", b),
        ({b"c": FUZZER.encode()}, "a doorbell on a client's stream", b),
        ({b"m": b"\x00" * BIG}, "1 MB m", FUZZER),
        ({b"m": _encode({"t": "cmd.submit_action", "seat": "one"})}, "wrong field type", FUZZER),
        submit("stale", decision=live.decision - 1),
        submit("future", decision=live.decision + 1),
        *[submit("not your turn", match_id=k.match_id, seat=s, decision=k.decision)
          for k, s in idle_seats[:1]],
        submit("unknown seat", seat=live.players),
        submit("illegal", action=_encode({"t": "cd.place_soldiers", "opponent": 99,
                                          "count": -5})),
        submit("garbage action", action=b"\xc1"),
        submit("oversized", action=legal + b"\x00" * MAX_ACTION_BYTES),
        submit("wrong token", token=tokens[live.match_id, (seat + 1) % live.players]),
        submit("no client", client="", decision=live.decision + 1),
        submit("bad client", client="not a client", action=b"\xc1"),
        submit("unknown match", match_id="ghost-explicit"),
        submit("lobby", match_id=LOBBY, seat=0),
        submit("duplicate", command_id=live.accepted[0].command_id),
        submit("over", match_id=FINISHED, seat=0, decision=1),
        submit("replayed", match_id=FINISHED, seat=done.accepted[-1].seat,
               decision=done.accepted[-1].decision, command_id=done.accepted[-1].command_id,
               action=bytes(done.accepted[-1].action)),
        command(JoinMatch(match_id=live.match_id, client=""), "join running", b),
        command(JoinMatch(match_id="ghost-join", client=b), "join unknown", b),
        command(JoinMatch(match_id=LOBBY, client="", seat=0), "join taken", b),
        command(JoinMatch(match_id=LOBBY, client=b, seat=9), "join no seat", b),
        command(JoinMatch(match_id=live.match_id, client=FUZZER), "rejoin"),
        command(JoinMatch(match_id=LOBBY, client=""), "rejoin the lobby"),
        command(CreateMatch(match_id="fz-new-1", game="chess", seat_names=["a", "b"],
                            client=""), "unknown game", b),
        command(CreateMatch(match_id="fz-new-2", game="mission", seat_names=["a"], client=b),
                "bad seats", b),
        command(CreateMatch(match_id="fz-new-3", game="mission", seat_names=["a", "b"],
                            client="", clients=[b, "x y"]), "bad holder", b),
        command(LogAppended(match_id=live.match_id, first=1, last=1, reannounce=True),
                "spoofed pointer", b),
        ({b"m": live.match_id.encode(), b"f": b"1", b"l": b"1"}, "bus pointer fields", FUZZER),
        # -- issue 18: no client acts as another, or takes another's match id ------------------
        # A legal action of the fuzzer's seat, with its token, sent by the other client in the
        # fuzzer's name: were the field believed, it would be accepted.
        submit("act as another", sender=b),
        submit("act as another, stale", sender=b, decision=live.decision - 1),
        submit("act as the other", client=b, action=b"\xc1"),
        submit("act as a finished match's holder", sender=b, match_id=FINISHED, seat=0,
               decision=1, client=done.holders[0]),
        command(JoinMatch(match_id=live.match_id, client=FUZZER), "join as another", b),
        command(JoinMatch(match_id=LOBBY, client=FUZZER), "join the lobby as another", b),
        # Were the field believed, this would take a seat of the lobby for the other client.
        command(JoinMatch(match_id=LOBBY, client=b), "take a seat as another"),
        command(RegisterEntrant(tournament_id="t-0123456789ab", client=FUZZER),
                "register as another", b),
        command(CreateMatch(match_id="fz-new-4", game="mission", seat_names=["a", "b"],
                            client=FUZZER), "create as another", b),
        recreate(live, "create another's id", b),
        recreate(live, "create another's id in its name", b, client=FUZZER),
        recreate(None, "create another's lobby id", b, clients=[b, OPEN, OPEN]),
        recreate(None, "create another's lobby id naming it a holder", b),
        command(CreateMatch(match_id="fz-new-5", game="mission", seat_names=["a", "b"],
                            client="", clients=[b, FUZZER]), "name another as a holder", b),
        recreate(done, "create a finished match's id"),
        recreate(model.known["fz-live-a"], "create over with other options", options={}),
        recreate(model.known["fz-live-c"], "create over with another game", game="castellum"),
        recreate(model.known["fz-live-d"], "create over with more seats",
                 seat_names=["a", "b", "c", "d"]),
        recreate(None, "create the lobby with other options", options={}),
        recreate(None, "create the lobby with more seats", seat_names=["a", "b", "c", "d"],
                 clients=[*lobby.clients, OPEN]),
        recreate(live, "create again"),
        recreate(None, "create the lobby again"),
    ]
