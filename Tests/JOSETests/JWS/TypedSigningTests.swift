import Foundation
import JOSETestSupport
import Testing
@testable import JOSE

/// `JWSSigner.sign(claims:header:)`: `Encodable` claims written strictly, ``JWTClaimsBuilder``,
/// and the rules of ``JWSHeaderParameters``.
@Suite(.tags(.addressSanitized)) struct TypedSigningTests {
    /// The decoded header and payload text of `token`.
    private func parts(_ token: String) throws -> (header: String, payload: String) {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(pieces.count == 3)
        return (String(decoding: try Base64URL.decode(pieces[0]), as: UTF8.self),
                String(decoding: try Base64URL.decode(pieces[1]), as: UTF8.self))
    }

    /// A claims type of an app: its own names, an optional left out, a date, a nested value.
    private struct SessionClaims: Encodable {
        struct Tenant: Encodable { let id: String; let plan: String }
        let sub: String
        let exp: Date
        let admin: Bool
        let nickname: String?
        let tenant: Tenant
        let quota: UInt64
    }

    @Test func encodableClaimsAreWrittenInDeclarationOrderWithDatesAsNumericDates() throws {
        let key = try JWK.generate(for: .es256, keyID: "k1")
        let signer = try JWSSigner(key: key, algorithm: .es256)
        let claims = SessionClaims(sub: "alice", exp: Date(timeIntervalSince1970: 1_800_000_000.75), admin: false,
                                   nickname: nil, tenant: .init(id: "t/1", plan: "pro"), quota: UInt64.max)
        let token = try signer.sign(claims: claims)
        let (header, payload) = try parts(token)
        #expect(header == #"{"alg":"ES256","kid":"k1","typ":"JWT"}"#)
        // Declaration order; the date rounded down to whole seconds; `/` not escaped; UInt64.max exact.
        #expect(payload == #"{"sub":"alice","exp":1800000000,"admin":false,"tenant":{"id":"t/1","plan":"pro"},"quota":18446744073709551615}"#)
        let verified = try JWTVerifier(keySource: JWKSet(keys: [key.publicKey!]), rules: JWTClaimRules(clock: .fixed(secondsSince1970: 1_700_000_000)))
            .verifyWithoutSuspending(token)
        #expect(verified.claims.subject == "alice" && verified.claims.expiration == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func builderWritesRegisteredClaimsFirstThenOthersInOrderSet() throws {
        var claims = JWTClaimsBuilder(issuer: "https://issuer.example", subject: "alice", audience: "api://orders",
                                      expiration: Date(timeIntervalSince1970: 1_800_000_900),
                                      notBefore: Date(timeIntervalSince1970: 1_800_000_000),
                                      issuedAt: Date(timeIntervalSince1970: 1_800_000_000.999), tokenID: "j-1")
        try claims.set("scope", "orders:read")
        try claims.set("roles", ["admin", "auditor"])
        try claims.set("limits", ["daily": 5])
        try claims.set("scope", "orders:write")   // replaced in place
        #expect(try JSONOutput(encoding: claims).serialized()
                == #"{"iss":"https://issuer.example","sub":"alice","aud":"api://orders","exp":1800000900,"nbf":1800000000,"iat":1800000000,"jti":"j-1","scope":"orders:write","roles":["admin","auditor"],"limits":{"daily":5}}"#)
        claims.remove("roles")
        claims.audience = ["api://orders"]
        #expect(try JSONOutput(encoding: claims).serialized().contains(#""aud":["api://orders"],"#))
        #expect(try !JSONOutput(encoding: claims).serialized().contains("roles"))
        for registered in ["iss", "sub", "aud", "exp", "nbf", "iat", "jti"] {
            #expect(errorCode { try claims.set(registered, "x") } == .invalidInput, "\(registered)")
        }
    }

    @Test func builderEncodesTheSameSecondsThroughFoundationsEncoder() throws {
        // JSONEncoder's default date strategy counts from 2001; the builder writes NumericDates itself.
        let claims = JWTClaimsBuilder(subject: "s", expiration: Date(timeIntervalSince1970: 1_800_000_000))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(claims), as: UTF8.self) == #"{"exp":1800000000,"sub":"s"}"#)
    }

    @Test func signedBuilderClaimsPassTheVerifiersRules() throws {
        let key = try JWK.generate(for: .eddsa)
        let now = 1_800_000_000.0
        var claims = JWTClaimsBuilder(issuer: "https://issuer.example", subject: "svc", audience: ["a", "b"],
                                      expiration: Date(timeIntervalSince1970: now + 60), issuedAt: Date(timeIntervalSince1970: now))
        try claims.set("azp", "a")
        let token = try JWSSigner(key: key, algorithm: .eddsa).sign(claims: claims, header: JWSHeaderParameters(type: "at+jwt"))
        var rules = JWTClaimRules(issuer: "https://issuer.example", audiences: ["b"], clock: .fixed(secondsSince1970: now))
        rules.type = "at+jwt"
        rules.authorizedParty = "a"
        let verified = try JWTVerifier(keySource: JWKSet(keys: [key.publicKey!]), rules: rules).verifyWithoutSuspending(token)
        #expect(verified.claims.audience == ["a", "b"] && verified.header.type == "at+jwt")
        // One second past exp (no leeway): the NumericDate is what the verifier reads.
        rules.clock = .fixed(secondsSince1970: now + 60)
        rules.leeway = .zero
        #expect(errorCode { try JWTVerifier(keySource: JWKSet(keys: [key.publicKey!]), rules: rules).verifyWithoutSuspending(token) } == .expired)
    }

    @Test func valuesJSONCannotHoldAreRefusedWithTheirPath() throws {
        struct Reading: Encodable { let name: String; let values: [Double] }
        let nan = try #require(errorOf { try JSONOutput(encoding: ["r": Reading(name: "x", values: [1, .nan])]) })
        #expect(nan.code == .invalidInput && nan.message.contains(#""r"."values".[1]"#), "\(nan.message)")
        #expect(errorCode { try JSONOutput(encoding: Float.infinity) } == .invalidInput)
        #expect(errorCode { try JSONOutput(encoding: Date(timeIntervalSince1970: -1)) } == .invalidInput)
        #expect(errorCode { try JSONOutput(encoding: Date.distantFuture.addingTimeInterval(1e12)) } == .invalidInput)
        // Claims must be an object.
        let signer = try JWSSigner(key: TokenForge.hmac, algorithm: .hs256)
        #expect(errorCode { try signer.sign(claims: ["a", "b"]) } == .invalidInput)
        #expect(errorCode { try signer.sign(claims: "text") } == .invalidInput)
    }

    @Test func aMemberEncodedTwiceIsRefusedNotReplaced() throws {
        struct Twice: Encodable {
            enum Keys: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .a)
                try container.encode(2, forKey: .a)
            }
        }
        #expect(errorCode { try JSONOutput(encoding: Twice()) } == .invalidInput)
        // An error of the value's own encode(to:) comes back as invalid_input.
        struct Refuses: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no"))
            }
        }
        #expect(errorCode { try JSONOutput(encoding: Refuses()) } == .invalidInput)
    }

    @Test func numbersStringsAndFoundationTypesAreWrittenExactly() throws {
        struct Mixed: Encodable {
            let small: Int8 = -128
            let big: Int64 = .max
            let float: Float = 0.1
            let double: Double = 0.1
            let whole: Double = 3
            let text = "quote\" slash\\ line\n tab\t nul\u{0} é 😀 </script>"
            let url = URL(string: "https://example.com/a?b=c")!
            let decimal = Decimal(string: "12345678901234567890.5")!
            let none: String? = nil
            let null: String?? = .some(nil)
        }
        #expect(try JSONOutput(encoding: Mixed()).serialized()
                == #"{"small":-128,"big":9223372036854775807,"float":0.1,"double":0.1,"whole":3,"text":"quote\" slash\\ line\n tab\t nul\u0000 é 😀 </script>","url":"https://example.com/a?b=c","decimal":12345678901234567890.5,"null":null}"#)
    }

    @Test func nestedAndSuperContainersWriteIntoTheSameObject() throws {
        struct Base: Encodable { let id = 1 }
        struct Derived: Encodable {
            enum Keys: String, CodingKey { case name, address, tags }
            enum AddressKeys: String, CodingKey { case city }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode("n", forKey: .name)
                var address = container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
                try address.encode("Oslo", forKey: .city)
                var tags = container.nestedUnkeyedContainer(forKey: .tags)
                try tags.encode("x")
                var pair = tags.nestedUnkeyedContainer()
                try pair.encode(1)
                try pair.encode(true)
                try Base().encode(to: container.superEncoder())
            }
        }
        #expect(try JSONOutput(encoding: Derived()).serialized()
                == #"{"name":"n","address":{"city":"Oslo"},"tags":["x",[1,true]],"super":{"id":1}}"#)
    }

    @Test func headerParametersAreTypedAndCheckedWhenSigning() throws {
        let key = try JWK.generate(for: .es256, keyID: "k")
        let signer = try JWSSigner(key: key, algorithm: .es256)
        let header = JWSHeaderParameters(type: "secevent+jwt", contentType: "JWT", critical: ["exp-hint"],
                                         members: [("exp-hint", .integer(5)), ("x5t#S256", .string("abc"))])
        let token = try signer.sign(claims: JWTClaimsBuilder(subject: "s"), header: header)
        #expect(try parts(token).header
                == #"{"alg":"ES256","kid":"k","typ":"secevent+jwt","cty":"JWT","crit":["exp-hint"],"exp-hint":5,"x5t#S256":"abc"}"#)
        // A verifier accepts the critical member only when told it understands it.
        #expect(errorCode { try JWSVerifier(key: key.publicKey!).verify(token) } == .unsupportedCriticalHeader)
        let verified = try JWSVerifier(key: key.publicKey!, understoodCriticalParameters: ["exp-hint"]).verify(token)
        #expect(verified.header.criticalParameters == ["exp-hint"] && verified.header.contentType == "JWT")
        // No typ at all.
        #expect(try parts(try signer.sign(Array("{}".utf8), header: JWSHeaderParameters(type: nil))).header == #"{"alg":"ES256","kid":"k"}"#)

        let refused: [JWSHeaderParameters] = [
            JWSHeaderParameters(members: [("jku", .string("https://attacker.example/jwks"))]),
            JWSHeaderParameters(members: [("x5u", .string("https://attacker.example/cert"))]),
            JWSHeaderParameters(members: [("cty", .string("JWT"))]),
            JWSHeaderParameters(members: [("crit", .array([]))]),
            JWSHeaderParameters(members: [("b64", .bool(false))]),
            JWSHeaderParameters(members: [("enc", .string("A256GCM"))]),
            JWSHeaderParameters(critical: ["missing"]),
            JWSHeaderParameters(critical: ["kid"]),
            JWSHeaderParameters(critical: ["a", "a"], members: [("a", .null)]),
        ]
        for header in refused {
            let error = try #require(errorOf { try signer.sign(claims: JWTClaimsBuilder(), header: header) })
            #expect(error.code == .invalidInput, "\(error)")
        }
    }

    @Test func headerMembersAreSetWithAnyEncodableValueAndReplacedInPlace() throws {
        let key = try JWK.generate(for: .es256, keyID: "k")
        let signer = try JWSSigner(key: key, algorithm: .es256)
        var header = JWSHeaderParameters(type: "secevent+jwt")
        try header.set("ver", 1)
        try header.set("hints", ["a", "b"])
        try header.set("ver", 2)
        let token = try signer.sign(claims: JWTClaimsBuilder(subject: "s"), header: header)
        #expect(try parts(token).header == #"{"alg":"ES256","kid":"k","typ":"secevent+jwt","ver":2,"hints":["a","b"]}"#)
        // A value JSON cannot hold is refused when set; a name the signer refuses, when signing.
        #expect(errorOf { try header.set("bad", Double.nan) }?.code == .invalidInput)
        try header.set("jku", "https://attacker.example/jwks")
        #expect(errorOf { try signer.sign(claims: JWTClaimsBuilder(), header: header) }?.code == .invalidInput)
    }

    /// The error `body` throws, when it is a ``JOSEError``.
    private func errorOf<T>(_ body: () throws -> T) -> JOSEError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? JOSEError
        }
    }
}
