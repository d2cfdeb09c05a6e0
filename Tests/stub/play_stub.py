#!/usr/bin/env python3
"""A stub of Google's Play Developer API and its OAuth token endpoint, on 127.0.0.1 only.

It checks what Google checks and logs every request, so a test can see what the tool sent:

- POST /token: a service account's assertion (grant_type jwt-bearer), an RS256 JWT whose
  signature verifies with the script's modulus, header kid the script's key id, claims iss
  the script's client_email, scope androidpublisher, aud this endpoint, iat within 5 minutes
  of now, exp after now and at most an hour after iat. Refused: 400 invalid_grant.
- Every API call: "Authorization: Bearer T" with a T this stub issued. Refused: 401.
- GET .../applications/PKG/purchases/voidedpurchases: startTime no older than 30 days,
  endTime not after now, startTime before endTime, maxResults at most 1000, type 0 or 1; the
  pages of the script's "voided_pages" (lists of VoidedPurchase objects), pretty-printed as
  Google sends them, "nextPageToken" "page-K" to the next; a token it never gave is refused.
- GET .../applications/PKG/purchases/productsv2/tokens/T and .../subscriptionsv2/tokens/T: the
  script's "purchases" object by token, when its kind is the path's, else 404 NOT_FOUND.
- GET .../applications/PKG/orders:batchGet?orderIds=A&orderIds=B: 1 to 1000 distinct ids, each
  one of the script's "orders" (an object of Order objects by id), else the whole call fails
  (404 NOT_FOUND, as Google's does); the orders in the order asked.
- POST .../applications/PKG/orders/ID:reviewrefund: a review of the script's "reviews" (by
  order id: {"token": pendingRefundToken, "at_ms": when it was notified}) still inside its 24
  hours (else 400 FAILED_PRECONDITION), a JSON body of Google's schema: pendingRefundToken the
  review's, sampleContentProvided a boolean, refundPreference DECLINE, APPROVE or NEUTRAL (all
  three required), consumptionPercentageMilliunits a whole number 0 to 100,000, at most 1,000
  consumptionUsageEvents of Google's members (consumptionTime RFC 3339, a description of at
  most 5,000 characters), nothing else (400 INVALID_ARGUMENT). Only the first accepted call
  counts: it is logged "review first", a later one "review repeat" and answered alike (200,
  empty). "review_failures": {"ID": {"status": 500, "times": N}} fails the call N times first;
  "review_delay": seconds waited before answering (a test kills the tool meanwhile);
  "review_raw": {"ID": {"status": 200, "body": "<html>..."}} answers with those bytes instead,
  as a proxy in the way would. A review's "at_ms" is its notification's eventTimeMillis.

Script (JSON): {"client_email", "key_id", "modulus" (hex), "package": "com.example.app", "reviews": {...},
"voided_pages": [[...], ...], "orders": {"GPA...": {...}}, "purchases": {"token": {...}}, "failures": [{"page": K, "status": 500, "times": N}],
"expire_tokens_after": M, "echo_token": true}: page K answers with that status N times before
it is served (with a "Retry-After" of the failure's "retry_after", when it has one); after
M calls, every token issued so far is expired (401), as Google's expire within the hour; with
"echo_token", each page carries the request's Authorization header, as a hostile server would.
"client_email" and "key_id" are the key file's client_email and private_key_id.

Run: play_stub.py --script S.json --log L.jsonl [--lifetime SECONDS]; it prints "PORT N".
"""
import argparse
import base64
import hashlib
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer

SCOPE = "https://www.googleapis.com/auth/androidpublisher"
DAY_MS = 86_400_000


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def rs256_verifies(signing_input, signature, modulus, exponent=65537):
    """RSASSA-PKCS1-v1_5 with SHA-256, checked by hand: the stub needs nothing but Python."""
    size = (modulus.bit_length() + 7) // 8
    if len(signature) != size:
        return False
    encoded = pow(int.from_bytes(signature, "big"), exponent, modulus).to_bytes(size, "big")
    digest_info = bytes.fromhex("3031300d060960864801650304020105000420") + hashlib.sha256(signing_input).digest()
    expected = b"\x00\x01" + b"\xff" * (size - len(digest_info) - 3) + b"\x00" + digest_info
    return encoded == expected


EVENT_MEMBERS = {"obfuscatedAccountId", "obfuscatedProfileId", "consumptionTime", "consumptionItemDescription",
                 "ipAddress", "location"}


def rfc3339(text):
    """Google's Timestamp: RFC 3339, Z-normalized, 0, 3, 6 or 9 fractional digits."""
    import re
    return isinstance(text, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)", text)


