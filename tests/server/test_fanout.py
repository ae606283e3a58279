"""How one game's changes reach its sockets (app.realtime.channel), with recording
transports instead of network sockets: the players' sockets at once; the watchers'
sockets the changes of a burst in one write, the same bytes for every watcher; a
quiet spell's change at once; a message written to a watcher after held changes comes
after them; a watcher that is not live, too slow or has taken a seat is served on its
own without holding up the others."""
from __future__ import annotations

import asyncio
import json
import socket

import pytest

from app.games.records import Change
from app.realtime import channel as channel_module
from app.realtime.channel import Channel
from app.realtime.subscriber import Subscriber

GAME = "g1"
PLAYER, OTHER_PLAYER = 1, 2


class RecordingTransport:
    """What a socket was sent, one entry per write (a write is one system call)."""

    def __init__(self, unsent: int = 0):
        self.writes: list[bytes] = []
        self.unsent = unsent
        self.aborted = False
        self.sub: Subscriber | None = None  # the subscriber writing to it

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.aborted

    def get_write_buffer_size(self) -> int:
        return self.unsent

    def abort(self) -> None:
        self.aborted = True

    def messages(self) -> list[dict]:
        return [json.loads(text) for data in self.writes for text in frames(data)]


def frames(data: bytes) -> list[str]:
    """The text of each unmasked websocket frame in `data`."""
    out, pos = [], 0
    while pos < len(data):
        n, pos = data[pos + 1] & 0x7F, pos + 2
        if n == 126:
            n, pos = int.from_bytes(data[pos:pos + 2], "big"), pos + 2
        out.append(data[pos:pos + n].decode())
        pos += n
    return out


class FakeHub:
    def __init__(self):
        self.seats: dict = {}
        self.caught_up: list[Subscriber] = []

    async def catch_up(self, sub: Subscriber) -> None:
        self.caught_up.append(sub)


def change(seq: int, seats: dict | None = None) -> Change:
    """Change number `seq` of a game whose state has one unit that moves each time."""
    seats = seats or {"union": PLAYER, "confederate": OTHER_PLAYER}
    state = {"turn": 1, "units": [{"id": "u1", "loc": f"box{seq}"}]}
    return Change(GAME, seq, seq, [{"seq": seq, "type": "action"}], "active", "union", None, seats,
                  state_json=json.dumps(state), legal={"union": [{"type": "pass"}], "confederate": []})


def watcher(ch: Channel, seq: int = 0, user_id: int | None = None, deltas: bool = True,
            transport: RecordingTransport | None = None) -> RecordingTransport:
    """A live watcher's socket (protocol v2 unless deltas=False) at `seq`."""
    t = transport or RecordingTransport()
    t.sub = Subscriber(user_id, True, 100, t, deltas=deltas, batched=True)
    join(ch, t.sub, seq)
    return t


def player(ch: Channel, user_id: int = PLAYER) -> RecordingTransport:
    t = RecordingTransport()
    join(ch, Subscriber(user_id, False, 100, t, deltas=False, batched=False), 0)
    return t


def join(ch: Channel, sub: Subscriber, seq: int) -> None:
    ch.add(sub)
    sub.channel = ch
    sub.seq = seq
    sub.ready = True


@pytest.fixture
def ch(monkeypatch) -> Channel:
    # a window long enough that a busy test machine never outlasts it between two lines
    monkeypatch.setattr(channel_module, "WATCHER_WINDOW_S", 0.3)
    c = Channel(FakeHub(), GAME)  # type: ignore[arg-type]
    c.delivered = 0
    return c


async def past_the_window(ch: Channel) -> None:
    await asyncio.sleep(max(channel_module.WATCHER_WINDOW_S, ch.quiet_until - asyncio.get_running_loop().time())
                        + 0.01)


async def test_a_burst_reaches_every_watcher_in_one_write_of_the_same_bytes(ch):
    watchers = [watcher(ch) for _ in range(3)]
    seat = player(ch)
    for seq in (1, 2, 3):
        ch.deliver(change(seq))
    # the first change after a quiet spell went out at once; the player had all three at once
    assert [len(w.writes) for w in watchers] == [1, 1, 1]
    assert [m["seq"] for m in seat.messages() if m["type"] == "events"] == [1, 2, 3]
    await past_the_window(ch)
    assert [len(w.writes) for w in watchers] == [2, 2, 2]
    assert watchers[0].writes[1] is watchers[1].writes[1] is watchers[2].writes[1]
    # what a v2 page needs: the whole state first, then each change's delta from the one before
    got = [(m["type"], m.get("base"), m["seq"]) for m in watchers[0].messages()]
    assert got == [("events", None, 1), ("changes", 1, 2), ("changes", 2, 3)]
    assert watchers[0].messages()[2]["delta"] == {"units": [{"id": "u1", "loc": "box3"}]}


