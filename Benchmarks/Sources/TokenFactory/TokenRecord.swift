/// A signed token with what swift-jose needs to verify it, as text that one process writes and
/// another reads: how `compare` hands the same token to its build with the other crypto backend.
///
/// Unlike ``BenchToken`` it carries no private key, so any process can rebuild it, and its
/// algorithm is a name rather than a ``BenchAlgorithm``: the per-backend comparison also covers
/// algorithms that only swift-jose verifies here (ES256K, Ed448).
public struct TokenRecord: Sendable, Equatable {
    /// The registered `alg` name the token is signed with.
    public let algorithm: String
    /// The compact JWS as ASCII bytes.
    public let token: [UInt8]
    /// The same token with one payload character changed; a verifier must reject it.
    public let tampered: [UInt8]
    /// The verification key as one JWK JSON object on one line (for HS256 the `oct` key).
    public let jwkJSON: String

    /// A record of the given parts.
    /// - Parameters:
    ///   - algorithm: the registered `alg` name.
    ///   - token: the compact JWS.
    ///   - jwkJSON: the verification key as JWK JSON; it must not contain a line break.
    public init(algorithm: String, token: [UInt8], jwkJSON: String) {
        self.algorithm = algorithm
        self.token = token
        self.tampered = TokenFactory.tamper(token)
        self.jwkJSON = jwkJSON
    }

    /// The record of a benchmark token: the same bytes and the same public JWK.
    public init(_ token: BenchToken) {
        self.init(algorithm: token.algorithm.rawValue, token: token.token, jwkJSON: token.jwkJSON)
    }

    /// The record as four lines: algorithm, token, tampered token, JWK.
    public var text: String {
        [algorithm, String(decoding: token, as: UTF8.self), String(decoding: tampered, as: UTF8.self), jwkJSON]
            .joined(separator: "\n") + "\n"
    }

    /// Reads a record written by ``text``.
    /// - Throws: ``BenchSetupError`` when `text` is not four non-empty lines.
    public init(text: String) throws {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, !lines[0 ..< 4].contains(where: \.isEmpty) else {
            throw BenchSetupError("a token record is four lines: algorithm, token, tampered token, JWK")
        }
        algorithm = lines[0]
        token = Array(lines[1].utf8)
        tampered = Array(lines[2].utf8)
        jwkJSON = lines[3]
    }
}
