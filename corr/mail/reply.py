"""Answering a message corr refused: one short reply to its sender, saying why.

The reply goes to the message's `From:` address only, never to a `Reply-To:`, and takes
nothing from the message that is not made harmless first (DESIGN.md 8).
"""

from __future__ import annotations

from email.message import EmailMessage

from corr.mail.compose import clean_message_id, header_text, message_id
from corr.mail.ingest import Result
from corr.mail.message import MAX_HEADER, flat, own_address, sender_of


def refusal_reply(result: Result, sender: str | None = None) -> EmailMessage | None:
    """A reply to a refused message, saying why; None when there is nobody to answer.

    It goes to the message's `From:` address only, never to a `Reply-To:`: a refusal may
    tell about the sender's own hand ("B does not hold a 5"), and the address a body move
    is checked against is the From address, so an impostor naming a seat's address gets
    nothing back. Whatever is taken from the message is made harmless first: the Subject
    one line, Message-IDs only when well formed (`compose.clean_message_id`), the
    address only when plain (`sender_of`). Never raises for a hostile message."""
    from email.utils import formataddr, formatdate, make_msgid

    original = result.msg
    if original is None:
        return None
    found = sender_of(original)
    if found is None:
        return None
    subj = flat(header_text(original, "Subject", MAX_HEADER))
    own_id = message_id(original)
    references = [ref for ref in (clean_message_id(r) for r in
                                  header_text(original, "References", MAX_HEADER).split()) if ref][-19:]
    reply = EmailMessage()
    try:
        reply["From"] = sender or own_address(original) or "corr@localhost"
    except Exception:  # noqa: BLE001 - a configured sender the header cannot take
        del reply["From"]
        reply["From"] = "corr@localhost"
    try:
        reply["To"] = formataddr(found)
    except Exception:  # noqa: BLE001 - a display name the header cannot take: the address alone
        del reply["To"]
        reply["To"] = found[1]
    reply["Subject"] = subj if subj.lower().startswith("re:") else f"Re: {subj}" if subj else "Re: your corr message"
    reply["Date"] = formatdate(usegmt=True)
    reply["Message-ID"] = make_msgid("corr-reply")
    if own_id:
        reply["In-Reply-To"] = own_id
        reply["References"] = " ".join(dict.fromkeys([*references, own_id]))
    reply["Auto-Submitted"] = "auto-replied"
    reply.set_content(
        "corr did not take your message:\n\n"
        f"  {flat(result.message, 2000)}\n\n"
        "Nothing was changed in the game log. Answer the game's latest message as it says:\n"
        "it tells whose move it is and how to send one in this game.\n"
    )
    return reply
