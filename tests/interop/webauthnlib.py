"""A software WebAuthn authenticator and client for the passkey tests (SPEC §17), on `cryptography`: it answers the
options Warden sends (`authn_params_public_key`) with a `PublicKeyCredential` in its JSON form (WebAuthn Level 3
§5.1.8), as a platform authenticator and browser together would, and can tamper with exactly one input of either
ceremony. Attestation `none`, or `packed` self-attestation; keys ES256 (−7), EdDSA (−8) or RS256 (−257); a minimal
CBOR encoder (RFC 8949 §3: the major types an attestation object uses)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# --------------------------------------------------------------------------------------------------------- CBOR
def _head(major: int, value: int) -> bytes:
    if value < 24:
        return bytes([major << 5 | value])
    for extra, fmt in ((24, ">B"), (25, ">H"), (26, ">I"), (27, ">Q")):
        if value < 1 << (8 * struct.calcsize(fmt)):
            return bytes([major << 5 | extra]) + struct.pack(fmt, value)
    raise ValueError("too large")


def cbor(value: Any) -> bytes:
    """RFC 8949 encoding of ints, bytes, text, lists, dicts (keys in insertion order) and booleans."""
    if value is True:
        return b"\xf5"
    if value is False:
        return b"\xf4"
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, str):
        raw = value.encode()
        return _head(3, len(raw)) + raw
    if isinstance(value, list):
        return _head(4, len(value)) + b"".join(cbor(v) for v in value)
    if isinstance(value, dict):
        return _head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value.items())
    raise TypeError(type(value))


# ------------------------------------------------------------------------------------------------------- keys
ALGORITHMS = {"ES256": -7, "EdDSA": -8, "RS256": -257}


class Key:
    def __init__(self, alg: str):
        self.alg = alg
        if alg == "ES256":
            self.private = ec.generate_private_key(ec.SECP256R1())
        elif alg == "EdDSA":
            self.private = ed25519.Ed25519PrivateKey.generate()
        elif alg == "RS256":
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        else:
            raise ValueError(alg)

    def cose(self, alg_override: int | None = None) -> dict:
        alg = ALGORITHMS[self.alg] if alg_override is None else alg_override
        public = self.private.public_key()
        if self.alg == "ES256":
            numbers = public.public_numbers()
            return {1: 2, 3: alg, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
        if self.alg == "EdDSA":
            from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
            return {1: 1, 3: alg, -1: 6, -2: public.public_bytes(Encoding.Raw, PublicFormat.Raw)}
        numbers = public.public_numbers()
        return {1: 3, 3: alg, -1: numbers.n.to_bytes(256, "big"), -2: numbers.e.to_bytes(3, "big")}

    def sign(self, data: bytes) -> bytes:
        if self.alg == "ES256":
            return self.private.sign(data, ec.ECDSA(hashes.SHA256()))
        if self.alg == "EdDSA":
            return self.private.sign(data)
        return self.private.sign(data, padding.PKCS1v15(), hashes.SHA256())


# -------------------------------------------------------------------------------------------------- authenticator
UP, UV, BE, BS, AT = 0x01, 0x04, 0x08, 0x10, 0x40


@dataclass
class Credential:
    id: bytes
    key: Key
    user_handle: bytes
    sign_count: int = 0


@dataclass
class Authenticator:
    """A passkey provider for one RP ID, talking for a client at `origin`. `tamper` keys, each changing exactly one
    input: `type`, `challenge`, `origin`, `cross_origin`, `rp_id_hash`, `flags` (the byte), `alg` (the COSE key's
    algorithm), `packed_signature` (a `packed` self-attestation whose signature is wrong), `credential_id` (bytes),
    `sign_count`, `signature`, `user_handle` (None: absent, as a security key answers), `raw_id`."""
    rp_id: str
    origin: str
    alg: str = "ES256"
    aaguid: bytes = field(default_factory=lambda: bytes(16))
    credentials: list[Credential] = field(default_factory=list)
    backup_eligible: bool = False

    def client_data(self, kind: str, challenge: str, tamper: dict) -> bytes:
        data = {"type": tamper.get("type", kind), "challenge": tamper.get("challenge", challenge),
                "origin": tamper.get("origin", self.origin)}
        if "cross_origin" in tamper:
            data["crossOrigin"] = tamper["cross_origin"]
        return json.dumps(data, separators=(",", ":")).encode()

    def auth_data(self, flags: int, sign_count: int, tamper: dict, attested: bytes = b"") -> bytes:
        rp_hash = tamper.get("rp_id_hash", hashlib.sha256(self.rp_id.encode()).digest())
        return rp_hash + bytes([tamper.get("flags", flags)]) + struct.pack(">I", sign_count) + attested

    def default_flags(self) -> int:
        return UP | UV | ((BE | BS) if self.backup_eligible else 0)

    def create(self, options: dict, *, packed: bool = False, **tamper) -> dict:
        """navigator.credentials.create(): a new credential for `options` (creation options, binary base64url)."""
        offered = [p["alg"] for p in options["pubKeyCredParams"]]
        assert ALGORITHMS[self.alg] in offered, (self.alg, offered)
        key = Key(self.alg)
        credential = Credential(id=tamper.get("credential_id", os.urandom(32)), key=key,
                                user_handle=unb64url(options["user"]["id"]))
        client_data = self.client_data("webauthn.create", options["challenge"], tamper)
        attested = (self.aaguid + struct.pack(">H", len(credential.id)) + credential.id
                    + cbor(key.cose(tamper.get("alg"))))
        auth_data = self.auth_data(self.default_flags() | AT, 0, tamper, attested)
        statement: dict = {}
        if packed:
            signature = key.sign(auth_data + hashlib.sha256(client_data).digest())
            if tamper.get("packed_signature"):
                signature = signature[:-1] + bytes([signature[-1] ^ 1])
            statement = {"alg": ALGORITHMS[self.alg], "sig": signature}
        attestation = cbor({"fmt": "packed" if packed else "none", "attStmt": statement, "authData": auth_data})
        self.credentials.append(credential)
        raw_id = tamper.get("raw_id", credential.id)
        return {"id": b64url(raw_id), "rawId": b64url(raw_id), "type": "public-key",
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation),
                             "transports": ["internal", "hybrid"]}}

    def get(self, options: dict, credential: Credential | None = None, **tamper) -> dict:
        """navigator.credentials.get() for a discoverable credential (the newest unless `credential`)."""
        credential = credential or self.credentials[-1]
        credential.sign_count += 1
        sign_count = tamper.get("sign_count", credential.sign_count)
        client_data = self.client_data("webauthn.get", options["challenge"], tamper)
        auth_data = self.auth_data(self.default_flags(), sign_count, tamper)
        signature = credential.key.sign(auth_data + hashlib.sha256(client_data).digest())
        if tamper.get("signature"):
            signature = signature[:-1] + bytes([signature[-1] ^ 1])
        raw_id = tamper.get("raw_id", credential.id)
        handle = tamper.get("user_handle", credential.user_handle)  # None: a key that keeps no user handle
        return {"id": b64url(raw_id), "rawId": b64url(raw_id), "type": "public-key",
                "authenticatorAttachment": "platform",
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature),
                             "userHandle": None if handle is None else b64url(handle)}}
