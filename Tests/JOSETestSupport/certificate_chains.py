"""Certificate chains for the x5c tests, made with pyca/cryptography (an independent X.509
implementation). `python3 certificate_chains.py SCENARIO` prints one JSON object:
{"roots": [base64 DER], "x5c": [base64 DER, leaf first], "key": leaf private key PEM, "alg": JWS alg}.
Every certificate is valid from 2026-01-01 to 2027-01-01 unless the scenario says otherwise."""
import base64, datetime, json, sys
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.x509.oid import NameOID

START = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
END = datetime.datetime(2027, 1, 1, tzinfo=datetime.timezone.utc)
LEAF_MARKER = x509.ObjectIdentifier("1.2.840.113635.100.6.11.1")
INTERMEDIATE_MARKER = x509.ObjectIdentifier("1.2.840.113635.100.6.2.1")


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def certificate(subject, key, issuer, issuer_key, ca, start=START, end=END, digital_signature=True, markers=()):
    builder = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(start).not_valid_after(end)
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
               .add_extension(x509.KeyUsage(digital_signature=digital_signature and not ca, content_commitment=False,
                                            key_encipherment=not digital_signature, data_encipherment=False,
                                            key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                                            encipher_only=False, decipher_only=False), critical=True))
    for oid in markers:
        builder = builder.add_extension(x509.UnrecognizedExtension(oid, b"\x05\x00"), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def der(cert):
    return base64.b64encode(cert.public_bytes(serialization.Encoding.DER)).decode()


def main(scenario):
    root_key, intermediate_key = ec.generate_private_key(ec.SECP384R1()), ec.generate_private_key(ec.SECP256R1())
    leaf_key, alg = ec.generate_private_key(ec.SECP256R1()), "ES256"
    if scenario in ("valid-rsa", "valid-pss"):
        leaf_key, alg = rsa.generate_private_key(public_exponent=65537, key_size=2048), "RS256" if scenario == "valid-rsa" else "PS256"
    root = certificate("Test Root", root_key, "Test Root", root_key, True)
    leaf_markers = (LEAF_MARKER,) if scenario in ("apple-shaped", "apple-shaped-no-intermediate-marker") else ()
    intermediate_markers = (INTERMEDIATE_MARKER,) if scenario in ("apple-shaped", "apple-shaped-no-leaf-marker") else ()
    intermediate = certificate("Test Intermediate", intermediate_key, "Test Root", root_key, True, markers=intermediate_markers)
    leaf_args = {}
    if scenario == "expired":
        leaf_args = {"start": datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc), "end": datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)}
    if scenario == "not-yet-valid":
        leaf_args = {"start": datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc), "end": datetime.datetime(2031, 1, 1, tzinfo=datetime.timezone.utc)}
    if scenario == "no-digital-signature":
        leaf_args = {"digital_signature": False}
    leaf = certificate("Test Leaf", leaf_key, "Test Intermediate", intermediate_key, False, markers=leaf_markers, **leaf_args)
    roots, chain = [root], [leaf, intermediate, root]
    if scenario == "wrong-root":
        other_key = ec.generate_private_key(ec.SECP384R1())
        roots = [certificate("Test Root", other_key, "Test Root", other_key, True)]
    if scenario == "missing-intermediate":
        chain = [leaf]
    if scenario == "loop":
        # Two CAs that each issued the other: a path that never reaches the trusted root.
        a_key, b_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
        a = certificate("Loop A", a_key, "Loop B", b_key, True)
        b = certificate("Loop B", b_key, "Loop A", a_key, True)
        leaf = certificate("Test Leaf", leaf_key, "Loop A", a_key, False)
        chain = [leaf, a, b]
    if scenario.startswith("deep-"):
        depth = int(scenario[5:])
        keys = [ec.generate_private_key(ec.SECP256R1()) for _ in range(depth - 1)]
        cas, issuer, issuer_key = [], "Test Root", root_key
        for index, key in enumerate(keys[:-1]):
            cas.append(certificate(f"CA {index}", key, issuer, issuer_key, True))
            issuer, issuer_key = f"CA {index}", key
        leaf = certificate("Test Leaf", leaf_key, issuer, issuer_key, False)
        chain = [leaf] + list(reversed(cas)) + [root]
    key_pem = leaf_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    print(json.dumps({"roots": [der(c) for c in roots], "x5c": [der(c) for c in chain], "key": key_pem, "alg": alg}))


main(sys.argv[1])
