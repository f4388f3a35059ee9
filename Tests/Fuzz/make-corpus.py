#!/usr/bin/env python3
"""Writes the seed corpus under Tests/Fuzz/Corpus/<target>/ from Vectors/ and the PEM test
fixtures, plus a few hand-made hostile inputs. Re-run after changing it; the output is committed."""
import base64, json, os, re, shutil

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "Tests", "Fuzz", "Corpus")


def read(*path):
    with open(os.path.join(ROOT, *path), "rb") as f:
        return f.read()


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def token(header, payload, signature=b"sig"):
    return b".".join([b64(header), b64(payload), b64(signature)])


def write(target, seeds):
    folder = os.path.join(CORPUS, target)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name, data in seeds.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)


ex = lambda name: read("Vectors", "examples", name).strip()
jwts = {n: ex(n) for n in ["hs256.jwt", "id-token.jwt", "id-token-expired.jwt"]}
for n in ["4_1.rsa_v15_signature", "4_3.ecdsa_signature", "4_4.hmac-sha2_integrity_protection"]:
    jwts["cookbook-" + n] = json.loads(read("Vectors", "jose-cookbook", "jws", n + ".json"))["output"]["compact"].encode()
hostile_tokens = {
    "alg-none": token(b'{"alg":"none"}', b'{"sub":"a"}', b""),
    "hs256-with-rsa-kid": token(b'{"alg":"HS256","kid":"example-rs256"}', b'{"iss":"https://issuer.example"}'),
    "crit-unknown": token(b'{"alg":"HS256","crit":["x"],"x":1}', b"{}"),
    "duplicate-alg": token(b'{"alg":"HS256","alg":"none"}', b"{}"),
    "exp-string": token(b'{"alg":"HS256"}', b'{"exp":"4102444800","aud":["a",1]}'),
    "padding": b"eyJhbGciOiJIUzI1NiJ9.e30=.c2ln",
    "four-parts": b"a.b.c.d",
}

write("base64url", {"empty": b"", "aqab": b"AQAB", "header": b"eyJhbGciOiJIUzI1NiJ9", "one-char": b"A",
                    "padded": b"QQ==", "noncanonical": b"QR", "std-alphabet": b"ab+/", "space": b"QU JD"})
write("json", {"claims": ex("claims.json"), "id-claims": ex("id-token.claims.json"), "jwks": ex("jwks.json"),
               "deep": b"[" * 40 + b"]" * 40, "duplicate": b'{"a":1,"a":2}', "big-number": b'{"n":1e400,"m":-0.0e-0}',
               "lone-surrogate": b'["\\ud800","\\udc00\\ud800"]', "escapes": b'{"\\u0000":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9"}',
               "trailing": b'{"a":[1,2,]}', "bom": b'\xef\xbb\xbf{}',
               "compact": b'{"name":"Jos\xc3\xa9 del\x7f","n":[1,{"a":true}],"s":"x y"}'})
write("jws-parts", {**jwts, **{k: v for k, v in hostile_tokens.items() if k in ("padding", "four-parts", "alg-none")}})
jwk_files = {f: read("Vectors", "jose-cookbook", "jwk", f) for f in os.listdir(os.path.join(ROOT, "Vectors", "jose-cookbook", "jwk"))}
jwk_files.update({n: ex(n) for n in ["hs256.jwk.json", "es256.private.jwk.json"]})
jwk_files["ec-off-curve"] = b'{"kty":"EC","crv":"P-256","x":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","y":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAE"}'
jwk_files["rsa-tiny"] = b'{"kty":"RSA","n":"AQAB","e":"AQAB"}'
jwk_files["okp"] = b'{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}'
write("jwk", jwk_files)
write("jwks", {"jwks": ex("jwks.json"), "es256": ex("es256.jwks.json"), "empty": b'{"keys":[]}', "not-array": b'{"keys":{}}',
               "duplicate-kid": b'{"keys":[' + ex("hs256.jwk.json")[:-1] + b',"kid":"a"},' + ex("hs256.jwk.json")[:-1] + b',"kid":"a"}]}',
               "mixed": b'{"keys":[{"kty":"EC"},' + ex("hs256.jwk.json") + b',{"kty":"RSA","use":"enc"}]}'})
