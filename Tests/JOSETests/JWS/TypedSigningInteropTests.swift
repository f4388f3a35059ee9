import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// Tokens signed with ``JWSSigner/sign(claims:header:)`` and verified by independent
/// implementations (PyJWT and jwcrypto, run as `python3`): each must accept the signature and
/// read back exactly the header and claims we wrote, JSON types included.
@Suite struct TypedSigningInteropTests {
    /// Verifies argv[1] (the token) with argv[2] (a JWK) and argv[3] (the algorithm) in PyJWT,
    /// checking iss, aud, exp, nbf and iat, and prints the header and claims as sorted JSON.
    static let pyJWTVerify = """
        import json, sys, jwt
        token, key, alg = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
        signing_key = jwt.PyJWK(key, algorithm=alg)
        claims = jwt.decode(token, signing_key, algorithms=[alg], audience="api://orders",
                            issuer="https://issuer.example",
                            options={"require": ["exp", "nbf", "iat", "iss", "aud", "sub", "jti"]})
        print(json.dumps({"header": jwt.get_unverified_header(token), "claims": claims}, sort_keys=True))
        """

    /// Verifies argv[1] with argv[2] (a JWK) in jwcrypto, which checks exp and nbf, and prints
    /// the header and claims as sorted JSON.
    static let jwcryptoVerify = """
        import json, sys
        from jwcrypto import jwk, jwt
        token, key = sys.argv[1], jwk.JWK(**json.loads(sys.argv[2]))
        checked = jwt.JWT(jwt=token, key=key, check_claims={"iss": "https://issuer.example", "exp": None, "nbf": None})
        print(json.dumps({"header": json.loads(checked.header), "claims": json.loads(checked.claims)}, sort_keys=True))
        """

    /// The claims every token carries: registered ones from the builder, then custom ones of
    /// every JSON type.
    static func claims() throws -> JWTClaimsBuilder {
        var claims = JWTClaimsBuilder(
            issuer: "https://issuer.example", subject: "alice", audience: ["api://orders", "api://billing"],
            expiration: Date(timeIntervalSince1970: 4_102_444_800), notBefore: Date(timeIntervalSince1970: 1_767_225_600.5),
            issuedAt: Date(timeIntervalSince1970: 1_767_225_600), tokenID: "jti-\u{e9}-1")
        try claims.set("scope", "orders:read orders:write")
        try claims.set("roles", ["admin", "auditor"])
        try claims.set("quota", UInt64(9_007_199_254_740_993))
        try claims.set("ratio", 0.25)
        try claims.set("verified", true)
        try claims.set("nothing", JSONOutput.null)
        try claims.set("profile", ["city": "Zürich", "quote": "say \"hi\"\n"])
        return claims
    }

    /// What both peers must print for the claims of ``claims()`` (sorted, as Python prints).
    static let expectedClaims = #"{"aud": ["api://orders", "api://billing"], "exp": 4102444800, "iat": 1767225600, "iss": "https://issuer.example", "jti": "jti-\u00e9-1", "nbf": 1767225600, "nothing": null, "profile": {"city": "Z\u00fcrich", "quote": "say \"hi\"\n"}, "quota": 9007199254740993, "ratio": 0.25, "roles": ["admin", "auditor"], "scope": "orders:read orders:write", "sub": "alice", "verified": true}"#

    /// A token signed by `key` with ``claims()`` and a header with `typ`, `cty` and a custom
    /// member, and the JWK the peers verify it with.
    private func signed(_ key: JWK, _ algorithm: JWSAlgorithm) throws -> (token: String, jwk: String) {
        let header = JWSHeaderParameters(type: "at+jwt", contentType: "application/example",
                                         members: [("tenant", .string("t-1")), ("ver", .integer(2))])
        let token = try JWSSigner(key: key, algorithm: algorithm, keyID: "kid-\(algorithm.rawValue)")
            .sign(claims: Self.claims(), header: header)
        let verifying = key.keyType == .octetSequence ? key : try #require(key.publicKey)
        return (token, try verifying.jsonString(includingPrivateMembers: key.keyType == .octetSequence))
    }

    /// The header both peers must print for a token signed with `algorithm`.
    private func expectedHeader(_ algorithm: JWSAlgorithm) -> String {
        #"{"alg": "\#(algorithm.rawValue)", "cty": "application/example", "kid": "kid-\#(algorithm.rawValue)", "tenant": "t-1", "typ": "at+jwt", "ver": 2}"#
    }

    /// Runs `script` with `arguments` and returns its one line of output.
    private func python(_ script: String, _ arguments: [String]) throws -> String {
        try PythonPeers.requireInstalled()
        let run = try PythonPeers.run(["-c", script] + arguments)
        let output = String(decoding: run.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard run.status == 0 else {
            throw JOSEError(.invalidInput, "python3 failed (status \(run.status)): \(output) \(String(decoding: run.stderr, as: UTF8.self))")
        }
        return output
    }

    static let keys: [(JWSAlgorithm, JWK)] = [
        (.es256, try! JWK.generate(for: .es256)), (.rs256, try! JWK.generate(for: .rs256)),
        (.ps384, try! JWK.generate(for: .ps384)), (.eddsa, try! JWK.generate(for: .eddsa)),
        (.hs256, try! JWK.symmetric(Array("a 32-byte secret for HS256 peers".utf8))),
    ]

    @Test(arguments: 0..<keys.count)
    func pyJWTVerifiesOurTokenAndReadsExactlyOurHeaderAndClaims(index: Int) throws {
        let (algorithm, key) = Self.keys[index]
        let (token, jwk) = try signed(key, algorithm)
        // PyJWT names EdDSA "EdDSA" too; its PyJWK takes the algorithm for keys without "alg".
        let printed = try python(Self.pyJWTVerify, [token, jwk, algorithm.rawValue])
        #expect(printed == #"{"claims": \#(Self.expectedClaims), "header": \#(expectedHeader(algorithm))}"#)
    }

    @Test(arguments: 0..<keys.count)
    func jwcryptoVerifiesOurTokenAndReadsExactlyOurHeaderAndClaims(index: Int) throws {
        let (algorithm, key) = Self.keys[index]
        let (token, jwk) = try signed(key, algorithm)
        let printed = try python(Self.jwcryptoVerify, [token, jwk])
        #expect(printed == #"{"claims": \#(Self.expectedClaims), "header": \#(expectedHeader(algorithm))}"#)
    }

    @Test func aTamperedClaimIsRejectedByBothPeers() throws {
        let (algorithm, key) = Self.keys[0]
        let (token, jwk) = try signed(key, algorithm)
        var pieces = token.split(separator: ".").map(String.init)
        var payload = String(decoding: try Base64URL.decode(pieces[1]), as: UTF8.self)
        payload = payload.replacingOccurrences(of: #""sub":"alice""#, with: #""sub":"mallory""#)
        pieces[1] = Base64URL.encode(Array(payload.utf8))
        let forged = pieces.joined(separator: ".")
        for script in [Self.pyJWTVerify, Self.jwcryptoVerify] {
            #expect(throws: JOSEError.self) { try python(script, [forged, jwk, algorithm.rawValue]) }
        }
    }
}
