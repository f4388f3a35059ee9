import OursVerifier
import TokenFactory

/// One thread's way to verify a token: a plain call, or an `async` one (jwt-kit's API is async).
public enum ThreadVerifier {
    /// A synchronous verify function owned by the calling thread.
    case sync((_ token: [UInt8]) -> Bool)
    /// An asynchronous verify function.
    case async(@Sendable (_ token: [UInt8]) async -> Bool)

    /// Verifies once, whichever kind this is.
    public func callAsFunction(_ token: [UInt8]) async -> Bool {
        switch self {
        case .sync(let verify): verify(token)
        case .async(let verify): await verify(token)
        }
    }
}

/// One of the verifiers compared, prepared for one token.
public struct Contender: Sendable {
    /// Which verifier this is.
    public enum Kind: String, Sendable, CaseIterable {
        /// swift-jose (see ``OursVerifier``), synchronous, fixed key set.
        case ours
        /// swift-jose through a warm ``JOSE/JWKSCache``, with the `async` verify an API server
        /// calls (``OursVerifier/makeCache(for:)``); one cache shared by all threads.
        case oursCache = "ours-cache"
        /// The raw OpenSSL floor in C, fastest form: hash once, then `EVP_PKEY_verify` on a
        /// prepared context (RSA, ECDSA); a re-initialised keyed context (HMAC).
        case floor
        /// The raw OpenSSL floor in C, textbook form (the "realistic" floor):
        /// `EVP_DigestVerifyInit_ex` + `EVP_DigestVerify` per token on a reused context; a copy of
        /// the keyed HMAC template per token.
        case floorDigestVerify = "floor-dv"
        /// vapor/jwt-kit.
        case jwtKit = "jwt-kit"
    }

    /// Which verifier this is.
    public let kind: Kind
    /// Makes the verify function for the calling thread (per-thread contexts for the floor).
    public let makeThreadVerifier: @Sendable () throws -> ThreadVerifier

    /// Prepares a contender of each kind for `token`; ours is absent while not wired.
    /// - Throws: ``BenchSetupError`` or jwt-kit's error when a key cannot be loaded.
    public static func all(for token: BenchToken) async throws -> [Contender] {
        var contenders: [Contender] = []
        if let ours = OursVerifier.make(for: token) {
            contenders.append(Contender(kind: .ours) { .sync(ours) })
        }
        if let cache = await OursVerifier.makeCache(for: token),
           let verifier = OursVerifier.makeJWTVerifier(for: token, keySource: cache) {
            contenders.append(Contender(kind: .oursCache) {
                .async { bytes in (try? await verifier.verify(bytes)) != nil }
            })
        }
        let floor = try FloorVerifier(token: token)
        contenders.append(Contender(kind: .floor) {
            let thread = try floor.makeThreadVerifier()
            return .sync { thread.verify($0) }
        })
        contenders.append(Contender(kind: .floorDigestVerify) {
            let thread = try floor.makeThreadVerifier()
            return .sync { thread.verifyWithDigestVerify($0) }
        })
        let jwtKit = try await JWTKitVerifier(token: token)
        contenders.append(Contender(kind: .jwtKit) { .async { await jwtKit.verify($0) } })
        return contenders
    }

    /// swift-jose's own roads, ours and ours-cache, for a token handed over as a record (the
    /// per-backend comparison runs them in this build and in the other backend's). Empty when
    /// this build's backend cannot load the key or does not know the algorithm.
    public static func library(for record: TokenRecord) async -> [Contender] {
        var contenders: [Contender] = []
        if let ours = OursVerifier.make(algorithm: record.algorithm, jwkJSON: record.jwkJSON) {
            contenders.append(Contender(kind: .ours) { .sync(ours) })
        }
        if let cache = await OursVerifier.makeCache(jwkJSON: record.jwkJSON),
           let verifier = OursVerifier.makeJWTVerifier(algorithm: record.algorithm, keySource: cache) {
            contenders.append(Contender(kind: .oursCache) {
                .async { bytes in (try? await verifier.verify(bytes)) != nil }
            })
        }
        return contenders
    }

    /// Checks that this contender accepts `token.token` and rejects `token.tampered`.
    /// - Throws: ``BenchSetupError`` naming the failure; the run must then stop.
    public func checkCorrectness(on token: BenchToken) async throws {
        try await checkCorrectness(valid: token.token, tampered: token.tampered, algorithm: token.algorithm.rawValue)
    }

    /// Checks that this contender accepts `record.token` and rejects `record.tampered`.
    /// - Throws: ``BenchSetupError`` naming the failure; the run must then stop.
    public func checkCorrectness(on record: TokenRecord) async throws {
        try await checkCorrectness(valid: record.token, tampered: record.tampered, algorithm: record.algorithm)
    }

    /// Checks that this contender accepts `valid` and rejects `tampered`.
    private func checkCorrectness(valid: [UInt8], tampered: [UInt8], algorithm: String) async throws {
        let verify = try makeThreadVerifier()
        guard await verify(valid) else {
            throw BenchSetupError("\(kind.rawValue) rejects the valid \(algorithm) token")
        }
        guard await !verify(tampered) else {
            throw BenchSetupError("\(kind.rawValue) accepts a tampered \(algorithm) token")
        }
    }
}