async def test_an_isolated_change_is_written_at_once(ch):
    w = watcher(ch)
    ch.deliver(change(1))
    await past_the_window(ch)
    ch.deliver(change(2))
    assert [m["seq"] for m in w.messages()] == [1, 2]


async def test_watchers_of_each_protocol_get_their_own_messages(ch):
    v2, v1 = watcher(ch), watcher(ch, deltas=False)
    ch.deliver(change(1))
    ch.deliver(change(2))
    await past_the_window(ch)
    assert [m["type"] for m in v2.messages()] == ["events", "changes"]
    assert [m["type"] for m in v1.messages()] == ["events", "events"]
    assert v1.messages()[1]["state"]["units"][0]["loc"] == "box2"


async def test_a_message_after_held_changes_reaches_the_watcher_after_them(ch):
    chatty, quiet = watcher(ch), watcher(ch)
    ch.deliver(change(1))
    ch.deliver(change(2))  # held
    chatty.sub.put('{"type":"pong"}')
    assert [(m["type"], m.get("seq")) for m in chatty.messages()] == [("events", 1), ("changes", 2), ("pong", None)]
    await past_the_window(ch)
    assert [m.get("seq") for m in chatty.messages()] == [1, 2, None]  # not twice
    assert [m["seq"] for m in quiet.messages()] == [1, 2]


async def test_a_watcher_that_is_not_live_yet_gets_the_changes_when_it_is(ch):
    w = watcher(ch)
    sub = w.sub
    sub.ready = False  # its snapshot is on its way
    ch.deliver(change(1))
    await past_the_window(ch)
    assert w.writes == [] and [c.last_seq for c in sub.pending] == [1]


async def test_a_watcher_that_missed_a_change_catches_up_without_holding_up_the_others(ch):
    behind, live = watcher(ch, seq=-5), watcher(ch)
    ch.deliver(change(1))
    await asyncio.sleep(0)
    assert [m["seq"] for m in live.messages()] == [1]
    assert behind.writes == [] and len(ch.hub.caught_up) == 1


async def test_a_slow_watcher_is_dropped_and_the_others_still_get_the_changes(ch):
    slow = watcher(ch, transport=RecordingTransport(unsent=10 << 20))
    fine = watcher(ch)
    ch.deliver(change(1))
    assert slow.aborted and slow.writes == []
    assert [m["seq"] for m in fine.messages()] == [1]


async def test_a_watcher_who_took_a_seat_gets_the_legal_actions_of_its_side(ch):
    newcomer = watcher(ch, user_id=3)
    ch.deliver(change(1, seats={"union": 3, "confederate": OTHER_PLAYER}))
    await past_the_window(ch)
    assert [(m["type"], m.get("side")) for m in newcomer.messages()] == [("events", None), ("legal", "union")]


async def test_held_changes_go_out_as_one_shared_write_before_a_message_to_every_watcher(ch):
    watchers = [watcher(ch) for _ in range(3)]
    ch.deliver(change(1))
    ch.deliver(change(2))
    ch.deliver(change(3))  # 2 and 3 held
    ch.release_held()  # what the hub does before the watcher count or a chat line
    for w in watchers:
        w.sub.put('{"type":"watchers"}')
    assert [len(w.writes) for w in watchers] == [3, 3, 3]
    assert watchers[0].writes[1] is watchers[1].writes[1] is watchers[2].writes[1]
    assert [m.get("seq") for m in watchers[0].messages()] == [1, 2, 3, None]
    await past_the_window(ch)
    assert [len(w.writes) for w in watchers] == [3, 3, 3]  # nothing written twice


# -- real sockets: what arrives at the other end, byte for byte (any faster way of writing
# to watchers, such as straight to the file descriptor, must keep passing these)

async def socket_pair() -> tuple[asyncio.Transport, socket.socket]:
    """A real transport on one end of a connected pair, and the other end to read from."""
    ours, theirs = socket.socketpair()
    transport, _ = await asyncio.get_running_loop().create_unix_connection(asyncio.Protocol, sock=ours)
    theirs.setblocking(False)
    return transport, theirs


