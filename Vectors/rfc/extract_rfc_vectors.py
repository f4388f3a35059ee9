#!/usr/bin/env python3
"""Regenerates the JSON files in this folder from the RFC Editor's plain-text RFCs.

Usage: extract_rfc_vectors.py RFC_TEXT_DIR OUTPUT_DIR

Every value is cut out of the RFC text by line number (the input files are pinned by
SHA-256 below) and only has its display line breaks and indentation removed: nothing is
computed or re-encoded here. The Swift tests check that every extracted value verifies.
The only other edits are those an RFC prescribes for a figure (RFC 7520's quoted plaintext and
password, and its Figure 95, whose whitespace is all for readability), and each JWE example's
"expect", which says what this library does with it.

RFC_TEXT_DIR must hold rfc7515-7518, rfc7520, rfc7638 and rfc8037 (.txt); see README.md for
where rfc7516.txt comes from.
"""
import hashlib
import json
import re
import sys

PINNED = {
    "rfc7515.txt": None, "rfc7516.txt": None, "rfc7517.txt": None, "rfc7518.txt": None,
    "rfc7520.txt": None, "rfc7638.txt": None, "rfc8037.txt": None,
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
        if re.match(r"^(Jones|Liusvaara|Miller|RFC \d{4}) ", line) or not line.strip():
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


def last_octets(text, first, last):
    """The last JSON-array-notation octet sequence within prose lines (e.g. '"Alice" - [65, ...].')."""
    return json.loads(re.findall(r"\[[\d,\s]*\]", " ".join(lines(text, first, last)))[-1])


def quoted_plaintext(text, first, last):
    """RFC 7520 Figure 72: the concatenation of the quoted strings, quotation marks removed and
    each "\\xe2\\x80\\x93" replaced by U+2013 EN DASH, as the figure's introduction says."""
    out = ""
    for line in lines(text, first, last):
        line = line.strip()
        assert line.startswith('"') and line.endswith('"'), line
        out += line[1:-1]
    return out.replace("\\xe2\\x80\\x93", "\u2013")


def without_whitespace(text, first, last):
    """A figure whose whitespace was all "added for readability" (RFC 7520 Figure 95)."""
    return re.sub(r"\s", "", "".join(lines(text, first, last)))


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
        "source": "RFC 8037 (CFRG curves in JOSE), Appendix A.1-A.6",
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
        "ecdhRecipientPublicKey": jwk(rfc8037, 598, 599),
        "ecdhRecipientPublicKeyHex": joined(rfc8037, 603, 604).replace(" ", ""),
        "ecdhEphemeralSecretHex": joined(rfc8037, 608, 609).replace(" ", ""),
        "ecdhEphemeralPublicKeyHex": joined(rfc8037, 613, 614).replace(" ", ""),
        "ecdhEphemeralPublicKey": jwk(rfc8037, 625, 626),
        "ecdhProtectedHeader": jwk(rfc8037, 630, 632),
        "ecdhSenderSharedSecretHex": joined(rfc8037, 637, 638).replace(" ", ""),
        "ecdhReceiverSharedSecretHex": joined(rfc8037, 643, 644).replace(" ", ""),
    })

    rfc7520 = read(source, "rfc7520.txt")
    plaintext = quoted_plaintext(rfc7520, 2149, 2153)
    # Section, key figure, header figure, compact figure, plaintext, and what the library does
    # with it ("expect": "decrypt", or the JOSEError code; this is the only value not cut out of
    # the RFC). RSA1_5 (5.1) and PBES2 (5.3) are refused by design, and so is "zip" (5.9).
    cookbook = [
        ("5.1", (2195, 2234), (2310, 2314), (2375, 2395), plaintext, "unsupported_algorithm"),
        ("5.2", (2539, 2614), (2674, 2678), (2753, 2778), plaintext, "decrypt"),
        ("5.3", None, (3039, 3045), (3145, 3163), without_whitespace(rfc7520, 2940, 2964), "unsupported_algorithm"),
        ("5.4", (3315, 3326), (3400, 3412), (3495, 3513), plaintext, "decrypt"),
        ("5.5", (3659, 3667), (3735, 3745), (3820, 3837), plaintext, "decrypt"),
        ("5.6", (3893, 3899), (3934, 3938), (4000, 4013), plaintext, "decrypt"),
        ("5.7", (4095, 4101), (4181, 4187), (4279, 4296), plaintext, "decrypt"),
        ("5.8", (4431, 4437), (4487, 4491), (4559, 4573), plaintext, "decrypt"),
        # 5.9 reuses the 5.8 key (Figure 151).
        ("5.9", (4431, 4437), (4736, 4741), (4825, 4837), plaintext, "unsupported_algorithm"),
    ]
    examples = []
    for section, key, header_lines, compact, text, expect in cookbook:
        header = jwk(rfc7520, *header_lines)
        example = {
            "section": f"RFC 7520 Section {section}",
            "alg": header["alg"],
            "enc": header["enc"],
            "expect": expect,
            "key": jwk(rfc7520, *key) if key else None,
            "protectedHeader": header,
            "plaintext": text,
            "compact": joined(rfc7520, *compact),
        }
        if section == "5.3":
            # Figure 96, the password, with the en dash substituted as Section 5.3.1 says.
            example["password"] = joined(rfc7520, 2975, 2975).replace("\\xe2\\x80\\x93", "\u2013")
        examples.append(example)
    write(output, "rfc7520_section_5.json", {
        "source": "RFC 7520 (JOSE Cookbook), Section 5.1-5.9: the JWE examples with a Compact Serialization",
        "examples": examples,
    })

    rfc7516 = read(source, "rfc7516.txt")
    appendix = [
        ("A.1", (1754, 1758), (1770, 1770), (1806, 1835), (1978, 1988), "decrypt"),
        ("A.2", (2008, 2009), (2033, 2033), (2086, 2115), (2250, 2259), "unsupported_algorithm"),
        ("A.3", (2280, 2281), (2294, 2294), (2322, 2324), (2418, 2422), "decrypt"),
    ]
    examples = []
    for section, plaintext_lines, header_lines, key, compact, expect in appendix:
        header = jwk(rfc7516, *header_lines)
        examples.append({
            "section": f"RFC 7516 Appendix {section}",
            "alg": header["alg"],
            "enc": header["enc"],
            "expect": expect,
            "key": jwk(rfc7516, *key),
            "protectedHeader": header,
            "plaintextOctets": octets(rfc7516, *plaintext_lines),
            "compact": joined(rfc7516, *compact),
        })
    write(output, "rfc7516_appendix_a.json", {
        "source": "RFC 7516 (JSON Web Encryption), Appendix A.1-A.3",
        "examples": examples,
    })

    rfc7518 = read(source, "rfc7518.txt")
    header = jwk(rfc7518, 3703, 3713)
    write(output, "rfc7518_appendix_c.json", {
        "source": "RFC 7518 (JSON Web Algorithms), Appendix C: ECDH-ES key agreement and Concat KDF",
        "ephemeralKey": jwk(rfc7518, 3661, 3666),
        "recipientKey": jwk(rfc7518, 3671, 3676),
        "protectedHeader": header,
        "algorithmID": header["enc"],
        "keyDataLength": int(re.search(r"This value is (\d+)", joined(rfc7518, 3728, 3728)).group(1)),
        "zOctets": last_octets(rfc7518, 3718, 3725),
        "partyUInfoOctets": last_octets(rfc7518, 3738, 3741),
        "partyVInfoOctets": last_octets(rfc7518, 3744, 3747),
        "otherInfoOctets": octets(rfc7518, 3768, 3769),
        "round1HashInputOctets": octets(rfc7518, 3773, 3778),
        "derivedKeyOctets": octets(rfc7518, 3782, 3783),
        "derivedKey": joined(rfc7518, 3787, 3787),
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
