"""What a chat's taps say it wants (issue 54): after a 👎, a keyword hit like it is held back
and says why; after a 👍, a listing the words missed but very like it is alerted, marked as
such; a chat without taps gets exactly what its words bring; the index of many chats judges as
judge() does."""

from __future__ import annotations

from hunter.rules.fanout import Fanout
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.listing import Listing
from hunter.rules.taste import Tap, taste


def listing(n: int, title: str, summary: str = "", location: str = "") -> Listing:
    return Listing(f"b:{n}", "b", title, f"https://b.test/{n}", summary=summary, location=location)


WORDPRESS = listing(
    1,
    "WordPress Developer (PHP, WooCommerce)",
    "Build and maintain WordPress themes and WooCommerce plugins for our agency's shops.",
)
WORDPRESS_AGAIN = listing(
    2,
    "Senior WordPress Developer - WooCommerce",
    "Maintain WooCommerce shops and custom WordPress plugins for agency clients.",
)
DJANGO = listing(
    3,
    "Backend Engineer (Django, PostgreSQL)",
    "Design REST APIs in Django and PostgreSQL for our logistics platform.",
)
DJANGO_AGAIN = listing(
    4,
    "Backend Engineer, Django",
    "Our logistics platform runs on Django and PostgreSQL; you will design its APIs.",
)
BAKER = listing(5, "Pastry Chef", "Bake croissants and cakes for our cafe in Lisbon.")
THAI_SUPPORT = listing(6, "เจ้าหน้าที่ไอทีซัพพอร์ต", "ดูแลคอมพิวเตอร์ เครื่องพิมพ์ และระบบเครือข่ายของสำนักงาน")
THAI_SUPPORT_AGAIN = listing(
    7, "เจ้าหน้าที่ไอทีซัพพอร์ต ประจำสาขา", "ดูแลคอมพิวเตอร์ เครื่องพิมพ์ และเครือข่ายของสาขา"
)


def tap(item: Listing, liked: bool) -> Tap:
    return Tap(liked, item.title, item.summary)


def test_after_a_thumbs_down_a_listing_like_it_is_held_back_and_says_why() -> None:
    rules = FilterConfig(include=("developer", "engineer"), taps=(tap(WORDPRESS, False),))
    verdict = judge(WORDPRESS_AGAIN, rules)
    assert not verdict.matched
    assert verdict.reason.startswith("held back: like a 👎 of “WordPress Developer (PHP")
    assert judge(DJANGO, rules).matched  # another job: its words bring it


def test_after_a_thumbs_up_a_listing_the_words_missed_comes_marked() -> None:
    rules = FilterConfig(include=("python",), taps=(tap(DJANGO, True),))
    verdict = judge(DJANGO_AGAIN, rules)  # no "python" in it
    assert verdict.matched and verdict.keywords == ()
    assert verdict.like == DJANGO.title
    assert verdict.reason == f"not your words: like “{DJANGO.title}”"
    assert not judge(BAKER, rules).matched  # nothing like it
    assert not judge(WORDPRESS, rules).matched


def test_a_thumbs_up_beats_a_thumbs_down_of_the_same_kind() -> None:
    rules = FilterConfig(include=("developer",), taps=(tap(WORDPRESS, False), tap(WORDPRESS, True)))
    assert judge(WORDPRESS_AGAIN, rules).matched


def test_thai_listings_are_alike_without_spaces() -> None:
    rules = FilterConfig(include=("python",), taps=(tap(THAI_SUPPORT, True),))
    assert judge(THAI_SUPPORT_AGAIN, rules).like == THAI_SUPPORT.title


def test_a_liked_listing_elsewhere_or_in_another_language_is_not_drawn() -> None:
    taps = (tap(DJANGO, True),)
    berlin = listing(8, DJANGO_AGAIN.title, DJANGO_AGAIN.summary, "Berlin, Germany")
    assert not judge(
        berlin, FilterConfig(include=("python",), taps=taps, places=("Portugal",))
    ).matched
    excluded = FilterConfig(include=("python",), exclude=("logistics",), taps=taps)
    assert not judge(DJANGO_AGAIN, excluded).matched


def test_no_taps_no_change() -> None:
    rules = FilterConfig(include=("developer",))
    assert judge(WORDPRESS_AGAIN, rules).matched and not judge(DJANGO_AGAIN, rules).matched
    assert taste(()).held(WORDPRESS.title, "") == "" and taste(()).drawn(DJANGO.title, "") == ""


