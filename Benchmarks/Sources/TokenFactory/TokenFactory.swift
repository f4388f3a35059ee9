import COpenSSLFloor

/// The claims every benchmark token carries, and that every verifier is told to expect.
public enum BenchClaims {
    /// The `iss` claim and the issuer verifiers require.
    public static let issuer = "https://accounts.example.com"
    /// The `aud` claim and the audience verifiers require.
    public static let audience = "s6BhdRkqt3-login-client.apps.example.com"
    /// The `sub` claim.
    public static let subject = "248289761001-a5c3f0e2-user"
    /// The `exp` claim: 2100-01-01T00:00:00Z, far in the future.
    public static let expiration = 4_102_444_800
    /// The `iat` claim: a fixed instant in the past (2023-11-14).
    public static let issuedAt = 1_700_000_000
    /// The `nonce` claim.
    public static let nonce = "n-0S6_WzA2Mj4xMTE0NDk3Ni1jZWE0LTQ3YzctYQtZmM2LThkZTQtMjQ0MD"

    /// The payload JSON, members in a fixed order (~226 bytes, a typical ID token).
    public static var payloadJSON: String {
        #"{"iss":"\#(issuer)","sub":"\#(subject)","aud":"\#(audience)","exp":\#(expiration),"#
            + #""iat":\#(issuedAt),"nonce":"\#(nonce)"}"#
    }
}

/// One signed token with everything a verifier needs to check it.
public struct BenchToken: Sendable {
    /// The algorithm the token is signed with.
    public let algorithm: BenchAlgorithm
    /// The key id in the header and in the JWK.
    public let keyID: String
    /// The compact JWS as ASCII bytes.
    public let token: [UInt8]
    /// The same token with one payload character changed; every verifier must reject it.
    public let tampered: [UInt8]
    /// The public key as one JWK JSON object (for HS256: the `oct` key with `k`).
    public let jwkJSON: String
    /// The HMAC secret for HS256, empty otherwise.
    public let hmacSecret: [UInt8]
    /// The signing key, from which the floor builds its public-only verifier.
    public let key: FloorKey

    /// The compact JWS as a string.
    public var tokenString: String { String(decoding: token, as: UTF8.self) }
}

/// Builds one typical ID token per algorithm from fresh keys.
///
/// Keys are generated once per run; tokens are deterministic given the keys (all signatures in
/// the run are made once, and every verifier is handed the same bytes).
public enum TokenFactory {
    /// Generates a key for `algorithm` and signs the standard ID-token payload with it.
    /// - Throws: ``BenchSetupError`` when OpenSSL cannot generate, sign or export.
    public static func make(_ algorithm: BenchAlgorithm) throws -> BenchToken {
        let key = try FloorKey(algorithm: algorithm)
        let keyID = "bench-\(algorithm.rawValue.lowercased())-2026"
        let header = #"{"alg":"\#(algorithm.rawValue)","typ":"JWT","kid":"\#(keyID)"}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + [UInt8(ascii: ".")]
            + Base64URL.encode(Array(BenchClaims.payloadJSON.utf8))
        let signature = try key.sign(signingInput)
        let token = signingInput + [UInt8(ascii: ".")] + Base64URL.encode(signature)
        return BenchToken(
            algorithm: algorithm,
            keyID: keyID,
            token: token,
            tampered: tamper(token),
            jwkJSON: try jwk(for: key, keyID: keyID),
            hmacSecret: algorithm == .hs256 ? try key.export(JOSE_FLOOR_COMPONENT_FIRST) : [],
            key: key
        )
    }

    /// Changes one character in the middle of the payload to another base64url character.
    static func tamper(_ token: [UInt8]) -> [UInt8] {
        var copy = token
        let firstDot = copy.firstIndex(of: UInt8(ascii: "."))!
        let secondDot = copy[(firstDot + 1)...].firstIndex(of: UInt8(ascii: "."))!
        let index = (firstDot + secondDot) / 2
        copy[index] = copy[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        return copy
    }

    /// The public JWK (or `oct` JWK for HMAC) for `key`, with `kid`, `alg` and `use`.
    static func jwk(for key: FloorKey, keyID: String) throws -> String {
        let alg = key.algorithm.rawValue
        let first = Base64URL.encodeToString(try key.export(JOSE_FLOOR_COMPONENT_FIRST))
        switch key.algorithm {
        case .hs256:
            return #"{"kty":"oct","kid":"\#(keyID)","alg":"\#(alg)","use":"sig","k":"\#(first)"}"#
        case .rs256, .ps256:
            let e = Base64URL.encodeToString(try key.export(JOSE_FLOOR_COMPONENT_SECOND))
            return #"{"kty":"RSA","kid":"\#(keyID)","alg":"\#(alg)","use":"sig","n":"\#(first)","e":"\#(e)"}"#
        case .es256, .es384, .es512:
            let y = Base64URL.encodeToString(try key.export(JOSE_FLOOR_COMPONENT_SECOND))
            return #"{"kty":"EC","kid":"\#(keyID)","alg":"\#(alg)","use":"sig","crv":"\#(key.algorithm.curveName!)","x":"\#(first)","y":"\#(y)"}"#
        case .eddsa:
            return #"{"kty":"OKP","kid":"\#(keyID)","alg":"\#(alg)","use":"sig","crv":"Ed25519","x":"\#(first)"}"#
        }
    }
}