fixtures = read("Tests", "JOSETests", "Crypto", "PEMFixtures.swift").decode()
pems = {m.group(1): "\n".join(l.strip() for l in m.group(2).strip().splitlines()).encode() + b"\n"
        for m in re.finditer(r'static let (\w+) = """\n(.*?)"""', fixtures, re.S)}
imports = {}
for name, pem in pems.items():
    imports["pem-" + name] = b"\x00" + pem
    body = b"".join(l for l in pem.splitlines() if l and not l.startswith(b"-----") and b":" not in l)
    if b"ENCRYPTED" not in pem and name in ("ecSPKI", "ed25519PKCS8", "rsaPKCS1Public", "x25519SPKI"):
        imports["der-" + name] = b"\x01" + base64.b64decode(body)
imports["pem-garbage"] = b"\x00-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"
write("key-import", imports)
verify_seeds = {**jwts, **hostile_tokens}
write("jws-verify", verify_seeds)
write("jwt-verify", verify_seeds)
write("round-trip", {"hs256-claims": b"\x0a" + b"kid01" + ex("claims.json"), "es256-claims": b"\x0b" + b"kid01" + ex("id-token.claims.json"),
                     "not-json": b"\x00\xff\xfe", "exp-string": b"\x01" + b'{"exp":"soon","nbf":[]}',
                     "whitespace-around": b"\x0a" + b"kid01" + b" \n" + ex("claims.json") + b"\n"})

# The login flow's and the resource-server kit's parsers (#13, #14).
write("form-urlencoded", {"simple": b"a=1&b=two", "plus": b"q=a+b%20c", "empty-value": b"a=&=b", "percent": b"x=%e2%82%ac%00",
                          "bad-percent": b"x=%G1", "many": b"&".join(b"k%d=v" % i for i in range(120))})
callback = b"https://app.example/callback"
write("oauth-callback", {"ok": callback + b"?code=abc&state=state-4f1c8a&iss=https%3A%2F%2Fissuer.example",
                         "fragment": callback + b"#code=abc&state=state-4f1c8a&iss=https%3A%2F%2Fissuer.example",
                         "error": callback + b"?error=access_denied&error_description=no%1b%5b31m&state=state-4f1c8a&iss=https%3A%2F%2Fissuer.example",
                         "twice": callback + b"?state=state-4f1c8a&state=x&code=a", "other-port": b"https://app.example:444/callback?code=a",
                         "form-post": b"code=abc&state=state-4f1c8a&iss=https%3A%2F%2Fissuer.example"})
write("oauth-documents", {"token": b'{"access_token":"at","token_type":"Bearer","expires_in":3600,"id_token":"a.b.c","scope":"openid"}',
                          "token-error": b'{"error":"invalid_grant","error_description":"bad"}',
                          "expires-huge": b'{"access_token":"at","token_type":"DPoP","expires_in":1e300}',
                          "metadata": b'{"issuer":"https://issuer.example","authorization_endpoint":"https://issuer.example/a",'
                                      b'"token_endpoint":"https://issuer.example/t","jwks_uri":"https://issuer.example/k",'
                                      b'"id_token_signing_alg_values_supported":["RS256","none"],"authorization_response_iss_parameter_supported":true}'})
write("resource-headers", {"bearer": b"Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln", "dpop": b"DPoP abc~+/=", "two": b"Bearer a, Bearer b",
                           "url": b"HTTPS://API.Example:443/a/../b/%7euser?q=1#f", "url-port": b"http://[::1]:80/x",
                           "url-bad": b"https://u:p@h/%zz"})

