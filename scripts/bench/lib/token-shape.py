#!/usr/bin/env python3
"""The shape of a token response for scripts/bench/code-flow's checks: "at=<alg> id=<alg> rt=yes|no" (the JWS alg of
the access and ID tokens, whether a refresh token came).

Usage: token-shape.py RESPONSE_JSON
"""
import base64, json, sys
j = json.load(open(sys.argv[1]))
def alg(t):
    if not t: return "-"
    h = t.split(".")[0]; h += "=" * (-len(h) % 4)
    return json.loads(base64.urlsafe_b64decode(h)).get("alg")
print("at=%s id=%s rt=%s" % (alg(j.get("access_token")), alg(j.get("id_token")), "yes" if j.get("refresh_token") else "no"))
