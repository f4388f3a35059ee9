#!/usr/bin/env python3
"""Regenerates the JSON files in this folder from the RFC Editor's plain-text RFCs.

Usage: extract_rfc_vectors.py RFC_TEXT_DIR OUTPUT_DIR

Every value is cut out of the RFC text by line number (the input files are pinned by
SHA-256 below) and only has its display line breaks and indentation removed: nothing is
computed or re-encoded here. The Swift tests check that every extracted value verifies.
"""
import hashlib
import json
import re
import sys

PINNED = {
    "rfc7515.txt": None, "rfc7517.txt": None, "rfc7638.txt": None, "rfc8037.txt": None,
}


def read(directory, name):
    data = open(f"{directory}/{name}", "rb").read()
    PINNED[name] = hashlib.sha256(data).hexdigest()
    return data.decode("utf-8").split("\n")


def lines(text, first, last):
    """Lines first..last (1-based, inclusive) without page-break artefacts."""
    out = []
    for line in text[first - 1:last]:
        line = line.replace("\f", "")
        if re.match(r"^(Jones|Liusvaara|RFC \d{4}) ", line) or not line.strip():
            continue
        out.append(line)
    return out


def joined(text, first, last):
    """The lines with leading/trailing blanks removed, concatenated: undoes display wrapping."""
    return "".join(line.strip() for line in lines(text, first, last))


def octets(text, first, last):
    """A JSON-array-notation octet sequence."""
    return json.loads(joined(text, first, last))


def table_octets(text, first, last):
    """The numbers in the value column of an R/S table (lines first..last)."""
    values = []
    for line in lines(text, first, last):
        column = line.split("|")[2]
        values += [int(n) for n in re.findall(r"\d+", column)]
    return values


def jwk(text, first, last):
    return json.loads(joined(text, first, last))


def main(source, output):
    rfc7515 = read(source, "rfc7515.txt")
    payload = octets(rfc7515, 2082, 2086)
    examples = [
        {
            "section": "RFC 7515 Appendix A.1",
            "alg": "HS256",
            "deterministic": True,
            "key": jwk(rfc7515, 2121, 2124),
            "protectedHeaderOctets": octets(rfc7515, 2054, 2055),
            "payloadOctets": payload,
            "signingInputOctets": octets(rfc7515, 2107, 2115),
            "signatureOctets": octets(rfc7515, 2138, 2140),
            "compact": joined(rfc7515, 2152, 2157),
        },
        {
            "section": "RFC 7515 Appendix A.2",
            "alg": "RS256",
            "deterministic": True,
            "key": jwk(rfc7515, 2251, 2280),
            "protectedHeaderOctets": octets(rfc7515, 2196, 2196),
            "payloadOctets": payload,
            "signingInputOctets": octets(rfc7515, 2223, 2230),
            "signatureOctets": octets(rfc7515, 2308, 2325),
            "compact": joined(rfc7515, 2364, 2374),
        },
        {
            "section": "RFC 7515 Appendix A.3",
            "alg": "ES256",
            "deterministic": False,
            "key": jwk(rfc7515, 2452, 2457),
            "protectedHeaderOctets": octets(rfc7515, 2402, 2402),
            "payloadOctets": payload,
            "signingInputOctets": octets(rfc7515, 2440, 2447),
            "signatureOctets": table_octets(rfc7515, 2479, 2484),
            "compact": joined(rfc7515, 2499, 2505),
        },
        {
            "section": "RFC 7515 Appendix A.4",
            "alg": "ES512",
            "deterministic": False,
            "key": jwk(rfc7515, 2587, 2595),
            "protectedHeaderOctets": octets(rfc7515, 2544, 2544),
            "payloadOctets": octets(rfc7515, 2554, 2554),
            "signingInputOctets": octets(rfc7515, 2568, 2569),
            "signatureOctets": table_octets(rfc7515, 2608, 2619),
            "compact": joined(rfc7515, 2644, 2650),
        },
    ]
    unsecured = {
        "section": "RFC 7515 Appendix A.5",
        "alg": "none",
        "payloadOctets": payload,
        "compact": joined(rfc7515, 2700, 2704),
    }
    write(output, "rfc7515_appendix_a.json", {
        "source": "RFC 7515 (JSON Web Signature), Appendix A.1-A.5",
        "examples": examples,
        "unsecured": unsecured,
    })

    rfc7517 = read(source, "rfc7517.txt")
    write(output, "rfc7517_appendix_a_b.json", {
        "source": "RFC 7517 (JSON Web Key), Appendix A.1-A.3 and Appendix B",
        "publicKeys": jwk(rfc7517, 1364, 1384),
        "privateKeys": jwk(rfc7517, 1407, 1449),
        "symmetricKeys": jwk(rfc7517, 1470, 1481),
        "x5cKey": jwk(rfc7517, 1526, 1556),
    })

    rfc7638 = read(source, "rfc7638.txt")
    write(output, "rfc7638_section_3_1.json", {
        "source": "RFC 7638 (JWK Thumbprint), Section 3.1",
        "key": jwk(rfc7638, 180, 191),
        "canonicalJSON": joined(rfc7638, 212, 217),
        "sha256Octets": octets(rfc7638, 261, 263),
        "thumbprint": joined(rfc7638, 268, 268),
    })

    rfc8037 = read(source, "rfc8037.txt")
    write(output, "rfc8037_appendix_a.json", {
        "source": "RFC 8037 (CFRG curves in JOSE), Appendix A.1-A.5",
        "privateKey": jwk(rfc8037, 462, 464),
        "privateKeyHex": joined(rfc8037, 468, 469).replace(" ", ""),
        "publicKeyHex": joined(rfc8037, 473, 474).replace(" ", ""),
        "publicKey": jwk(rfc8037, 481, 482),
        "thumbprintCanonicalJSON": joined(rfc8037, 489, 490),
        "thumbprintSHA256Hex": joined(rfc8037, 493, 493).rstrip(","),
        "thumbprint": re.search(r'"([A-Za-z0-9_-]+)"', joined(rfc8037, 495, 495)).group(1),
        "protectedHeader": joined(rfc8037, 515, 515),
        "payload": lines(rfc8037, 523, 523)[0].strip(),
        "signingInput": joined(rfc8037, 533, 533),
        "signatureHex": joined(rfc8037, 538, 541).replace(" ", ""),
        "signature": joined(rfc8037, 545, 546),
        "compact": joined(rfc8037, 551, 553),
        "validationCompact": joined(rfc8037, 571, 573),
    })
    print(json.dumps(PINNED, indent=1))


def write(output, name, value):
    text = json.dumps(value, indent=2)
    # Octet arrays on one line each.
    text = re.sub(r"\[\s*(\d+(?:,\s*\d+)*)\s*\]",
                  lambda m: "[" + ", ".join(re.findall(r"\d+", m.group(1))) + "]", text)
    with open(f"{output}/{name}", "w") as f:
        f.write(text + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