# The JWE parser and decrypter (#34): tokens jwcrypto makes for the fuzz fixtures' keys (the two
# secrets are fixed, so those tokens decrypt; the EC and RSA keys are generated per fuzz run, so
# those reach the key agreement and the unwrap and fail there), plus hand-made hostile ones.
from jwcrypto import jwe as jwcrypto_jwe, jwk as jwcrypto_jwk
fuzz_kw = jwcrypto_jwk.JWK(kty="oct", k="c3dpZnQtam9zZSBmdXp6IQ", kid="jwe-a128kw")
fuzz_dir = jwcrypto_jwk.JWK(kty="oct", k="c3dpZnQtam9zZSBmdXp6aW5nIGRpcmVjdCBrZXkgMzI", kid="jwe-dir")
other_ec = jwcrypto_jwk.JWK.generate(kty="EC", crv="P-256", kid="jwe-ec")
other_ec_kw = jwcrypto_jwk.JWK.generate(kty="EC", crv="P-384", kid="jwe-ec-kw")
other_rsa = jwcrypto_jwk.JWK.generate(kty="RSA", size=2048, kid="jwe-rsa")
other_x25519 = jwcrypto_jwk.JWK.generate(kty="OKP", crv="X25519", kid="jwe-x25519")


def jwe_token(key, alg, enc, plaintext=b'{"sub":"alice"}', **extra):
    token = jwcrypto_jwe.JWE(plaintext, json.dumps({"alg": alg, "enc": enc, "kid": key.key_id, **extra}))
    token.add_recipient(key)
    return token.serialize(compact=True).encode()


jwe_seeds = {"a128kw-a128gcm": jwe_token(fuzz_kw, "A128KW", "A128GCM"),
             "a128kw-cbc": jwe_token(fuzz_kw, "A128KW", "A256CBC-HS512"),
             "dir-a256gcm": jwe_token(fuzz_dir, "dir", "A256GCM"),
             "dir-cbc": jwe_token(fuzz_dir, "dir", "A128CBC-HS256", plaintext=b""),
             "ecdh-es": jwe_token(other_ec, "ECDH-ES", "A128GCM"),
             "ecdh-es-kw": jwe_token(other_ec_kw, "ECDH-ES+A256KW", "A192GCM"),
             "rsa-oaep-256": jwe_token(other_rsa, "RSA-OAEP-256", "A256GCM"),
             "ecdh-es-x25519": jwe_token(other_x25519, "ECDH-ES+A128KW", "A128GCM"),
             "zip": jwe_token(fuzz_dir, "dir", "A256GCM", zip="DEF"),
             "rsa1_5": b64(b'{"alg":"RSA1_5","enc":"A128GCM"}') + b".AA.AAAAAAAAAAAAAAAA.AA.AAAAAAAAAAAAAAAAAAAAAA",
             "crit": b64(b'{"alg":"dir","enc":"A256GCM","crit":["x"],"x":1}') + b"..AAAAAAAAAAAAAAAA.AA.AAAAAAAAAAAAAAAAAAAAAA",
             "six-parts": b"a.b.c.d.e.f"}
write("jwe-decrypt", jwe_seeds)

# x5c: the real App Store notification (Vectors/apple, verifies through the preset at its
# signedDate), the same with its payload changed, and headers whose chain is malformed.
apple = read("Vectors", "apple", "app-store-test-notification.jws").strip()
apple_header, apple_payload, apple_signature = apple.split(b".")
apple_chain = json.loads(base64.urlsafe_b64decode(apple_header + b"=" * (-len(apple_header) % 4)))["x5c"]


def with_chain(chain, alg="ES256"):
    return b64(json.dumps({"alg": alg, "x5c": chain}).encode()) + b"." + apple_payload + b"." + apple_signature


write("x5c", {"app-store-notification": apple,
              "changed-payload": apple_header + b"." + b64(b'{"signedDate":1700000000000}') + b"." + apple_signature,
              "leaf-only": with_chain(apple_chain[:1]),
              "reversed": with_chain(list(reversed(apple_chain))),
              "too-long": with_chain(apple_chain * 2),
              "empty-chain": with_chain([]),
              "chain-not-array": with_chain(apple_chain[0]),
              "not-base64": with_chain(["MII*" + apple_chain[0][4:]] + apple_chain[1:]),
              "garbage-certificate": with_chain([base64.b64encode(b"\x30\x03\x02\x01\x00").decode()] + apple_chain[1:]),
              "hs256": with_chain(apple_chain, alg="HS256"),
              "no-x5c": b64(b'{"alg":"ES256"}') + b"." + apple_payload + b"." + apple_signature})
