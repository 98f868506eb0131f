"""A message's bytes reach the SMTP server as smtplib would send them: the host's
connection does DATA's dot-stuffing itself (RFC 5321 4.5.2), so a line that starts
with a period must still arrive whole, and a lone period must not end the message."""

from __future__ import annotations

import smtplib

import pytest

from corr.mail.smtp import Connection, SmtpConfig

SENDER, RECIPIENT = "host@example.org", "anna@example.org"

#: Messages whose lines start with periods where stuffing matters, and plain ones.
MESSAGES = [
    b"Subject: plain\r\n\r\nno period starts a line here\r\n",
    b"Subject: dots\r\n\r\n.a line that starts with a period\r\n..two of them\r\n",
    b"Subject: lone\r\n\r\nabove\r\n.\r\nbelow the lone period\r\n",
    b".Subject-less: the first byte is a period\r\n\r\nbody\r\n",
    b"Subject: no end\r\n\r\nthe last line has no line end\r\n.",
    b"Subject: bare\r\n\r\na bare line feed\n.then a period\r\n",
]


def received(inbox, send) -> list[bytes]:  # type: ignore[no-untyped-def]
    for data in MESSAGES:
        send(data)
    return [envelope.original_content for envelope in inbox.take_envelopes()]


def test_a_message_arrives_as_smtplib_would_send_it(smtp_server) -> None:  # type: ignore[no-untyped-def]
    inbox, port = smtp_server
    with smtplib.SMTP("127.0.0.1", port) as server:
        theirs = received(inbox, lambda data: server.sendmail(SENDER, [RECIPIENT], data))
    with Connection(SmtpConfig(host="127.0.0.1", port=port)) as connection:
        ours = received(inbox, lambda data: connection.send_bytes(SENDER, [RECIPIENT], data))
    assert ours == theirs
    assert len(ours) == len(MESSAGES)


@pytest.mark.parametrize("data", MESSAGES[1:3])
def test_a_line_that_starts_with_a_period_arrives_whole(smtp_server, data: bytes) -> None:  # type: ignore[no-untyped-def]
    inbox, port = smtp_server
    with Connection(SmtpConfig(host="127.0.0.1", port=port)) as connection:
        connection.send_bytes(SENDER, [RECIPIENT], data)
    (envelope,) = inbox.take_envelopes()
    assert envelope.original_content == data


def test_an_implicit_tls_connection_sends_the_same_bytes(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`ssl = true` (SMTPS) takes the same DATA: a server with a certificate from the
    test's own CA, trusted through SSL_CERT_FILE, receives every message whole."""
    import ssl

    from aiosmtpd.controller import Controller

    from conftest import Inbox, free_port
    from dovecot import certificate

    monkeypatch.setenv("SSL_CERT_FILE", str(certificate(tmp_path)))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port, ssl_context=context)
    controller.start()
    try:
        with Connection(SmtpConfig(host="127.0.0.1", port=port, ssl=True)) as connection:
            for data in MESSAGES[1:3]:
                connection.send_bytes(SENDER, [RECIPIENT], data)
    finally:
        controller.stop()
    assert [envelope.original_content for envelope in inbox.take_envelopes()] == MESSAGES[1:3]
