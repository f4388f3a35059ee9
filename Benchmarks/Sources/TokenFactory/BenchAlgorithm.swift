import COpenSSLFloor

/// The JWS algorithms the benchmarks cover, each backed by one floor key type.
public enum BenchAlgorithm: String, CaseIterable, Sendable, CustomStringConvertible {
    /// HMAC-SHA-256 with a 32-byte secret.
    case hs256 = "HS256"
    /// RSASSA-PKCS1-v1_5 with SHA-256 over an RSA-2048 key.
    case rs256 = "RS256"
    /// RSASSA-PSS with SHA-256 (salt = 32 bytes) over an RSA-2048 key.
    case ps256 = "PS256"
    /// ECDSA over P-256 with SHA-256.
    case es256 = "ES256"
    /// ECDSA over P-384 with SHA-384.
    case es384 = "ES384"
    /// ECDSA over P-521 with SHA-512.
    case es512 = "ES512"
    /// Ed25519.
    case eddsa = "EdDSA"

    /// The registered `alg` name.
    public var description: String { rawValue }

    /// Parses an algorithm name case-insensitively (`rs256`, `EdDSA`, `eddsa`).
    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() })
        else { return nil }
        self = match
    }

    /// The C floor's identifier for this algorithm.
    var floorAlgorithm: jose_floor_alg {
        switch self {
        case .hs256: JOSE_FLOOR_HS256
        case .rs256: JOSE_FLOOR_RS256
        case .ps256: JOSE_FLOOR_PS256
        case .es256: JOSE_FLOOR_ES256
        case .es384: JOSE_FLOOR_ES384
        case .es512: JOSE_FLOOR_ES512
        case .eddsa: JOSE_FLOOR_EDDSA
        }
    }

    /// The JWK `crv` for EC and OKP keys; `nil` for RSA and HMAC.
    var curveName: String? {
        switch self {
        case .es256: "P-256"
        case .es384: "P-384"
        case .es512: "P-521"
        case .eddsa: "Ed25519"
        case .hs256, .rs256, .ps256: nil
        }
    }
}
