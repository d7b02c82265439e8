"""What the chat keeps, the same on SQLite, PostgreSQL and Supabase: each webhook event once
and until it is answered, "private" once in a while per chat, mutes with an end, marks that
outlive the seen row, and the listings sent last."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hunter.rules.filter_config import PayFloor
from hunter.rules.listing import Listing
from hunter.store.base import Store

CAP = 100  # keywords one chat may add (hunter/chat/tuning.py)
T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)


def kept(*ids: str, chat: str = "U1") -> list[tuple[str, str | None, dict[str, Any]]]:
    return [(i, chat, {"webhookEventId": i, "type": "message", "text": "งานใหม่ 😀"}) for i in ids]


def test_each_event_is_accepted_once_and_forgotten_after_a_week(store: Store) -> None:
    assert store.chat.accept(kept("E1", "E2"), "w1", T0) == {"E1", "E2"}
    assert store.chat.accept(kept("E1", "E3"), "w2", T0 + timedelta(seconds=5)) == {"E3"}
    assert store.chat.accept(kept("E1"), "w2", T0 + timedelta(days=8)) == {"E1"}  # forgotten


def test_an_event_is_answered_by_the_worker_that_holds_it(store: Store) -> None:
    store.chat.accept(kept("E1"), "w1", T0)
    assert store.chat.hold("E1", "w2", T0) is False  # w1 accepted it: w1 answers it
    assert store.chat.hold("E1", "w1", T0) is True
    store.chat.handled("E1", T0)
    assert store.chat.hold("E1", "w1", T0) is False  # answered: never again
    assert (
        store.chat.take_stranded("w2", T0 + timedelta(hours=1), T0 + timedelta(hours=1), 10) == []
    )


def test_what_a_stopped_or_dead_worker_left_is_taken_over_once(store: Store) -> None:
    store.chat.accept(kept("E1", "E2", "E3"), "w1", T0)
    store.chat.release(["E2"], "w1")  # w1 stopped before answering E2
    store.chat.release(["E3"], "w9")  # only the holder lets go
    soon = T0 + timedelta(seconds=10)
    [payload] = store.chat.take_stranded("w2", soon, soon - timedelta(minutes=2), 10)
    assert payload == kept("E2")[0][2]  # as LINE sent it, Thai and emoji intact
    assert store.chat.hold("E2", "w2", soon) and not store.chat.hold("E2", "w1", soon)
    store.chat.handled("E2", soon)
    later = T0 + timedelta(minutes=3)  # w1 died holding E1 and E3: its hold ran out
    taken = store.chat.take_stranded("w3", later, later - timedelta(minutes=2), 10)
    assert [p["webhookEventId"] for p in taken] == ["E1", "E3"]
    assert store.chat.take_stranded("w4", later, later - timedelta(minutes=2), 10) == []


def test_a_chat_is_told_private_once_in_a_long_while(store: Store) -> None:
    week = timedelta(days=7)
    assert store.chat.note_private("C1", T0, T0 - week) is True
    assert store.chat.note_private("C1", T0 + timedelta(hours=1), T0 - week) is False
    assert store.chat.note_private("C2", T0, T0 - week) is True  # each chat on its own
    eight_days = T0 + timedelta(days=8)
    assert store.chat.note_private("C1", eight_days, eight_days - week) is True


def test_mutes_end_and_can_be_lifted(store: Store) -> None:
    store.chat.mute("python", T0 + timedelta(days=30), T0)
    store.chat.mute("django", T0 + timedelta(days=1), T0)
    assert set(store.chat.mutes(T0)) == {"django", "python"}
    assert set(store.chat.mutes(T0 + timedelta(days=2))) == {"python"}
    assert store.chat.unmute("python") is True and store.chat.unmute("python") is False
    assert store.chat.mutes(T0) == {"django": T0 + timedelta(days=1)}


def test_marks_and_the_last_sent(store: Store) -> None:
    seed = Listing("a:seed", "a", "seed", "https://x.test/")
    store.outbox.record("a", [seed], set(), T0)
    jobs = [Listing(f"a:{n}", "a", f"job {n}", f"https://x.test/{n}") for n in range(3)]
    store.outbox.record("a", jobs, {j.job_id for j in jobs}, T0)
    assert store.chat.mark("a:0", "dismissed", T0) == "job 0"
    assert store.chat.mark("a:1", "applied", T0) == "job 1"
    assert store.chat.mark("a:nope", "applied", T0) is None
    states = store.outbox.job_states()
    assert (states["a:0"], states["a:1"], states["a:2"]) == ("ignored", "pending", "pending")
    [applied] = store.chat.marks("applied")
    assert (applied.job_id, applied.listing.url) == ("a:1", "https://x.test/1")
    batch = store.outbox.claim_new("w", "k1", 10, T0)
    store.outbox.mark_sent("k1", T0 + timedelta(minutes=1))
    assert [x.title for x in store.outbox.recent_sent(10)] == sorted(c.listing.title for c in batch)


def test_what_a_chat_changes_is_kept_per_chat_and_dropped_on_reset(store: Store) -> None:
    assert store.chat.tune_word("", "django", "add", T0, CAP)
    assert store.chat.tune_word("", "python", "remove", T0, CAP)
    assert store.chat.tune_word("studio", "logo", "add", T0, CAP)
    store.chat.tune_word("", "django", "remove", T0 + timedelta(minutes=1), CAP)  # changed mind
    store.chat.tune_settings("", T0, min_budget=5000)
    store.chat.tune_settings("", T0, paused=True)  # the budget stays
    store.chat.mute("php", T0 + timedelta(days=30), T0, "studio")
    rules = store.chat.rules(T0)
    owner, studio = rules[""], rules["studio"]
    assert (owner.added, owner.removed) == ((), ("django", "python"))
    assert (owner.min_budget, owner.paused) == (5000, True)
    assert (studio.added, set(studio.mutes), studio.paused) == (("logo",), {"php"}, False)
    store.chat.tune_settings("", T0, min_budget=0, paused=False)
    assert (store.chat.rules(T0)[""].min_budget, store.chat.rules(T0)[""].paused) == (0, False)
    assert store.chat.reset_tuning("") == 3  # two words and the settings
    assert set(store.chat.rules(T0)) == {"studio"}
    assert store.chat.reset_tuning(None) == 1 and set(store.chat.rules(T0)) == {"studio"}
    assert store.chat.rules(T0)["studio"].changed is False  # the mute is the button's


def test_a_chats_changes_keep_the_order_they_were_said_in(store: Store) -> None:
    """Issue 29: "เพิ่ม w" to one replica, "ลบ w" to another 40 ms later, written in the other
    order; "งบ 1000" then "งบ 2000" likewise. The change said last wins."""
    later = T0 + timedelta(milliseconds=40)
    store.chat.tune_word("", "w1", "remove", later, CAP)
    store.chat.tune_word("", "w1", "add", T0, CAP)  # said first, written last: no effect
    store.chat.tune_settings("", later, min_budget=2000)
    store.chat.tune_settings("", T0, min_budget=1000)
    store.chat.tune_settings("", T0 - timedelta(seconds=1), paused=True)  # older, other field
    store.chat.tune_floor("", PayFloor(40, "USD", "hour"), later)
    store.chat.tune_floor("", PayFloor(25, "USD", "hour"), T0)
    owner = store.chat.rules(T0)[""]
    assert (owner.added, owner.removed) == ((), ("w1",))
    assert (owner.min_budget, owner.paused) == (2000, True)
    assert owner.floors == (PayFloor(40, "USD", "hour"),)
    store.chat.tune_settings("", later, paused=False)  # the same moment: the last write wins
    store.chat.tune_word("", "w1", "add", later + timedelta(seconds=1), CAP)
    owner = store.chat.rules(T0)[""]
    assert (owner.added, owner.paused, owner.min_budget) == (("w1",), False, 2000)


def test_a_chat_adds_keywords_up_to_the_cap(store: Store) -> None:
    for n in range(3):
        assert store.chat.tune_word("studio", f"w{n}", "add", T0, 3)
    assert not store.chat.tune_word("studio", "w3", "add", T0, 3)  # past the cap: refused
    assert store.chat.tune_word("studio", "w1", "add", T0 + timedelta(seconds=1), 3)  # again
    assert store.chat.tune_word("", "w3", "add", T0, 3)  # another chat has its own cap
    assert store.chat.tune_word("studio", "w0", "remove", T0 + timedelta(seconds=1), 3)
    assert store.chat.tune_word("studio", "w3", "add", T0 + timedelta(seconds=2), 3)
    assert store.chat.rules(T0)["studio"].added == ("w1", "w2", "w3")


def test_a_chats_floors_in_other_terms_are_kept_per_term_and_dropped_on_reset(
    store: Store,
) -> None:
    store.chat.tune_floor("", PayFloor(25, "USD", "hour"), T0)
    store.chat.tune_floor("", PayFloor(30000, "THB", "month"), T0)
    store.chat.tune_floor("", PayFloor(40, "USD", "hour"), T0 + timedelta(minutes=1))  # raised
    store.chat.tune_floor("studio", PayFloor(0, "USD", ""), T0)  # lifts hunter.toml's "$500"
    rules = store.chat.rules(T0)
    assert set(rules[""].floors) == {PayFloor(40, "USD", "hour"), PayFloor(30000, "THB", "month")}
    assert rules["studio"].floors == (PayFloor(0, "USD", ""),) and rules["studio"].changed
    assert store.chat.reset_tuning("") == 2
    assert store.chat.reset_tuning(None) == 1 and store.chat.rules(T0) == {}


def test_a_listing_is_found_by_its_id_or_link_in_each_chat(store: Store) -> None:
    seed = Listing("a:seed", "a", "seed", "https://x.test/seed")
    store.outbox.record("a", [seed], set(), T0)
    job = Listing("a:1", "a", "python logo", "https://x.test/1")
    store.outbox.record("a", [seed, job], {"a:1"}, T0, chats={"a:1": [("studio", job)]})
    by_id = store.chat.find(["a:1"], None)
    assert [(r["job_id"], r["chat"], r["status"]) for r in by_id] == [
        ("a:1", "", "pending"),
        ("a:1", "studio", "pending"),  # one listing, a row in each chat
    ]
    assert len(store.chat.find([], "https://x.test/1")) == 2
    assert store.chat.find(["a:2"], "https://x.test/2") == []
    assert store.chat.sources_linking("https://x.test/") == ["a"]
    assert store.chat.sources_linking("https://elsewhere.test/") == []


def test_the_sources_that_saw_a_site_last_are_named_first(store: Store) -> None:
    """Six sources link to one site; the one that saw it last is named, though five others
    (renamed or taken out of hunter.toml since) sort before it by name."""
    for n, name in enumerate(["a1", "a2", "a3", "a4", "a5", "z-live"]):
        listing = Listing(f"{name}:1", name, "python", f"https://site.test/{name}")
        store.outbox.record(name, [listing], set(), T0 + timedelta(days=n))
    assert store.chat.sources_linking("https://site.test/") == ["z-live", "a5", "a4", "a3", "a2"]


def test_add_and_remove_churn_leaves_only_what_the_words_are_now(store: Store) -> None:
    """Issue 37, low 9: 800 commands left 400 "remove" rows for ever. A day on, the removals
    are forgotten, but a removal of a hunter.toml word, which is what keeps it removed."""
    for n in range(200):
        at = T0 + timedelta(seconds=2 * n)
        assert store.chat.tune_word("", f"w{n}", "add", at, CAP)
        store.chat.tune_word("", f"w{n}", "remove", at + timedelta(seconds=1), CAP)
    store.chat.tune_word("", "python", "remove", T0, CAP)  # hunter.toml's
    store.chat.tune_word("studio", "keep", "add", T0, CAP)
    before = store.chat.rules(T0 + timedelta(hours=1))
    assert len(before[""].removed) == 201
    assert store.chat.drop_removals(T0 - timedelta(days=1), {"python"}) == 0  # too new
    assert store.chat.drop_removals(T0 + timedelta(days=1), {"python"}) == 200
    after = store.chat.rules(T0 + timedelta(days=1))
    assert after[""].removed == ("python",) and after[""].added == ()
    assert after["studio"].added == ("keep",)


def test_the_languages_a_chat_reads_are_kept_the_later_said_winning(store: Store) -> None:
    """Issue 54: "ภาษา th en" from the chat; "ภาษา ทั้งหมด" reads every language; of two said
    at once on two replicas, the later wins; a reset and /forget take them."""
    at = datetime(2026, 12, 4, 9, tzinfo=UTC)
    assert "team" not in store.chat.rules(at)
    store.chat.tune_languages("team", ("th", "en"), at)
    assert store.chat.rules(at)["team"].languages == ("th", "en")
    store.chat.tune_languages("team", ("de",), at - timedelta(seconds=1))  # said earlier
    assert store.chat.rules(at)["team"].languages == ("th", "en")
    store.chat.tune_languages("team", (), at + timedelta(seconds=1))
    assert store.chat.rules(at)["team"].languages == ()  # every language
    store.chat.tune_settings("team", at + timedelta(seconds=2), min_budget=3000)
    kept = store.chat.rules(at)["team"]
    assert (kept.languages, kept.min_budget) == ((), 3000)  # one does not undo the other
    store.chat.tune_languages("telegram:5", ("en",), at)
    store.subscribers.forget("telegram:5")
    assert "telegram:5" not in store.chat.rules(at)
    store.chat.reset_tuning("team")
    assert "team" not in store.chat.rules(at)


def test_the_places_a_chat_works_in_are_kept_the_later_said_winning(store: Store) -> None:
    """Issue 54: "ที่ทำงาน กรุงเทพฯ, ปริมณฑล" from the chat, names of more than one word kept
    whole; "ที่ทำงาน ทั้งหมด" takes every place; the later of two said at once wins; the
    languages and the places are set apart; a reset and /forget take them."""
    at = datetime(2026, 12, 4, 9, tzinfo=UTC)
    store.chat.tune_places("team", ("กรุงเทพฯ", "Samut Prakan", "remote"), at)
    assert store.chat.rules(at)["team"].places == ("กรุงเทพฯ", "Samut Prakan", "remote")
    store.chat.tune_places("team", ("Portugal",), at - timedelta(seconds=1))  # said earlier
    assert store.chat.rules(at)["team"].places == ("กรุงเทพฯ", "Samut Prakan", "remote")
    store.chat.tune_languages("team", ("th",), at + timedelta(seconds=1))
    kept = store.chat.rules(at)["team"]
    assert (kept.languages, kept.places) == (("th",), ("กรุงเทพฯ", "Samut Prakan", "remote"))
    store.chat.tune_places("team", (), at + timedelta(seconds=2))
    assert store.chat.rules(at)["team"].places == ()  # every place
    store.chat.tune_places("telegram:5", ("EMEA",), at)
    store.subscribers.forget("telegram:5")
    assert "telegram:5" not in store.chat.rules(at)
    store.chat.reset_tuning("team")
    assert "team" not in store.chat.rules(at)


def test_a_chats_taps_come_with_its_rules_its_newest_twelve(store: Store) -> None:
    """Issue 54: 👍 ("liked") and "applied" are a 👍, "dismissed" a 👎; each chat's newest
    twelve come with its rules (one read), with the listing's title and the start of its
    text; /forget deletes them."""
    at = datetime(2026, 12, 4, 9, tzinfo=UTC)
    jobs = [
        Listing(f"b:{n}", "b", f"Django job {n}", f"https://b.test/{n}", summary="x" * 400)
        for n in range(15)
    ]
    theirs = {j.job_id: [("telegram:5", j)] for j in jobs}
    store.outbox.record("b", [Listing("b:seed", "b", "seed", "https://b.test/seed")], set(), at)
    store.outbox.record("b", jobs, {j.job_id for j in jobs}, at, chats=theirs)
    marks = ["liked", "dismissed", "applied"]
    for n in range(15):
        chat = "" if n % 2 else "telegram:5"
        assert store.chat.mark(f"b:{n}", marks[n % 3], at + timedelta(minutes=n), chat)
    taps = store.chat.rules(at)[""].taps
    assert sorted(t.title for t in taps) == sorted(f"Django job {n}" for n in range(1, 15, 2))
    kinds = {t.title: t.liked for t in taps}
    assert kinds["Django job 1"] is False and kinds["Django job 3"] is True  # dismissed, liked
    assert all(len(t.text) == 240 for t in taps)
    for n in range(15, 27):  # five more than twelve for the owner: its newest twelve
        store.outbox.record("b", [Listing(f"b:{n}", "b", f"Go job {n}", "u")], {f"b:{n}"}, at)
        store.chat.mark(f"b:{n}", "liked", at + timedelta(hours=1, minutes=n), "")
    assert sorted(t.title for t in store.chat.rules(at)[""].taps) == sorted(
        f"Go job {n}" for n in range(15, 27)
    )
    assert store.chat.rules(at)["telegram:5"].taps
    store.chat.mark("b:2", "liked", at + timedelta(hours=2), "telegram:5")  # applied, then 👍
    applied = sorted(m.job_id for m in store.chat.marks("applied") if m.chat == "telegram:5")
    assert applied == ["b:14", "b:2", "b:8"]  # still applied: a 👍 too
    store.subscribers.forget("telegram:5")
    assert "telegram:5" not in store.chat.rules(at)


def test_the_listings_of_the_last_days_each_once_newest_first(store: Store) -> None:
    """Issue 54's "try before you wait" reads what hunter saw lately: each listing once (not
    once per chat it went to), hunter's own notices aside, newest first, at most `most`."""
    at = datetime(2026, 12, 4, 9, tzinfo=UTC)
    store.outbox.record("b", [Listing("b:seed", "b", "seed", "https://b.test/seed")], set(), at)
    for n in range(5):
        job = Listing(f"b:{n}", "b", f"job {n}", f"https://b.test/{n}", summary="x")
        theirs = {job.job_id: [("telegram:5", job), ("telegram:6", job)]}
        store.outbox.record("b", [job], set(), at + timedelta(hours=n), chats=theirs)
    recent = store.chat.recent(at + timedelta(hours=1), 3)
    assert [x.title for x in recent] == ["job 4", "job 3", "job 2"]
    assert recent[0].summary == "x" and recent[0].url == "https://b.test/4"
    assert [x.title for x in store.chat.recent(at + timedelta(hours=3), 10)] == ["job 4", "job 3"]
    assert store.chat.recent(at + timedelta(days=1), 10) == []


