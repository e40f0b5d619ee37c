#!/usr/bin/env python3
"""Prints an HS256 access token as the app's backend would issue one, for `oncue serve --client-jwt SECRET_FILE`.

    python3 scripts/lib/mint_jwt.py --secret-file FILE [--subject S] [--minutes 15] [--issuer I] [--audience A]

For tests, benchmarks and schemathesis: the secret is the file's bytes without a trailing line break, as the server
reads it. Standard library only (RFC 7519 with RFC 7515's HMAC-SHA256).
"""
import argparse, base64, hashlib, hmac, json, pathlib, time


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint(secret: bytes, subject: str, minutes: float, issuer=None, audience=None) -> str:
    now = int(time.time())
    claims = {"sub": subject, "iat": now, "exp": now + int(minutes * 60)}
    if issuer:
        claims["iss"] = issuer
    if audience:
        claims["aud"] = audience
    signing_input = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + b64url(json.dumps(claims).encode())
    signature = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--secret-file", required=True)
    ap.add_argument("--subject", default="oncue-test-user")
    ap.add_argument("--minutes", type=float, default=15)
    ap.add_argument("--issuer")
    ap.add_argument("--audience")
    args = ap.parse_args()
    secret = pathlib.Path(args.secret_file).read_bytes().rstrip(b"\r\n")
    print(mint(secret, args.subject, args.minutes, args.issuer, args.audience))


if __name__ == "__main__":
    main()
