#!/usr/bin/env python3
"""An OpenID Provider for the login-flow tests, on 127.0.0.1 (tokens made with jwcrypto).

Started by the Swift tests as a subprocess (`python3 oauth_provider_test_server.py [ISSUER_PATH]`).
It prints its port on the first line of stdout; the issuer is http://127.0.0.1:PORT followed by
ISSUER_PATH (for example /tenant, or nothing). It exits when its stdin closes, or after 600 s.

Provider endpoints:
  GET  ISSUER/.well-known/openid-configuration           OpenID Connect Discovery
  GET  /.well-known/oauth-authorization-server + PATH    RFC 8414 (path inserted after the host)
  GET  /jwks.json                                        the provider's public RSA key
  GET  /authorize?...     checks the request and simulates the browser redirect: answers
                          {"location": REDIRECT?code=..&state=..&iss=..} (or #... for
                          response_mode=fragment), or {"form_post_action": .., "form_post_body": ..}
                          for response_mode=form_post; 400 {"error":..} for a bad request
  GET  /authorize (behaviour "interactive")  the browser's login instead: an HTML login form
                          (alice / wonderland), POST /login, a consent page, POST /consent, then a
                          302 to the callback (error=access_denied when the user denies)
  POST /device_authorization  RFC 8628 §3.1: client authentication, then the device and user codes
                          (interval "device_interval", lifetime "device_expires_in")
  POST /par               RFC 9126: client authentication, then 201 {"request_uri":..,"expires_in":60}
  POST /token             authorization_code (single-use code, PKCE S256 verifier checked against
                          the stored challenge, redirect_uri) or refresh_token; client
                          authentication none / client_secret_basic / client_secret_post /
                          private_key_jwt (assertion verified with jwcrypto: signature, iss=sub=
                          client_id, aud = token endpoint or issuer, exp within 60 s, fresh jti)
                          ID tokens are RS256, or HS256/HS384/HS512 keyed with the UTF-8 bytes of
                          the client secret for a client registered with "id_token_alg"
                          A DPoP header (RFC 9449) on /token or /par is verified with jwcrypto
                          (typ, alg, jwk, signature, htm, htu, iat, jti, no ath, nonce when the
                          behaviour dpop_nonce is set: else 400 use_dpop_nonce with DPoP-Nonce);
                          a proved grant gets token_type DPoP and a JWT access token with cnf.jkt,
                          and its refresh token and PAR-bound code need a proof with the same key
                          grant_type device_code (RFC 8628 §3.4): the errors of "device_script"
                          first, then authorization_pending until approved, access_denied when
                          denied, expired_token when "device_expired" is set
                          grant_type client_credentials (RFC 6749 §4.4) for a client that
                          authenticates (not "none"): an access token for the client itself
                          ("access_expires_in", no refresh or ID token), its scope,
                          resource (RFC 8707) and audience recorded
A loopback redirect URI registered without a port matches any port (RFC 8252 §7.3).

Test control:
  POST /_control/client     {"client_id", "auth", "secret"?, "jwk"?, "redirect_uris": [..],
                            "encryption_jwk"?}: with "encryption_jwk" (the client's public key),
                            ID tokens and signed UserInfo answers are nested JWTs, signed, then
                            encrypted to it with jwcrypto (RSA-OAEP-256 or ECDH-ES+A256KW, A256GCM,
                            cty JWT)
  POST /_control/behaviour  members merged into the behaviour (see BEHAVIOUR below)
  POST /_control/release_refresh   lets the refresh requests held by "hold_refresh" answer
  POST /_control/device     {"user_code", "approve": true|false}: the user's answer to a device code
  GET  /_control/last?path=/token   {"count": n, "params": {..last form or query..}, "headers": {..},
                                    "dpop": {"jkt", "htu", "nonce"} of the last verified proof or null}
  POST /_control/release_client_credentials   lets the client-credentials requests held by
                            "hold_client_credentials" answer (and later ones)
  GET  /_control/client_credentials  {"grants": [{"client_id", "scope", "resource", "audience",
                            "access_token"}, ..]}: the client-credentials tokens issued, oldest first

Relying-party endpoints after the login (RP_ROUTES below):
  GET  /userinfo          OIDC Core 5.3: Bearer access token from /token; JSON claims, or a JWT
                          signed like ID tokens (behaviour userinfo_signed); 401 with
                          WWW-Authenticate error="invalid_token" for an unknown token
  POST /introspect        RFC 7662: client authentication, then {"active": true, ..} for an access
                          token /token issued or /_control/introspection registered, else
                          {"active": false}; behaviour introspect_raw answers {"status", "body"}
  POST /_control/introspection  {"token", "claims"}: the answer's members for that token
  POST /revoke            RFC 7009: client authentication, then forgets the token (200 also for
                          an unknown one); behaviour revoke_error answers 400 with that error
  GET  /logout            RP-initiated logout: id_token_hint verified, post_logout_redirect_uri
                          registered; answers {"location": post_logout_redirect_uri?state=..}
  POST /_control/logout_token  {"client_id", "claims"?, "header"?, "foreign_key"?}: a back-channel
                          logout token signed with jwcrypto; a null claim or header member removes it
  GET  /_control/revoked  {"revoked": [{"token", "token_type_hint", "client_id"}, ..]}
  GET, POST /resource     a resource server for the tokens /token issued (RFC 6750, RFC 9449 §7):
                          "Authorization: Bearer" for a Bearer token; "Authorization: DPoP" and a
                          proof for a DPoP-bound one (verified with jwcrypto: key = the token's
                          jkt, htm, htu, ath, iat, jti, and the nonce "resource_dpop_nonce" when
                          set, a new one each time with "resource_dpop_nonce_rotate", else 401
                          DPoP error="use_dpop_nonce" with a DPoP-Nonce header);
                          200 {"sub", "method", "body"}, or 401 error="invalid_token" for a token
                          not issued or revoked (or every token, with "resource_refuse_all");
                          /_control/last?path=/resource records the body as params.body and the
                          proof as dpop {"jkt", "htu", "nonce", "ath"}
"""