def test_the_index_holds_back_and_draws_for_each_chat_alone() -> None:
    hates_wordpress = (tap(WORDPRESS, False),)
    chats = [
        ("hates-wordpress", FilterConfig(include=("developer",), taps=hates_wordpress)),
        ("words-only", FilterConfig(include=("developer",))),
        ("likes-django", FilterConfig(include=("python",), taps=(tap(DJANGO, True),))),
        ("everything-hates-wp", FilterConfig(taps=hates_wordpress)),
    ]
    fanout = Fanout([(name, rules, {}) for name, rules in chats])
    assert [name for name, _v in fanout.judge(WORDPRESS_AGAIN)] == ["words-only"]
    judged = fanout.judge(DJANGO_AGAIN)
    assert [name for name, _v in judged] == ["likes-django", "everything-hates-wp"]
    assert judged[0][1].like == DJANGO.title
    for item in (WORDPRESS, WORDPRESS_AGAIN, DJANGO, DJANGO_AGAIN, BAKER, THAI_SUPPORT):
        alone = [name for name, rules in chats if judge(item, rules).matched]
        assert [name for name, _v in fanout.judge(item)] == alone, item.title


def test_a_few_thumbs_down_on_one_role_hold_that_role_back_never_the_chats_own() -> None:
    """A salesperson in IT security types "sales" and "cybersecurity": every engineer of
    the field is a keyword hit. Two 👎 of engineers teach "not an engineer's job"; the
    field's sales jobs, a sales engineer (the chat's own word names the role) and an
    engineer's job once 👍'd are still sent. Made-up titles."""
    from hunter.rules.taste import Tap, taste

    taps = (Tap(False, "Cloud Security Engineer"), Tap(False, "Security Engineer II"))
    liking = taste(taps, ("sales", "cybersecurity"))
    held = liking.held("Cybersecurity Platform Engineer (Kubernetes)", "Run our clusters.")
    assert held.startswith("held back: an engineer's job, and 👎 of 2 such"), held
    assert "Cloud Security Engineer" in held  # /why says which taps taught it
    assert liking.held("Cybersecurity Account Executive", "Sell our platform.") == ""
    sales_engineer = "Cybersecurity Sales Engineer, Enterprise Accounts"
    assert liking.held(sales_engineer, "Demo our platform to enterprise buyers in Asia.") == ""
    platform = "Cybersecurity Platform Engineer (Kubernetes)"
    assert taste(taps[:1], ("sales", "cybersecurity")).held(platform, "") == ""  # one 👎
    liked = (*taps, Tap(True, "Detection Engineer"))
    assert taste(liked, ("sales", "cybersecurity")).held(platform, "x") == ""
    # A chat whose own words name the role keeps it, 👎s or not.
    assert taste(taps, ("security engineer",)).unwanted_roles == {}
    assert set(liking.unwanted_roles) == {"engineer"}


def test_thumbs_up_on_a_role_bring_it_and_one_of_a_mixed_title_does_not() -> None:
    """A Python developer 👍s jobs its words missed. One 👍 of a title of one role (roles.json's
    families) brings that role's other titles; one 👍 of a title of two roles ("Admin Sales-IT
    / IT Support") brings neither, a second 👍 of one of them brings it. /why names the 👍.
    (A title shares a word with one 👍 at least: one that shares none is never drawn.)
    A neighbour role (no family's title) is taught the same way. Made-up titles."""
    from hunter.rules.taste import Tap, taste

    words = ("python",)
    mixed = taste((Tap(True, "Admin Sales-IT / IT Support"),), words)
    assert mixed.drawn("Sales Representative (Bang Na)", "") == ""
    assert mixed.drawn("Desktop Support Technician", "") == ""
    both = taste((Tap(True, "Admin Sales-IT / IT Support"), Tap(True, "NOC Engineer")), words)
    assert both.drawn("Desktop Support Technician", "") == "NOC Engineer"
    assert both.drawn("Sales Representative (Bang Na)", "") == ""
    alone = taste((Tap(True, "IT Support"),), words)
    assert alone.drawn("Desktop Support Technician", "") == "IT Support"
    # A neighbour role (of no family), 👍'd alone: its other titles come.
    one = (Tap(True, "Full Stack Engineer (Vue)"),)
    full = "Full Stack Developer, Payments"
    assert taste(one, ("react",)).drawn(full, "") == "Full Stack Engineer (Vue)"
    assert taste((Tap(True, "Admin Sales-IT / IT Support"),), ("react",)).drawn(full, "") == ""