async def read_all(sock: socket.socket, n: int) -> bytes:
    loop, got = asyncio.get_running_loop(), bytearray()
    while len(got) < n:
        got += await asyncio.wait_for(loop.sock_recv(sock, 1 << 20), 5)
    return bytes(got)


async def read_frames(sock: socket.socket, n: int) -> list[dict]:
    loop, got = asyncio.get_running_loop(), bytearray()
    while len(frames(bytes(got))) < n:
        got += await asyncio.wait_for(loop.sock_recv(sock, 1 << 20), 5)
    return [json.loads(text) for text in frames(bytes(got))]


async def test_a_watcher_socket_gets_every_change_once_in_order(ch):
    transport, theirs = await socket_pair()
    watcher(ch, transport=transport)  # type: ignore[arg-type]
    for seq in (1, 2, 3):
        ch.deliver(change(seq))
    await past_the_window(ch)
    assert [m["seq"] for m in await read_frames(theirs, 3)] == [1, 2, 3]
    await asyncio.sleep(0.05)
    with pytest.raises(BlockingIOError):  # and nothing more
        theirs.recv(1)
    transport.close()
    theirs.close()


async def test_a_change_behind_output_the_socket_has_not_taken_yet_arrives_after_it(ch):
    transport, theirs = await socket_pair()
    w = watcher(ch, transport=transport)  # type: ignore[arg-type]
    w.sub.max_buffer = 64 << 20
    big = b"a" * (8 << 20)  # more than the socket's buffers hold: the rest stays in the transport
    w.sub.put("", big)
    assert transport.get_write_buffer_size() > 0
    # the reader takes some: the socket has room again while the transport still holds the rest
    head = theirs.recv(256 << 10)
    ch.deliver(change(1))  # behind unsent bytes: through the transport, after them
    more = b"b" * (4 << 20)
    w.sub.put("", more)
    expected = big + change(1).frame(True) + more  # change 1 as a v2 watcher at seq 0 gets it
    assert head + await read_all(theirs, len(expected) - len(head)) == expected
    transport.close()
    theirs.close()


async def test_a_closing_transport_is_never_written_to(ch):
    transport, theirs = await socket_pair()
    w = watcher(ch, transport=transport)  # type: ignore[arg-type]
    transport.close()
    ch.deliver(change(1))
    await asyncio.sleep(0.05)
    assert w.sub.closed and theirs.recv(100) == b""  # end of stream, no frame
    theirs.close()


async def test_a_change_prepared_ahead_is_written_as_if_worked_out_at_delivery(ch):
    # the game service has the channel prepare a change while its commit is on the way
    # (the loop is idle then): the delta and frames are worked out, nothing is sent
    w, seat = watcher(ch), player(ch)
    ch.deliver(change(1))
    second = change(2)
    ch.prepare(second)
    assert second.delta_json is not None
    assert [len(w.writes), len(seat.writes)] == [1, 1]
    ch.deliver(second)
    await past_the_window(ch)
    assert [(m["type"], m["seq"]) for m in w.messages()] == [("events", 1), ("changes", 2)]
    assert w.messages()[1]["delta"] == {"units": [{"id": "u1", "loc": "box2"}]}
    assert [m["seq"] for m in seat.messages() if m["type"] == "events"] == [1, 2]


async def test_a_delta_prepared_from_a_state_since_replaced_is_worked_out_again(ch):
    watcher(ch)
    ch.deliver(change(1))
    early = change(2)
    ch.prepare(early)
    assert json.loads(early.delta_json) == {"units": [{"id": "u1", "loc": "box2"}]}
    # the state kept for seq 1 is replaced before the change is delivered (as a read of
    # the table would): its delta is worked out again from the state kept then
    ch.last_state = {"turn": 0, "units": [{"id": "u1", "loc": "box2"}]}
    ch.note_state(early)
    assert json.loads(early.delta_json) == {"turn": 1}


async def test_a_prepared_delta_is_dropped_when_the_change_no_longer_follows_the_kept_state(ch):
    watcher(ch)
    ch.deliver(change(1))
    later = change(3)
    ch.deliver(change(2))
    ch.prepare(later)  # follows the state kept (2): worked out
    assert later.delta_json is not None
    ch.last_state_seq = 7  # as if the channel had moved on (a catch-up read)
    ch.note_state(later)
    assert later.delta_json is None