import base64
import hashlib
import json
import os
import pathlib
import secrets
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote_plus, urlencode, urlsplit, urlunsplit

from jwcrypto import jwk, jwt

LOCK = threading.Lock()
ISSUER_PATH = sys.argv[1] if len(sys.argv) > 1 else ""
# A fixed test key, made once with jwcrypto (`jwk.JWK.generate(kty="RSA", size=2048,
# kid="provider-key-1", alg="RS256", use="sig")`): generating it at every start was a third of the
# server's start-up, and the tests start hundreds of servers.
SIGNING_KEY = jwk.JWK.from_json((pathlib.Path(__file__).parent / "provider_signing_key.json").read_text())
CLIENTS = {}
CODES = {}
REFRESH_TOKENS = {}
PUSHED = {}
SEEN_JTIS = set()
REQUESTS = {}
REFRESH_RELEASE = threading.Event()
CLIENT_CREDENTIALS_RELEASE = threading.Event()
CLIENT_CREDENTIALS = []
DPOP_ALGS = ["ES256", "ES384", "ES512", "PS256", "PS384", "PS512", "RS256", "EdDSA"]
BEHAVIOUR = {
    "iss_supported": True,        # metadata authorization_response_iss_parameter_supported
    "send_iss": True,             # put iss in the callback
    "iss_override": None,         # send this iss instead
    "state_override": None,       # send this state instead
    "authorize_error": None,      # {"error": .., "error_description": ..} instead of a code
    "metadata_extra": {},         # members merged into both metadata documents (null removes one)
    "token_body": None,           # answer /token with this body ...
    "token_status": 200,          # ... and this status
    "nonce_override": None,       # put this nonce in ID tokens
    "at_hash_override": None,     # put this at_hash in ID tokens
    "refresh_sub": None,          # subject of ID tokens from refresh
    "refresh_nonce": None,        # nonce of ID tokens from refresh (none unless set)
    "acr_override": None,         # acr of ID tokens, whatever acr_values asked for ("" for none)
    "token_redirect": None,       # answer /token with a 307 to this Location
    "par_body": None,             # answer /par with this body ...
    "par_status": 201,            # ... and this status
    "hold_refresh": False,        # hold refresh_token requests until /_control/release_refresh
    "dpop_nonce": None,           # the nonce DPoP proofs must carry (none required unless set)
    "dpop_nonce_rotate": False,   # give a new nonce with every use_dpop_nonce, so a retry fails too
    "token_type_override": None,  # answer /token with this token_type
    "interactive": False,         # /authorize serves a login form and consent page to a browser
    "device_interval": 1,         # the device authorization's interval
    "device_expires_in": 600,     # the device authorization's expires_in
    "device_script": [],          # errors answered to device-code polls before the real state
    "device_expired": False,      # answer device-code polls with expired_token
    "device_auto_answer": None,   # the user's answer (true/false) given to each new device code
    "hold_client_credentials": False,      # hold client_credentials requests until released
    "acr": "urn:example:loa:2",
    "amr": ["pwd", "mfa"],
    "clock_offset": 0,            # seconds added to this server's clock (tests that move a client's clock ahead)
    "access_expires_in": 3600,    # the expires_in of issued access tokens
    "refresh_rotates": True,      # a refresh answer carries a new refresh token (false: none, the old one stays valid)
    "device_id_token": True,      # the device grant's token answer carries an ID token
    "id_token_extra": {},         # claims added to every ID token
}


def encrypted_for(client_id, signed_token):
    """`signed_token` encrypted to the client's "encryption_jwk" as a nested JWT, or as it is
    for a client without one."""
    public = CLIENTS.get(client_id, {}).get("encryption_jwk")
    if not public:
        return signed_token
    key = jwk.JWK(**public)
    alg = "RSA-OAEP-256" if public["kty"] == "RSA" else "ECDH-ES+A256KW"
    outer = jwt.JWT(header={"alg": alg, "enc": "A256GCM", "cty": "JWT"}, claims=signed_token)
    outer.make_encrypted_token(key)
    return outer.serialize()