def test_a_title_of_the_chats_words_is_held_back_only_by_a_near_copy_of_a_thumbs_down() -> None:
    """Made-up listings: a chat of "incident response" 👎'd a cloud-platform security engineer;
    a "Security Engineer, Incident Response" (its words in the title) is the job it named,
    though as alike as HOLD; a listing whose title does not say its words, as alike, is held
    back."""
    from hunter.rules.taste import HOLD, Tap, taste

    disliked = "Protect our AWS platform: detection, cloud controls and on-call for our SaaS."
    text = "Protect our customers: triage detection alerts, run the on-call, write post-mortems."
    liking = taste(
        (Tap(False, "AWS Platform Security Engineer", disliked),), ("incident response",)
    )
    assert liking.nearest("Security Engineer, Incident Response", text)[2] >= HOLD
    assert liking.held("Security Engineer, Incident Response", text) == ""
    assert liking.held("Platform Security Engineer", text).startswith("held back: like")


def test_two_titles_that_share_only_role_words_or_thai_boilerplate_are_not_alike() -> None:
    """Made-up titles: a 👍 of "Product Marketing Manager" draws no "Staff Product Manager"
    (they share "product" and a role word); a 👍 of "Network Engineer (ยินดีรับนักศึกษาจบใหม่)"
    ("fresh graduates welcome") draws no "Technical Consultant (ยินดีรับนักศึกษาจบใหม่)"."""
    from hunter.rules.taste import Tap, taste

    marketing = taste((Tap(True, "Product Marketing Manager", "Launch our product."),), ("seo",))
    assert marketing.drawn("Staff Product Manager", "Launch our product.") == ""
    assert marketing.drawn("Senior Product Marketing Manager", "Launch our product.") != ""
    fresh = "ยินดีรับนักศึกษาจบใหม่"
    network = taste((Tap(True, f"Network Engineer ({fresh})", ""),), ("cisco",))
    assert network.drawn(f"Technical Consultant ({fresh})", "") == ""


def test_one_thumbs_up_of_another_trade_than_the_chats_words_teaches_it_only_with_a_second() -> (
    None
):
    """Made-up titles: a network engineer 👍s a "NOC Engineer" job (next to theirs, of the
    IT-support family): one 👍 brings no IT-support job; a second 👍 of one does. A chat whose
    words name no trade ("python") is taught by one 👍, as before."""
    from hunter.rules.taste import Tap, taste

    words, job = ("network engineer",), "Helpdesk Engineer"
    noc = Tap(True, "NOC Engineer (Outsource)")
    assert taste((noc,), words).drawn(job, "") == ""
    assert taste((noc, Tap(True, "Helpdesk")), words).drawn(job, "") == "Helpdesk"
    assert taste((noc,), ("python",)).drawn(job, "") == "NOC Engineer (Outsource)"


def test_a_thumbs_up_of_a_job_in_a_field_is_for_the_chats_own_role_not_the_field() -> None:
    """Made-up titles: an account manager 👍s two sales jobs at security firms ("Cybersecurity
    Sales Specialist"); the 👍s are for sales, the chat's trade, not for security: no security
    engineer or analyst is drawn, by the taught roles nor by the words of the field that every
    text of those firms shares. A sales job its words missed still is."""
    from hunter.rules.taste import Tap, taste

    text = "Protect our customers' cloud: threat detection, incident response and zero trust."
    words = ("Account Manager",)
    liked = (
        Tap(True, "DACH Cybersecurity Sales Specialist (f/m/d)", text),
        Tap(True, "Cybersecurity Sales Consultant", text),
    )
    liking = taste(liked, words)
    assert liking.drawn("Cybersecurity Engineer DACH (f/m/d)", text) == ""
    assert liking.drawn("Cybersecurity Analyst", text) == ""
    assert liking.drawn("Cybersecurity Sales Manager DACH", text) != ""
    # A chat whose words name no trade is taught the field as before, by two 👍s of it.
    assert taste(liked, ("zero trust",)).drawn("Cybersecurity Analyst", text) != ""


def test_a_field_said_in_one_of_a_salespersons_words_is_no_trade_of_theirs() -> None:
    """Issue 69, made-up titles: a salesperson whose words name the field they sell in
    ("Cybersecurity Vertrieb") beside their role ("Account Executive") was taken as of both
    trades, so a 👍 of a security firm's sales job drew its engineers. A keyword of two trades
    one of which another keyword names alone is of that one; a chat of the field alone keeps it."""
    from hunter.rules.roles import trades_of

    words = ("Cybersecurity Vertrieb", "Account Executive")
    assert trades_of(words) == {"sales"}
    assert trades_of(("Cybersecurity Vertrieb",)) == {"security", "sales"}
    assert trades_of(("cybersecurity", "Account Executive")) == {"security", "sales"}
    text = "Protect our customers' cloud: threat detection, incident response and zero trust."
    liked = (Tap(True, "Sales Manager für Cybersecurity Lösungen (d/m/w)", text),)
    liking = taste(liked, words)
    assert liking.drawn("Product Security Engineer (m/w/d)", text) == ""
    assert liking.drawn("Sales Manager Cybersecurity Lösungen DACH", text) != ""
