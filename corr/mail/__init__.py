"""Games by email (DESIGN.md 8): compose a move's message, send it over SMTP, ingest
messages (one `.eml`, an mbox or a Maildir) into the local copy of the game.

The log travels as an attachment named `<game-id>.corr`, typed
`application/octet-stream` and base64-encoded: mail clients and relays leave such a
part byte for byte as sent (text/plain attachments get their line endings and charset
rewritten), and the log's hash chain is over exact bytes.

Each message is built from the view of the seat it goes to. In a game with hidden
information, the dealer's message to a seat also carries that seat's private panel (its
hand) in `X-Corr-For` / `X-Corr-Private` (signed by the host in a hosted game), which the
recipient's `corr mail ingest` keeps in the sidecar (`corr.log.panels`); the attached log
is always the public one.

Everything that comes in by mail is hostile until checked (`ingest`): sizes, nesting,
header values, seqs and encodings are bounded before they are used, whatever is copied
into a reply is made one line first, and a message that cannot be handled at all is
refused - by the host, set aside in the Maildir's `bad/` with its reason (`host`).
Every file the mail code creates or renames into place has its directory fsynced.
"""

from __future__ import annotations

#: MIME type and file suffix of the attached log.
ATTACHMENT_TYPE = ("application", "octet-stream")
ATTACHMENT_SUFFIX = ".corr"