def now_seconds():
    """This server's clock: the wall clock plus "clock_offset"."""
    return int(time.time()) + BEHAVIOUR["clock_offset"]


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "oauth-provider-test-server/1"

    def log_message(self, format, *args):  # noqa: A002 - quiet: tests read stdout
        pass

    # --- helpers ----------------------------------------------------------------------------

    @property
    def base(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    @property
    def issuer(self):
        return self.base + ISSUER_PATH

    def send_json(self, status, value, headers=None):
        data = json.dumps(value).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        for name, item in (headers or {}).items():
            self.send_header(name, item)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def record(self, path, params):
        with LOCK:
            entry = REQUESTS.setdefault(path, {"count": 0})
            entry["count"] += 1
            entry["params"] = params
            entry["headers"] = {k.lower(): v for k, v in self.headers.items()}
            entry["dpop"] = None

    def check_proof(self, proof, htm, path, access_token):
        """The claims and key thumbprint of a valid DPoP proof for this request (htm, htu
        base + path, ath of access_token or none); raises ValueError naming the problem."""
        try:
            parts = proof.split(".")
            header = json.loads(base64.urlsafe_b64decode(parts[0] + "=" * (-len(parts[0]) % 4)))
            public = header["jwk"]
            if header.get("typ") != "dpop+jwt" or header.get("alg") not in DPOP_ALGS or "d" in public:
                raise ValueError("bad typ, alg or jwk")
            key = jwk.JWK(**public)
            claims = json.loads(jwt.JWT(jwt=proof, key=key, algs=DPOP_ALGS).claims)
        except ValueError:
            raise
        except Exception as error:  # noqa: BLE001 - any failure is a bad proof
            raise ValueError("the proof does not verify: %s" % error) from error
        ath = b64url(hashlib.sha256(access_token.encode("ascii")).digest()) if access_token else None
        iat, jti = claims.get("iat"), claims.get("jti")
        if claims.get("htm") != htm or claims.get("htu") != self.base + path or claims.get("ath") != ath:
            raise ValueError("bad htm, htu or ath")
        if not isinstance(iat, int) or abs(iat - now_seconds()) > 60 or not isinstance(jti, str) or not jti:
            raise ValueError("bad iat or jti")
        with LOCK:
            if jti in SEEN_JTIS:
                raise ValueError("replayed jti")
            SEEN_JTIS.add(jti)
        return claims, key.thumbprint()

    def dpop(self, path):
        """(True, jkt or None) for a request without a proof or with a valid one; (False, None)
        when an error was sent. Records the verified proof."""
        proofs = self.headers.get_all("DPoP") or []
        if not proofs:
            return True, None
        if len(proofs) != 1:
            return self.dpop_failure("several DPoP headers")
        try:
            claims, jkt = self.check_proof(proofs[0], "POST", path, None)
        except ValueError as error:
            return self.dpop_failure(str(error))
        with LOCK:
            if BEHAVIOUR["dpop_nonce_rotate"] or BEHAVIOUR["dpop_nonce"] is not None \
                    and claims.get("nonce") != BEHAVIOUR["dpop_nonce"]:
                if BEHAVIOUR["dpop_nonce_rotate"]:
                    BEHAVIOUR["dpop_nonce"] = secrets.token_urlsafe(16)
                nonce = BEHAVIOUR["dpop_nonce"]
            else:
                nonce = None
            REQUESTS[path]["dpop"] = {"jkt": jkt, "htu": claims["htu"], "nonce": claims.get("nonce")}
        if nonce is not None:
            self.send_json(400, {"error": "use_dpop_nonce", "error_description": "use the DPoP nonce"},
                           {"DPoP-Nonce": nonce})
            return False, None
        return True, jkt

    def dpop_failure(self, description):
        self.oauth_error(400, "invalid_dpop_proof", description)
        return False, None

    def oauth_error(self, status, error, description):
        self.send_json(status, {"error": error, "error_description": description})

    def metadata(self):
        value = {
            "issuer": self.issuer,
            "authorization_endpoint": self.base + "/authorize",
            "token_endpoint": self.base + "/token",
            "pushed_authorization_request_endpoint": self.base + "/par",
            "device_authorization_endpoint": self.base + "/device_authorization",
            "userinfo_endpoint": self.base + "/userinfo",
            "end_session_endpoint": self.base + "/logout",
            "revocation_endpoint": self.base + "/revoke",
            "introspection_endpoint": self.base + "/introspect",
            "jwks_uri": self.base + "/jwks.json",
            "response_types_supported": ["code"],
            "response_modes_supported": ["query", "fragment", "form_post"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256", "none"],
            "token_endpoint_auth_methods_supported": [
                "none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
            "code_challenge_methods_supported": ["S256"],
            "scopes_supported": ["openid", "profile", "email", "offline_access"],
            "acr_values_supported": ["urn:example:loa:1", "urn:example:loa:2"],
            "authorization_response_iss_parameter_supported": BEHAVIOUR["iss_supported"],
        }
        value.update(BEHAVIOUR["metadata_extra"])
        return {name: member for name, member in value.items() if member is not None}

    def form(self):
        try:
            pairs = parse_qsl(self.read_body().decode("utf-8"), keep_blank_values=True, strict_parsing=True)
        except ValueError:
            return None
        names = [name for name, _ in pairs]
        if len(names) != len(set(names)):
            return None
        return dict(pairs)

    # --- client authentication --------------------------------------------------------------

    def authenticate(self, form, endpoint):
        """The authenticated client id, or None (an error was sent)."""
        header = self.headers.get("Authorization")
        if header:
            if not header.startswith("Basic "):
                return self.client_failure("unsupported Authorization scheme")
            try:
                decoded = base64.b64decode(header[6:], validate=True).decode("utf-8")
                raw_id, raw_secret = decoded.split(":", 1)
            except ValueError:
                return self.client_failure("bad Basic credentials")
            client_id, secret = unquote_plus(raw_id), unquote_plus(raw_secret)
            client = CLIENTS.get(client_id)
            if not client or client["auth"] != "client_secret_basic" or not secrets.compare_digest(client["secret"], secret):
                return self.client_failure("client_secret_basic failed")
            return client_id
        if "client_assertion" in form:
            return self.verify_assertion(form, endpoint)
        client_id = form.get("client_id")
        client = CLIENTS.get(client_id)
        if not client:
            return self.client_failure("unknown client")
        if "client_secret" in form:
            if client["auth"] != "client_secret_post" or not secrets.compare_digest(client["secret"], form["client_secret"]):
                return self.client_failure("client_secret_post failed")
            return client_id
        if client["auth"] != "none":
            return self.client_failure("this client must authenticate")
        return client_id

    def verify_assertion(self, form, endpoint):
        if form.get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer":
            return self.client_failure("bad client_assertion_type")
        try:
            unverified = json.loads(jwt.JWT(jwt=form["client_assertion"]).token.objects["payload"])
        except Exception:  # noqa: BLE001 - any parse failure is a client failure
            return self.client_failure("unreadable client_assertion")
        client_id = unverified.get("iss")
        client = CLIENTS.get(client_id)
        if not client or client["auth"] != "private_key_jwt":
            return self.client_failure("unknown private_key_jwt client")
        try:
            token = jwt.JWT(jwt=form["client_assertion"], key=jwk.JWK(**client["jwk"]),
                            algs=["RS256", "PS256", "ES256", "ES384", "EdDSA"])
            claims = json.loads(token.claims)
        except Exception as error:  # noqa: BLE001
            return self.client_failure("client_assertion does not verify: %s" % error)
        now = now_seconds()
        if claims.get("sub") != client_id or form.get("client_id", client_id) != client_id:
            return self.client_failure("iss/sub/client_id differ")
        if claims.get("aud") not in (self.base + endpoint, self.issuer):
            return self.client_failure("bad aud %r" % claims.get("aud"))
        exp, iat = claims.get("exp"), claims.get("iat")
        if not isinstance(exp, int) or not isinstance(iat, int) or exp <= now or exp - iat > 60:
            return self.client_failure("bad exp/iat")
        jti = claims.get("jti")
        with LOCK:
            if not jti or jti in SEEN_JTIS:
                return self.client_failure("missing or replayed jti")
            SEEN_JTIS.add(jti)
        return client_id

    def client_failure(self, description):
        self.oauth_error(401, "invalid_client", description)
        return None

    # --- tokens -----------------------------------------------------------------------------

    def id_token(self, client_id, subject, access_token, nonce, auth_time, acr):
        now = now_seconds()
        claims = {"iss": self.issuer, "sub": subject, "aud": client_id, "exp": now + 300, "iat": now,
                  "auth_time": auth_time, "sid": "session-1", "amr": BEHAVIOUR["amr"]}
        if acr:
            claims["acr"] = acr
        claims.update(BEHAVIOUR["id_token_extra"])
        if nonce is not None:
            claims["nonce"] = BEHAVIOUR["nonce_override"] or nonce
        digest = self.id_token_hash(client_id)(access_token.encode("ascii")).digest()
        claims["at_hash"] = BEHAVIOUR["at_hash_override"] or b64url(digest[:len(digest) // 2])
        return self.sign_id_token(client_id, claims)

    def id_token_hash(self, client_id):
        """The hash of the client's ID-token alg, for at_hash: SHA-256 unless HS384/HS512."""
        alg = CLIENTS.get(client_id, {}).get("id_token_alg") or "RS256"
        return {"384": hashlib.sha384, "512": hashlib.sha512}.get(alg[-3:], hashlib.sha256)

    def sign_id_token(self, client_id, claims):
        """RS256 with the provider key, or the client's "id_token_alg" keyed with its secret."""
        alg = CLIENTS.get(client_id, {}).get("id_token_alg")
        if alg:
            secret = CLIENTS[client_id]["secret"].encode("utf-8")
            key = jwk.JWK(kty="oct", k=b64url(secret))
            token = jwt.JWT(header={"alg": alg, "typ": "JWT"}, claims=claims)
        else:
            key = SIGNING_KEY
            token = jwt.JWT(header={"alg": "RS256", "kid": SIGNING_KEY.key_id, "typ": "JWT"}, claims=claims)
        token.make_signed_token(key)
        return encrypted_for(client_id, token.serialize())

    def hold_refresh(self):
        """Waits for /_control/release_refresh while "hold_refresh" is set."""
        if BEHAVIOUR["hold_refresh"]:
            REFRESH_RELEASE.wait(60)

    def issue(self, client_id, grant, jkt, refreshing=None):
        grant = dict(grant, jkt=jkt)
        if jkt:
            now = now_seconds()
            access_token = signed({"iss": self.issuer, "sub": grant["subject"], "aud": client_id, "iat": now,
                                   "exp": now + 3600, "jti": secrets.token_urlsafe(16), "cnf": {"jkt": jkt}},
                                  {"alg": "RS256", "kid": SIGNING_KEY.key_id, "typ": "at+jwt"})
        else:
            access_token = secrets.token_urlsafe(32)
        rotates = refreshing is None or BEHAVIOUR["refresh_rotates"]
        refresh_token = secrets.token_urlsafe(32) if rotates else refreshing
        with LOCK:
            REFRESH_TOKENS[refresh_token] = dict(grant, client_id=client_id)
            ACCESS_TOKENS[access_token] = dict(grant, client_id=client_id)
        token_type = BEHAVIOUR["token_type_override"] or ("DPoP" if jkt else "Bearer")
        answer = {"access_token": access_token, "token_type": token_type, "expires_in": BEHAVIOUR["access_expires_in"],
                  "scope": grant["scope"]}
        if rotates:
            answer["refresh_token"] = refresh_token
        if not grant.get("device") or BEHAVIOUR["device_id_token"]:
            answer["id_token"] = self.id_token(client_id, grant["subject"], access_token, grant.get("nonce"),
                                               grant["auth_time"], grant.get("acr"))
        self.send_json(200, answer)

    def client_credentials(self, client_id, form, jkt):
        """RFC 6749 §4.4.3: an access token for the client itself, no refresh or ID token."""
        if CLIENTS[client_id]["auth"] == "none":
            return self.oauth_error(400, "unauthorized_client", "a public client may not use client_credentials")
        if BEHAVIOUR["hold_client_credentials"]:
            CLIENT_CREDENTIALS_RELEASE.wait(60)
        scope = form.get("scope", "")
        grant = {"subject": client_id, "scope": scope, "jkt": jkt}
        if jkt:
            now = now_seconds()
            access_token = signed({"iss": self.issuer, "sub": client_id, "aud": form.get("resource") or client_id,
                                   "iat": now, "exp": now + BEHAVIOUR["access_expires_in"], "jti": secrets.token_urlsafe(16),
                                   "cnf": {"jkt": jkt}}, {"alg": "RS256", "kid": SIGNING_KEY.key_id, "typ": "at+jwt"})
        else:
            access_token = secrets.token_urlsafe(32)
        with LOCK:
            ACCESS_TOKENS[access_token] = dict(grant, client_id=client_id)
            CLIENT_CREDENTIALS.append({"client_id": client_id, "scope": scope, "resource": form.get("resource"),
                                       "audience": form.get("audience"), "access_token": access_token})
        answer = {"access_token": access_token, "token_type": "DPoP" if jkt else "Bearer",
                  "expires_in": BEHAVIOUR["access_expires_in"]}
        if scope:
            answer["scope"] = scope
        return self.send_json(200, answer)

    def token(self):
        form = self.form()
        if form is None:
            return self.oauth_error(400, "invalid_request", "unreadable or repeated form parameters")
        self.record("/token", form)
        if BEHAVIOUR["token_redirect"] is not None:
            self.send_response(307)
            self.send_header("Location", BEHAVIOUR["token_redirect"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if BEHAVIOUR["token_body"] is not None:
            data = BEHAVIOUR["token_body"].encode("utf-8")
            self.send_response(BEHAVIOUR["token_status"])
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return None
        client_id = self.authenticate(form, "/token")
        if client_id is None:
            return None
        proved, jkt = self.dpop("/token")
        if not proved:
            return None
        grant_type = form.get("grant_type")
        if grant_type == "authorization_code":
            with LOCK:
                grant = CODES.pop(form.get("code", ""), None)
            if not grant or grant["client_id"] != client_id or grant["redirect_uri"] != form.get("redirect_uri"):
                return self.oauth_error(400, "invalid_grant", "unknown code, or another client or redirect_uri")
            verifier = form.get("code_verifier", "")
            challenge = b64url(hashlib.sha256(verifier.encode("ascii", "replace")).digest())
            if not verifier or not secrets.compare_digest(challenge, grant["challenge"]):
                return self.oauth_error(400, "invalid_grant", "PKCE verifier does not match the challenge")
            if grant.get("dpop_jkt") and grant["dpop_jkt"] != jkt:
                return self.oauth_error(400, "invalid_grant", "the code is bound to another DPoP key")
            return self.issue(client_id, grant, jkt)
        if grant_type == "urn:ietf:params:oauth:grant-type:device_code":
            return device_poll(self, client_id, form.get("device_code", ""), jkt)
        if grant_type == "refresh_token":
            self.hold_refresh()
            with LOCK:
                grant = REFRESH_TOKENS.pop(form.get("refresh_token", ""), None)
            if not grant or grant["client_id"] != client_id:
                return self.oauth_error(400, "invalid_grant", "unknown refresh token")
            if grant["jkt"] != jkt:
                return self.oauth_error(400, "invalid_grant", "the refresh token is bound to another DPoP key, or none")
            refreshed = dict(grant, nonce=BEHAVIOUR["refresh_nonce"], subject=BEHAVIOUR["refresh_sub"] or grant["subject"])
            return self.issue(client_id, refreshed, jkt, refreshing=form.get("refresh_token", ""))
        if grant_type == "client_credentials":
            return self.client_credentials(client_id, form, jkt)
        return self.oauth_error(400, "unsupported_grant_type", "grant_type %r" % grant_type)

    # --- authorization ----------------------------------------------------------------------

    def authorize(self, query):
        try:
            pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
        except ValueError:
            return self.oauth_error(400, "invalid_request", "unreadable query")
        params = dict(pairs)
        if len(params) != len(pairs):
            return self.oauth_error(400, "invalid_request", "repeated parameters")
        self.record("/authorize", params)
        if "request_uri" in params:
            with LOCK:
                pushed = PUSHED.pop(params["request_uri"], None)
            if not pushed or pushed["client_id"] != params.get("client_id") or len(params) != 2:
                return self.oauth_error(400, "invalid_request_uri", "unknown request_uri")
            params = pushed
        client = CLIENTS.get(params.get("client_id"))
        if not client:
            return self.oauth_error(400, "invalid_request", "unknown client_id")
        redirect_uri = params.get("redirect_uri")
        if not redirect_registered(client, redirect_uri):
            return self.oauth_error(400, "invalid_request", "unregistered redirect_uri")
        problems = [name for name, ok in [
            ("response_type", params.get("response_type") == "code"),
            ("scope", "openid" in params.get("scope", "").split(" ")),
            ("state", bool(params.get("state"))),
            ("nonce", bool(params.get("nonce"))),
            ("code_challenge", len(params.get("code_challenge", "")) == 43),
            ("code_challenge_method", params.get("code_challenge_method") == "S256"),
        ] if not ok]
        if problems:
            return self.oauth_error(400, "invalid_request", "bad " + ", ".join(problems))
        response = {}
        if BEHAVIOUR["authorize_error"]:
            response.update(BEHAVIOUR["authorize_error"])
        else:
            code = secrets.token_urlsafe(24)
            acr_values = params.get("acr_values", "").split(" ")
            with LOCK:
                CODES[code] = {"client_id": client["client_id"], "redirect_uri": redirect_uri,
                               "challenge": params["code_challenge"], "nonce": params["nonce"],
                               "scope": params["scope"], "subject": "alice", "auth_time": now_seconds(),
                               "dpop_jkt": params.get("dpop_jkt"),
                               "acr": BEHAVIOUR["acr_override"] if BEHAVIOUR["acr_override"] is not None
                               else acr_values[0] if acr_values[0] else BEHAVIOUR["acr"]}
            response["code"] = code
        response["state"] = BEHAVIOUR["state_override"] or params["state"]
        if BEHAVIOUR["send_iss"]:
            response["iss"] = BEHAVIOUR["iss_override"] or self.issuer
        encoded = urlencode(response)
        mode = params.get("response_mode", "query")
        if BEHAVIOUR["interactive"]:
            return login_form(self, redirect_uri + ("#" if mode == "fragment" else "?") + encoded)
        if mode == "form_post":
            return self.send_json(200, {"form_post_action": redirect_uri, "form_post_body": encoded})
        return self.send_json(200, {"location": redirect_uri + ("#" if mode == "fragment" else "?") + encoded})

    def par(self):
        form = self.form()
        if form is None:
            return self.oauth_error(400, "invalid_request", "unreadable or repeated form parameters")
        self.record("/par", form)
        if BEHAVIOUR["par_body"] is not None:
            data = BEHAVIOUR["par_body"].encode("utf-8")
            self.send_response(BEHAVIOUR["par_status"])
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return None
        client_id = self.authenticate(form, "/par")
        if client_id is None:
            return None
        proved, jkt = self.dpop("/par")
        if not proved:
            return None
        params = {k: v for k, v in form.items()
                  if k not in ("client_secret", "client_assertion", "client_assertion_type")}
        params["client_id"] = client_id
        if jkt:
            params["dpop_jkt"] = jkt
        request_uri = "urn:ietf:params:oauth:request_uri:" + secrets.token_urlsafe(16)
        with LOCK:
            PUSHED[request_uri] = params
        return self.send_json(201, {"request_uri": request_uri, "expires_in": 60})

    # --- routing ----------------------------------------------------------------------------

    def do_GET(self):  # noqa: N802 - http.server naming
        parts = urlsplit(self.path)
        path = parts.path
        if path == ISSUER_PATH + "/.well-known/openid-configuration" or \
                path == "/.well-known/oauth-authorization-server" + ISSUER_PATH:
            self.record(path, {})
            return self.send_json(200, self.metadata())
        if path == "/jwks.json":
            self.record(path, {})
            return self.send_json(200, {"keys": [json.loads(SIGNING_KEY.export_public())]})
        if path == "/authorize":
            return self.authorize(parts.query)
        if ("GET", path) in RP_ROUTES:
            return RP_ROUTES[("GET", path)](self, parts.query)
        if path == "/_control/last":
            wanted = dict(parse_qsl(parts.query)).get("path", "")
            with LOCK:
                entry = REQUESTS.get(wanted, {"count": 0})
                return self.send_json(200, entry)
        return self.send_json(404, {"error": "not_found"})

    def do_POST(self):  # noqa: N802
        path = urlsplit(self.path).path
        if path == "/token":
            return self.token()
        if path == "/par":
            return self.par()
        if ("POST", path) in RP_ROUTES:
            return RP_ROUTES[("POST", path)](self, None)
        if path == "/_control/client":
            spec = json.loads(self.read_body() or b"{}")
            with LOCK:
                CLIENTS[spec["client_id"]] = spec
            return self.send_json(200, {"ok": True})
        if path == "/_control/release_refresh":
            self.read_body()
            REFRESH_RELEASE.set()
            return self.send_json(200, {"ok": True})
        if path == "/_control/release_client_credentials":
            self.read_body()
            CLIENT_CREDENTIALS_RELEASE.set()
            return self.send_json(200, {"ok": True})
        if path == "/_control/behaviour":
            spec = json.loads(self.read_body() or b"{}")
            with LOCK:
                BEHAVIOUR.update(spec)
            return self.send_json(200, {"ok": True})
        self.read_body()
        return self.send_json(404, {"error": "not_found"})


# --- relying-party endpoints after the login ------------------------------------------------

ACCESS_TOKENS = {}
INTROSPECTION = {}
REVOKED = []
BEHAVIOUR.update({
    "userinfo_signed": False,     # answer /userinfo with application/jwt signed like ID tokens
    "userinfo_sub": None,         # sub of UserInfo responses instead of the token's subject
    "userinfo_claims": {},        # members merged into UserInfo responses
    "revoke_error": None,         # answer /revoke with 400 and this OAuth error
    "userinfo_raw": None,         # answer /userinfo with {"content_type", "body"} as they are
    "userinfo_challenge": None,   # the WWW-Authenticate value of /userinfo's 401 instead of Bearer's
    "introspect_raw": None,       # answer /introspect with {"status", "body"} as they are
    "resource_dpop_nonce": None,  # the nonce /resource wants in DPoP proofs (none unless set)
    "resource_refuse_all": False,  # /resource answers every token with invalid_token
    "resource_dpop_nonce_rotate": False,  # /resource wants a new nonce in every proof
})


def signed(claims, header, key=None):
    token = jwt.JWT(header=header, claims=claims)
    token.make_signed_token(key or SIGNING_KEY)
    return token.serialize()


def userinfo(handler, _query):
    header = handler.headers.get("Authorization") or ""
    handler.record("/userinfo", {})
    with LOCK:
        grant = ACCESS_TOKENS.get(header[7:]) if header.startswith("Bearer ") else None
    if not grant:
        data = b""
        handler.send_response(401)
        handler.send_header("WWW-Authenticate", BEHAVIOUR["userinfo_challenge"]
                            or 'Bearer error="invalid_token", error_description="The access token is not active"')
        handler.send_header("Content-Length", "0")
        handler.end_headers()
        return handler.wfile.write(data)
    raw = BEHAVIOUR["userinfo_raw"]
    if raw is not None:
        data = raw["body"].encode("utf-8")
        handler.send_response(200)
        handler.send_header("Content-Type", raw["content_type"])
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        return handler.wfile.write(data)
    claims = {"sub": BEHAVIOUR["userinfo_sub"] or grant["subject"], "name": "Alice Example",
              "email": "alice@example.com", "email_verified": True}
    if BEHAVIOUR["userinfo_signed"]:
        claims.update({"iss": handler.issuer, "aud": grant["client_id"]})
    claims.update(BEHAVIOUR["userinfo_claims"])
    if not BEHAVIOUR["userinfo_signed"]:
        return handler.send_json(200, claims)
    data = encrypted_for(grant["client_id"], signed(claims, {"alg": "RS256", "kid": SIGNING_KEY.key_id})).encode("ascii")
    handler.send_response(200)
    handler.send_header("Content-Type", "application/jwt")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    return handler.wfile.write(data)


def revoke(handler, _query):
    form = handler.form()
    if form is None:
        return handler.oauth_error(400, "invalid_request", "unreadable or repeated form parameters")
    handler.record("/revoke", form)
    client_id = handler.authenticate(form, "/revoke")
    if client_id is None:
        return None
    if BEHAVIOUR["revoke_error"]:
        return handler.oauth_error(400, BEHAVIOUR["revoke_error"], "revocation refused by the test provider")
    if "token" not in form:
        return handler.oauth_error(400, "invalid_request", "no token")
    token = form["token"]
    with LOCK:
        ACCESS_TOKENS.pop(token, None)
        REFRESH_TOKENS.pop(token, None)
        REVOKED.append({"token": token, "token_type_hint": form.get("token_type_hint"), "client_id": client_id})
    handler.send_response(200)
    handler.send_header("Content-Length", "0")
    handler.end_headers()
    return None


def introspect(handler, _query):
    form = handler.form()
    if form is None:
        return handler.oauth_error(400, "invalid_request", "unreadable or repeated form parameters")
    handler.record("/introspect", form)
    if handler.authenticate(form, "/introspect") is None:
        return None
    raw = BEHAVIOUR["introspect_raw"]
    if raw is not None:
        data = raw["body"].encode("utf-8")
        handler.send_response(raw["status"])
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        return handler.wfile.write(data)
    token = form.get("token", "")
    with LOCK:
        claims = INTROSPECTION.get(token)
        grant = ACCESS_TOKENS.get(token)
    if claims is not None:
        return handler.send_json(200, dict(claims, active=True))
    if grant is None:
        return handler.send_json(200, {"active": False})
    answer = {"active": True, "sub": grant["subject"], "client_id": grant["client_id"], "scope": grant["scope"],
              "iss": handler.issuer, "exp": int(time.time()) + 3600, "token_type": "Bearer"}
    if grant.get("jkt"):
        answer["cnf"] = {"jkt": grant["jkt"]}
    return handler.send_json(200, answer)


def control_introspection(handler, _query):
    spec = json.loads(handler.read_body() or b"{}")
    with LOCK:
        INTROSPECTION[spec["token"]] = spec["claims"]
    return handler.send_json(200, {"ok": True})


def end_session(handler, query):
    params = dict(parse_qsl(query, keep_blank_values=True))
    handler.record("/logout", params)
    try:
        hint = jwt.JWT(jwt=params["id_token_hint"], key=SIGNING_KEY, algs=["RS256"],
                       check_claims={"exp": None})
        claims = json.loads(hint.claims)
    except Exception as error:  # noqa: BLE001 - any failure is a bad hint
        return handler.oauth_error(400, "invalid_request", "bad id_token_hint: %s" % error)
    client = CLIENTS.get(claims.get("aud"))
    if not client or params.get("client_id", client["client_id"]) != client["client_id"]:
        return handler.oauth_error(400, "invalid_request", "id_token_hint for another client")
    redirect = params.get("post_logout_redirect_uri")
    if redirect is None:
        return handler.send_json(200, {"logged_out": claims.get("sub")})
    if redirect not in client.get("post_logout_redirect_uris", client["redirect_uris"]):
        return handler.oauth_error(400, "invalid_request", "unregistered post_logout_redirect_uri")
    state = params.get("state")
    return handler.send_json(200, {"location": redirect + ("?" + urlencode({"state": state}) if state else "")})


def mint_logout_token(handler, _query):
    spec = json.loads(handler.read_body() or b"{}")
    now = int(time.time())
    claims = {"iss": handler.issuer, "aud": spec["client_id"], "iat": now, "exp": now + 120,
              "jti": secrets.token_urlsafe(16), "sub": "alice", "sid": "session-1",
              "events": {"http://schemas.openid.net/event/backchannel-logout": {}}}
    header = {"alg": "RS256", "kid": SIGNING_KEY.key_id, "typ": "logout+jwt"}
    for target, changes in ((claims, spec.get("claims", {})), (header, spec.get("header", {}))):
        for name, value in changes.items():
            if value is None:
                target.pop(name, None)
            else:
                target[name] = value
    key = jwk.JWK.generate(kty="RSA", size=2048, kid=SIGNING_KEY.key_id) if spec.get("foreign_key") else None
    return handler.send_json(200, {"logout_token": signed(claims, header, key)})


def revoked(handler, _query):
    with LOCK:
        return handler.send_json(200, {"revoked": list(REVOKED)})


# --- the user's side: a login form and consent in the browser, device codes ------------------

PENDING_LOGINS = {}
DEVICE_GRANTS = {}
PAGE_HEAD = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title></head><body>'


def redirect_registered(client, uri):
    """Registered exactly, or a loopback URI registered without a port (RFC 8252 §7.3)."""
    if uri in client["redirect_uris"]:
        return True
    parts = urlsplit(uri or "")
    if parts.scheme != "http" or parts.hostname != "127.0.0.1" or parts.port is None:
        return False
    return urlunsplit(("http", "127.0.0.1", parts.path, parts.query, "")) in client["redirect_uris"]


def send_html(handler, status, html, location=None):
    data = html.encode("utf-8")
    handler.send_response(status)
    handler.send_header("Content-Type", "text/html; charset=utf-8")
    handler.send_header("Cache-Control", "no-store")
    if location:
        handler.send_header("Location", location)
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def login_form(handler, location):
    login = secrets.token_urlsafe(16)
    with LOCK:
        PENDING_LOGINS[login] = {"location": location, "signed_in": False}
    return send_html(handler, 200, PAGE_HEAD % "Sign in" + (
        '<form method="post" action="/login"><input type="hidden" name="login" value="%s">'
        '<label>User <input id="username" name="username"></label>'
        '<label>Password <input id="password" name="password" type="password"></label>'
        '<button id="sign-in" type="submit">Sign in</button></form></body></html>') % login)


def login_post(handler, _query):
    form = handler.form() or {}
    with LOCK:
        pending = PENDING_LOGINS.get(form.get("login", ""))
        valid = pending is not None and form.get("username") == "alice" and form.get("password") == "wonderland"
        if valid:
            pending["signed_in"] = True
    if not valid:
        return send_html(handler, 401, PAGE_HEAD % "Sign in failed" + "<p>Wrong user or password.</p></body></html>")
    return send_html(handler, 200, PAGE_HEAD % "Allow access" + (
        '<form method="post" action="/consent"><input type="hidden" name="login" value="%s">'
        '<button id="allow" name="decision" value="allow" type="submit">Allow</button>'
        '<button id="deny" name="decision" value="deny" type="submit">Deny</button></form></body></html>')
        % form["login"])


def consent_post(handler, _query):
    form = handler.form() or {}
    with LOCK:
        pending = PENDING_LOGINS.pop(form.get("login", ""), None)
    if not pending or not pending["signed_in"]:
        return send_html(handler, 400, PAGE_HEAD % "No login" + "<p>No login is waiting.</p></body></html>")
    location = pending["location"]
    if form.get("decision") != "allow":
        separator = location.index("#" if "#" in location else "?")
        params = dict(parse_qsl(location[separator + 1:]))
        answer = {"error": "access_denied", "error_description": "the user denied access", "state": params["state"]}
        if "iss" in params:
            answer["iss"] = params["iss"]
        location = location[:separator + 1] + urlencode(answer)
    return send_html(handler, 302, "", location)


def resource(handler, _query):
    body = handler.read_body().decode("utf-8", "replace")
    handler.record("/resource", {"body": body})
    scheme, _, token = (handler.headers.get("Authorization") or "").partition(" ")
    with LOCK:
        grant = ACCESS_TOKENS.get(token)
    bound = grant is not None and grant.get("jkt") is not None
    if BEHAVIOUR["resource_refuse_all"] or grant is None or scheme != ("DPoP" if bound else "Bearer"):
        return resource_challenge(handler, scheme if scheme in ("Bearer", "DPoP") else "Bearer", "invalid_token")
    if bound:
        proofs = handler.headers.get_all("DPoP") or []
        try:
            if len(proofs) != 1:
                raise ValueError("not one DPoP header")
            claims, jkt = handler.check_proof(proofs[0], handler.command, "/resource", token)
            if jkt != grant["jkt"]:
                raise ValueError("the proof's key is not the token's")
        except ValueError as error:
            return resource_challenge(handler, "DPoP", "invalid_dpop_proof", str(error))
        with LOCK:
            REQUESTS["/resource"]["dpop"] = {"jkt": jkt, "htu": claims["htu"], "nonce": claims.get("nonce"),
                                             "ath": claims["ath"]}
        with LOCK:
            if BEHAVIOUR["resource_dpop_nonce_rotate"]:
                BEHAVIOUR["resource_dpop_nonce"] = secrets.token_urlsafe(16)
            wanted = BEHAVIOUR["resource_dpop_nonce"]
        if wanted is not None and claims.get("nonce") != wanted:
            return resource_challenge(handler, "DPoP", "use_dpop_nonce", "use the DPoP nonce", {"DPoP-Nonce": wanted})
    return handler.send_json(200, {"sub": grant["subject"], "method": handler.command, "body": body})


def resource_challenge(handler, scheme, error, description="the access token is not active", headers=None):
    handler.send_response(401)
    handler.send_header("WWW-Authenticate", '%s error="%s", error_description="%s"' % (scheme, error, description))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.send_header("Content-Length", "0")
    handler.end_headers()


def client_credentials_grants(handler, _query):
    with LOCK:
        return handler.send_json(200, {"grants": list(CLIENT_CREDENTIALS)})


def device_authorization(handler, _query):
    form = handler.form()
    if form is None:
        return handler.oauth_error(400, "invalid_request", "unreadable or repeated form parameters")
    handler.record("/device_authorization", form)
    client_id = handler.authenticate(form, "/device_authorization")
    if client_id is None:
        return None
    device_code = secrets.token_urlsafe(24)
    user_code = "%04d-%04d" % (secrets.randbelow(10000), secrets.randbelow(10000))
    with LOCK:
        DEVICE_GRANTS[device_code] = {"client_id": client_id, "user_code": user_code,
                                      "answer": BEHAVIOUR["device_auto_answer"],
                                      "scope": form.get("scope", ""), "subject": "alice",
                                      "auth_time": now_seconds(), "acr": BEHAVIOUR["acr"]}
    verification = handler.base + "/device"
    return handler.send_json(200, {
        "device_code": device_code, "user_code": user_code, "verification_uri": verification,
        "verification_uri_complete": verification + "?" + urlencode({"user_code": user_code}),
        "expires_in": BEHAVIOUR["device_expires_in"], "interval": BEHAVIOUR["device_interval"]})


def device_poll(handler, client_id, device_code, jkt):
    with LOCK:
        grant = DEVICE_GRANTS.get(device_code)
        scripted = BEHAVIOUR["device_script"].pop(0) if grant and BEHAVIOUR["device_script"] else None
        if grant and grant["answer"] is True and not scripted:
            del DEVICE_GRANTS[device_code]
    if not grant or grant["client_id"] != client_id:
        return handler.oauth_error(400, "invalid_grant", "unknown device_code")
    error = scripted or ("expired_token" if BEHAVIOUR["device_expired"] else
                         "authorization_pending" if grant["answer"] is None else
                         "access_denied" if grant["answer"] is False else None)
    if error:
        return handler.oauth_error(400, error, "device code: " + error)
    return handler.issue(client_id, dict(grant, nonce=None, device=True), jkt)


def device_answer(handler, _query):
    spec = json.loads(handler.read_body() or b"{}")
    with LOCK:
        grants = [grant for grant in DEVICE_GRANTS.values() if grant["user_code"] == spec.get("user_code")]
        for grant in grants:
            grant["answer"] = bool(spec.get("approve"))
    return handler.send_json(200 if grants else 404, {"ok": bool(grants)})


RP_ROUTES = {
    ("POST", "/login"): login_post,
    ("POST", "/consent"): consent_post,
    ("POST", "/device_authorization"): device_authorization,
    ("POST", "/_control/device"): device_answer,
    ("GET", "/userinfo"): userinfo,
    ("POST", "/revoke"): revoke,
    ("POST", "/introspect"): introspect,
    ("POST", "/_control/introspection"): control_introspection,
    ("GET", "/logout"): end_session,
    ("POST", "/_control/logout_token"): mint_logout_token,
    ("GET", "/_control/revoked"): revoked,
    ("GET", "/resource"): resource,
    ("POST", "/resource"): resource,
    ("GET", "/_control/client_credentials"): client_credentials_grants,
}


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def watch_stdin():
        try:
            sys.stdin.buffer.read()
        finally:
            os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    time.sleep(600)
    os._exit(0)


if __name__ == "__main__":
    main()