def test_what_places_languages_and_taps_held_back_is_counted_over_a_week(store: Store) -> None:
    """Issue 54, nothing hidden without a trace: each poll adds what each chat's layers held
    back; the count comes with the chat's rules; a week on it starts again; a chat hunter does
    not know gets no row (forgotten while the poll judged for it); /forget takes it."""
    at = datetime(2026, 12, 4, 9, tzinfo=UTC)
    store.subscribers.join("telegram:5", False, 10, at)
    store.chat.count_held({"": {"place": 2}, "telegram:5": {"language": 1, "taps": 3}}, at)
    store.chat.count_held({"": {"place": 1, "taps": 1}}, at + timedelta(days=2))
    rules = store.chat.rules(at)
    assert rules[""].held == {"place": 3, "language": 0, "taps": 1}
    assert rules[""].held_since == at and not rules[""].changed
    assert rules["telegram:5"].held == {"place": 0, "language": 1, "taps": 3}
    store.chat.count_held({"": {"language": 4}}, at + timedelta(days=8))  # a week on: anew
    assert store.chat.rules(at)[""].held == {"place": 0, "language": 4, "taps": 0}
    store.chat.count_held({"telegram:gone": {"place": 1}}, at)
    assert "telegram:gone" not in store.chat.rules(at)
    store.subscribers.forget("telegram:5")
    assert "telegram:5" not in store.chat.rules(at)