def review_problems(raw, token):
    """What Google's orders.reviewrefund would refuse in a body."""
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return ["the body is not JSON"]
    if not isinstance(body, dict):
        return ["the body is not an object"]
    problems = []
    allowed = {"pendingRefundToken", "sampleContentProvided", "refundPreference", "consumptionPercentageMilliunits",
               "consumptionUsageEvents"}
    problems += ["unknown member %s" % k for k in sorted(set(body) - allowed)]
    if body.get("pendingRefundToken") != token:
        problems.append("pendingRefundToken is not the review's")
    if not isinstance(body.get("sampleContentProvided"), bool):
        problems.append("sampleContentProvided is required, a boolean")
    if body.get("refundPreference") not in ("DECLINE", "APPROVE", "NEUTRAL"):
        problems.append("refundPreference is required: DECLINE, APPROVE or NEUTRAL")
    share = body.get("consumptionPercentageMilliunits", 0)
    if isinstance(share, bool) or not isinstance(share, int) or not 0 <= share <= 100_000:
        problems.append("consumptionPercentageMilliunits is 0 to 100000")
    events = body.get("consumptionUsageEvents", [])
    if not isinstance(events, list) or len(events) > 1000:
        problems.append("consumptionUsageEvents: a list of at most 1000")
        events = []
    for index, event in enumerate(events):
        if not isinstance(event, dict) or set(event) - EVENT_MEMBERS:
            problems.append("consumptionUsageEvents[%d] has unknown members" % index)
            continue
        if "consumptionTime" in event and not rfc3339(event["consumptionTime"]):
            problems.append("consumptionUsageEvents[%d].consumptionTime is not RFC 3339" % index)
        if len(event.get("consumptionItemDescription", "")) > 5000:
            problems.append("consumptionUsageEvents[%d].consumptionItemDescription is over 5000 characters" % index)
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--lifetime", type=float, default=120)
    args = parser.parse_args()
    with open(args.script) as handle:
        script = json.load(handle)
    modulus = int(script["modulus"], 16)
    pages = script.get("voided_pages", [[]])
    failures = {f["page"]: dict(f) for f in script.get("failures", [])}
    issued = set()
    answered = {}
    review_failures = {k: dict(v) for k, v in script.get("review_failures", {}).items()}
    lock = threading.Lock()
    calls = [0]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def reply(self, status, body, pretty=False):
            # Sent once the request is logged: a test reads the log as soon as the tool exits.
            self.pending = (status, json.dumps(body, indent=2 if pretty else None).encode())

        def google_error(self, status, reason, message):
            self.reply(status, {"error": {"code": status, "message": message, "status": reason}})

        def token(self, body):
            form = urllib.parse.parse_qs(body.decode("utf-8", "replace"))
            if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
                return self.reply(400, {"error": "unsupported_grant_type", "error_description": "Invalid grant_type"}), "grant"
            try:
                head, claims, signature = form["assertion"][0].split(".")
                header = json.loads(b64url(head))
                payload = json.loads(b64url(claims))
                signed = rs256_verifies((head + "." + claims).encode(), b64url(signature), modulus)
            except Exception:
                return self.reply(400, {"error": "invalid_grant", "error_description": "Invalid JWT"}), "malformed"
            now = time.time()
            audience = "http://127.0.0.1:%d/token" % self.server.server_address[1]
            problems = []
            if header.get("alg") != "RS256" or header.get("kid") != script["key_id"]:
                problems.append("header")
            if not signed:
                problems.append("Invalid JWT Signature.")
            if payload.get("iss") != script["client_email"] or payload.get("scope") != SCOPE or payload.get("aud") != audience:
                problems.append("claims")
            iat, exp = payload.get("iat", 0), payload.get("exp", 0)
            if abs(iat - now) > 300 or exp <= now or exp - iat > 3600:
                problems.append("times")
            if problems:
                return self.reply(400, {"error": "invalid_grant", "error_description": "; ".join(problems)}), "refused"
            token = "ya29.stub-" + secrets.token_hex(16)
            with lock:
                issued.add(token)
            self.reply(200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"})
            return None, "issued"

        def voided(self, query):
            now_ms = int(time.time() * 1000)
            try:
                start, end = int(query["startTime"][0]), int(query["endTime"][0])
                size, kind = int(query.get("maxResults", ["1000"])[0]), int(query.get("type", ["0"])[0])
            except (KeyError, ValueError):
                return self.google_error(400, "INVALID_ARGUMENT", "startTime and endTime are required"), "invalid"
            if start < now_ms - 30 * DAY_MS or end > now_ms or start >= end or size > 1000 or kind not in (0, 1):
                return self.google_error(400, "INVALID_ARGUMENT", "Invalid time range or page"), "invalid"
            token = query.get("token", [None])[0]
            index = 0 if token is None else (int(token[5:]) if token.startswith("page-") and token[5:].isdigit() else -1)
            if not 0 <= index < len(pages):
                return self.google_error(400, "INVALID_ARGUMENT", "Invalid pagination token"), "bad token"
            with lock:
                failure = failures.get(index)
                if failure and failure["times"] > 0:
                    failure["times"] -= 1
                    status = failure["status"]
                    if "retry_after" in failure:
                        self.extra_headers = [("Retry-After", failure["retry_after"])]
                    return self.google_error(status, "UNAVAILABLE" if status >= 500 else "FAILED_PRECONDITION", "stub failure"), "failed"
            page = {"pageInfo": {"totalResults": sum(len(p) for p in pages), "resultPerPage": len(pages[index]),
                                 "startIndex": index}}
            if index + 1 < len(pages):
                page["tokenPagination"] = {"nextPageToken": "page-%d" % (index + 1)}
            if pages[index]:
                page["voidedPurchases"] = pages[index]
            if script.get("echo_token"):
                # A hostile server's page: the request's own credentials sent back.
                page["note"] = self.headers.get("Authorization", "")
            self.reply(200, page, pretty=True)
            return None, "page %d" % index

        def orders(self, query):
            ids = query.get("orderIds", [])
            known = script.get("orders", {})
            if not 1 <= len(ids) <= 1000 or len(set(ids)) != len(ids):
                return self.google_error(400, "INVALID_ARGUMENT", "1 to 1000 distinct order ids"), "invalid"
            if any(i not in known for i in ids):
                return self.google_error(404, "NOT_FOUND", "Order not found"), "not found"
            self.reply(200, {"orders": [known[i] for i in ids]}, pretty=True)
            return None, "orders %d" % len(ids)

        def purchase(self, kind, token):
            found = script.get("purchases", {}).get(urllib.parse.unquote(token))
            wanted = "androidpublisher#productPurchaseV2" if kind == "productsv2" else "androidpublisher#subscriptionPurchaseV2"
            if not found or found.get("kind") != wanted:
                return self.google_error(404, "NOT_FOUND", "Purchase not found"), "not found"
            self.reply(200, found, pretty=True)
            return None, "purchase"

        def review(self, order, body):
            known = script.get("reviews", {}).get(urllib.parse.unquote(order))
            if known is None:
                return self.google_error(404, "NOT_FOUND", "Order not found"), "not found"
            if (self.headers.get("Content-Type") or "").split(";")[0].strip() != "application/json":
                return self.google_error(400, "INVALID_ARGUMENT", "Content-Type must be application/json"), "invalid"
            problems = review_problems(body, known["token"])
            if problems:
                return self.google_error(400, "INVALID_ARGUMENT", "; ".join(problems)), "invalid: " + "; ".join(problems)
            if time.time() * 1000 > known["at_ms"] + DAY_MS:
                return self.google_error(400, "FAILED_PRECONDITION", "The refund review's 24 hours have passed"), "late"
            raw = script.get("review_raw", {}).get(order)
            if raw is not None:
                self.pending = (raw["status"], raw["body"].encode())
                return None, "raw"
            with lock:
                failure = review_failures.get(order)
                if failure and failure["times"] > 0:
                    failure["times"] -= 1
                    return self.google_error(failure["status"], "UNAVAILABLE", "stub failure"), "failed"
                first = order not in answered
                if first:
                    answered[order] = body
            time.sleep(script.get("review_delay", 0))
            self.reply(200, {})
            return None, "review first" if first else "review repeat"

        def answer(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            url = urllib.parse.urlsplit(self.path)
            if self.command == "POST" and url.path == "/token":
                _, note = self.token(body)
            else:
                authorization = self.headers.get("Authorization", "")
                with lock:
                    known = authorization.startswith("Bearer ") and authorization[7:] in issued
                    calls[0] += 1
                    if calls[0] == script.get("expire_tokens_after"):
                        issued.clear()
                        known = False
                prefix = "/androidpublisher/v3/applications/%s/purchases/voidedpurchases" % script.get("package", "")
                if not known:
                    self.google_error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
                    note = "unauthenticated"
                elif self.command == "GET" and url.path == prefix:
                    _, note = self.voided(urllib.parse.parse_qs(url.query))
                elif self.command == "GET" and url.path.startswith("/androidpublisher/v3/applications/%s/purchases/" % script.get("package", "")) \
                        and url.path.split("/")[-2] == "tokens":
                    _, note = self.purchase(url.path.split("/")[-3], url.path.split("/")[-1])
                elif self.command == "GET" and url.path == "/androidpublisher/v3/applications/%s/orders:batchGet" % script.get("package", ""):
                    _, note = self.orders(urllib.parse.parse_qs(url.query))
                elif self.command == "POST" and url.path.startswith("/androidpublisher/v3/applications/%s/orders/" % script.get("package", "")) \
                        and url.path.endswith(":reviewrefund"):
                    _, note = self.review(url.path.split("/")[-1][:-len(":reviewrefund")], body)
                else:
                    self.google_error(404, "NOT_FOUND", "no such route in the stub")
                    note = "no route"
            with lock, open(args.log, "a") as log:
                log.write(json.dumps({
                    "method": self.command, "path": self.path,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "body": body.decode("utf-8", "replace"), "at": time.time(), "note": note,
                }) + "\n")
            status, data = self.pending
            self.send_response(status)
            for name, value in getattr(self, "extra_headers", []):
                self.send_header(name, value)
            self.extra_headers = []
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_PUT = do_POST = answer

    class Server(HTTPServer):
        def handle_error(self, request, client_address):
            if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), Handler)
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Timer(args.lifetime, server.shutdown).start()
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
