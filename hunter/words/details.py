"""What a person reads of a listing beside its title, in every channel (LINE's cards,
Telegram's messages, `hunter check`): its pay whole, and what it is (category, engagement,
offers so far, deadline), in Thai and English; and the buttons under it, the same in every
channel: each sends "<verb> <argument>" back, which hunter/chat/answers.py acts on."""

from __future__ import annotations

from hunter.rules.listing import Listing
from hunter.rules.pay import pay_text
from hunter.words.notices import SOURCE as NOTICES
from hunter.words.notices import askers

# The buttons under a listing: not interested (its job id), mute the keyword that matched (the
# word), applied (its job id). SAY is a word offered under an answer ("say คำ"): tapping it is
# saying it, where a channel's buttons cannot send text themselves (Telegram's).
# LIKE (👍) and DISMISS (👎, not interested) teach the chat's taste (rules/taste.py);
# APPLIED counts as a 👍.
DISMISS, MUTE, APPLIED, SAY, LIKE = "dismiss", "mute", "applied", "say", "like"
DISMISS_LABEL, MUTE_LABEL, APPLIED_LABEL = "👎 ไม่สนใจ", "ไม่เอาคำนี้", "สมัครแล้ว"
LIKE_LABEL = "👍 สนใจ"
LIKE_MARK = "💡 ไม่ตรงคำของคุณ แต่คล้ายที่กด 👍 · not your words: like"
KIN_MARK = "💡 ไม่ตรงคำของคุณ แต่เป็นงานแบบ · not your words: a job like"
NEAR_MARK = "💡 ใกล้เคียงคำของคุณ · near your words: a job next to"
NOT_STATED = "งบไม่ระบุ · budget not stated"
# Fastwork's engagement types in the words a Thai freelancer reads on the site.
ENGAGEMENTS = {
    "freelance": "ฟรีแลนซ์",
    "contract": "สัญญาจ้าง",
    "part-time": "พาร์ทไทม์",
    "full-time": "งานประจำ",
}


def money(listing: Listing) -> str:
    """The pay whole, as the site means it: "฿5,000", a range "฿5,000" EN DASH "10,000", with
    its period ("$25 ต่อชั่วโมง · per hour"), or "not stated" (Thai and English) when the
    client did not say."""
    if listing.budget is None:
        return NOT_STATED
    return pay_text(
        listing.budget, listing.budget_max, listing.currency, listing.period, listing.bound
    )


def pays(listing: Listing) -> bool:
    """Whether a card shows a pay line: a listing's, stated or "not stated"; none on a notice
    of hunter's own (a source that stopped working is no job of unstated pay)."""
    return listing.source != NOTICES


# The start of a summary every channel's card shows whole (LINE cuts it at 240 characters)
SHOWN_SUMMARY = 200


def details(listing: Listing) -> str:
    """Who posts it and where, category, engagement, offers so far, the deadline, and that
    it is a re-post, where the source says them; each once (a board's summary or category
    may already say who posts it, or where: where the part a card shows, SHOWN_SUMMARY, does;
    a summary naming its employer further on, cut on the card, still shows who posts it:
    "Mathmo: Maths Coach" arrived with no employer)."""
    shown = listing.summary[:SHOWN_SUMMARY]
    parts = [p for p in (listing.company, listing.location) if p and p not in shown]
    if listing.category and listing.category not in parts:
        parts.append(listing.category)
    if listing.engagement:
        parts.append(ENGAGEMENTS.get(listing.engagement.lower(), listing.engagement))
    if listing.offers is not None:
        parts.append(f"เสนอแล้ว {listing.offers} คน ({listing.offers} offers)")
    if listing.deadline:
        parts.append(f"ปิดรับ {listing.deadline[:10]}")
    if listing.reposted:  # a job its board posted again, alerted again (reposts = "alert")
        parts.append(f"🔁 โพสต์ซ้ำ (re-posted; first seen {listing.reposted})")
    if listing.like:  # no keyword of the chat's: like a listing it 👍'd
        parts.append(f"{LIKE_MARK} “{listing.like[:60]}”")
    elif listing.kin:  # no keyword of the chat's: a job of its keyword's kind
        parts.append(f"{KIN_MARK} “{listing.kin[:60]}”")
    elif listing.near:  # no keyword of the chat's: a role next to its keyword's
        parts.append(f"{NEAR_MARK} “{listing.near[:60]}”")
    return " · ".join(parts)


def why_short(listing: Listing) -> str:
    """Why a listing none of the chat's words names came, for a digest's line: "💡 a job
    like “IT Support”", "💡 like your 👍 “...”"; "" for a listing of the chat's own words."""
    if listing.like:
        return f"💡 like your 👍 “{listing.like[:40]}”"
    if listing.kin:
        return f"💡 a job like “{listing.kin[:40]}”"
    if listing.near:
        return f"💡 near your words: next to “{listing.near[:40]}”"
    return ""


ALSO_ON = "🔁 ลงที่อื่นด้วย · also on"  # before the boards a job was merged from
ALSO_SHOWN = 5  # boards named on one alert; the rest are counted


def also_on(listing: Listing) -> list[tuple[str, str]]:
    """The (board, link) pairs an alert shows as "also on", at most ALSO_SHOWN, and a count
    of the rest as a last pair without a link."""
    shown = list(listing.also_on[:ALSO_SHOWN])
    rest = len(listing.also_on) - len(shown)
    return shown + ([(f"+{rest}", "")] if rest > 0 else [])


def buttons(listing: Listing) -> list[tuple[str, str]]:
    """The buttons under a listing, as (label, what it sends back); under a chat's ask to
    join, the owner's Approve and Refuse (each says its command, as if typed)."""
    asking = askers(listing)
    if len(asking) == 1:
        return [
            ("อนุมัติ · Approve", f"{SAY} approve {asking[0]}"),
            ("ปฏิเสธ · Refuse", f"{SAY} refuse {asking[0]}"),
        ]
    if asking:  # a card of several: an Approve each for the first few (the text says how)
        return [(f"อนุมัติ · Approve {chat}", f"{SAY} approve {chat}") for chat in asking[:3]]
    wanted = [
        (LIKE_LABEL, f"{LIKE} {listing.job_id}"),
        (DISMISS_LABEL, f"{DISMISS} {listing.job_id}"),
    ]
    if listing.keywords:
        wanted.append((MUTE_LABEL, f"{MUTE} {listing.keywords[0]}"))
    wanted.append((APPLIED_LABEL, f"{APPLIED} {listing.job_id}"))
    return wanted
