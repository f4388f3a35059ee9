import Foundation
import Logging

/// Access tokens and DPoP proofs made by PyJWT (an independent implementation), all at one
/// fixed time, for an API at `https://api.example.com` trusting `https://auth.example.com`.
package struct PyJWTTokens: Sendable {
    /// When the tokens and proofs were made; the server's clock reads one second later.
    package static let madeAt: Double = 1_800_000_000

    private static let script = """
        import base64, hashlib, json, jwt
        from cryptography.hazmat.primitives.asymmetric import ec
        from jwt.algorithms import ECAlgorithm
        from jwcrypto import jwk
        T = 1800000000
        ORDERS = "https://api.example.com/orders"
        issuer_key = ec.generate_private_key(ec.SECP256R1())
        issuer_jwk = json.loads(ECAlgorithm.to_jwk(issuer_key.public_key()))
        issuer_jwk.update(kid="as-1", alg="ES256", use="sig")
        proof_key = ec.generate_private_key(ec.SECP256R1())
        proof_jwk = json.loads(ECAlgorithm.to_jwk(proof_key.public_key()))
        def token(jti, **changes):
            claims = {"iss": "https://auth.example.com", "aud": "https://api.example.com", "sub": "alice",
                      "client_id": "app", "iat": T, "exp": T + 600, "jti": jti, "scope": "orders:read"}
            claims.update(changes)
            return jwt.encode(claims, issuer_key, algorithm="ES256", headers={"typ": "at+jwt", "kid": "as-1"})
        def proof(jti, method, token, nonce=None):
            ath = base64.urlsafe_b64encode(hashlib.sha256(token.encode()).digest()).rstrip(b"=").decode()
            claims = {"jti": jti, "htm": method, "htu": ORDERS, "iat": T, "ath": ath}
            if nonce is not None:
                claims["nonce"] = nonce
            return jwt.encode(claims, proof_key, algorithm="ES256", headers={"typ": "dpop+jwt", "jwk": proof_jwk})
        bound = token("at-bound", cnf={"jkt": jwk.JWK(**proof_jwk).thumbprint()})
        print(json.dumps({
            "jwks": json.dumps({"keys": [issuer_jwk]}),
            "valid": token("at-1"),
            "expired": token("at-2", iat=T - 7200, exp=T - 3600),
            "wrongAudience": token("at-3", aud="https://other.example.com"),
            "otherScope": token("at-4", scope="profile"),
            "bound": bound,
            "proof": proof("p-1", "GET", bound),
            "proofForPost": proof("p-2", "POST", bound),
            "proofWithNonce": proof("p-3", "GET", bound, nonce="nonce-1"),
        }))
        """

    /// The issuer's key set, as JSON.
    package let jwks: String
    /// A bearer token with scope `orders:read`.
    package let valid: String
    /// The same, expired an hour before the server's clock.
    package let expired: String
    /// The same, for `https://other.example.com`.
    package let wrongAudience: String
    /// The same, with scope `profile` only.
    package let otherScope: String
    /// A token bound to the proof key (`cnf.jkt`).
    package let bound: String
    /// A proof of `GET https://api.example.com/orders` with `bound`.
    package let proof: String
    /// The same for `POST`.
    package let proofForPost: String
    /// The same as `proof`, with nonce `nonce-1`.
    package let proofWithNonce: String

    /// Runs PyJWT once and reads what it made.
    package static func make() throws -> PyJWTTokens {
        try PythonPeers.requireInstalled()
        let run = try PythonPeers.run(["-c", script])
        guard run.status == 0,
              let made = try JSONSerialization.jsonObject(with: run.stdout) as? [String: String] else {
            throw TestHTTPServer.Failure(description: "PyJWT failed: \(String(decoding: run.stdout + run.stderr, as: UTF8.self))")
        }
        func value(_ name: String) throws -> String {
            guard let text = made[name] else { throw TestHTTPServer.Failure(description: "PyJWT made no \(name)") }
            return text
        }
        return PyJWTTokens(
            jwks: try value("jwks"), valid: try value("valid"), expired: try value("expired"),
            wrongAudience: try value("wrongAudience"), otherScope: try value("otherScope"), bound: try value("bound"),
            proof: try value("proof"), proofForPost: try value("proofForPost"), proofWithNonce: try value("proofWithNonce"))
    }
}

/// Collects every log entry, with the logger's own metadata (the request id) merged in. Its
/// entries are guarded by a lock.
package final class RecordingLog: @unchecked Sendable {
    /// One entry: level, message, and the logger's and the call's metadata as text.
    package struct Entry: Sendable {
        package let level: Logger.Level
        package let message: String
        package let metadata: [String: String]
    }

    private let lock = NSLock()
    private var recorded: [Entry] = []

    package init() {}

    /// Every entry so far, in order.
    package var entries: [Entry] { lock.withLock { recorded } }

    /// A logger that records into this log.
    package func logger() -> Logger {
        Logger(label: "jose-test") { _ in Handler(log: self) }
    }

    fileprivate func append(_ entry: Entry) { lock.withLock { recorded.append(entry) } }

    private struct Handler: LogHandler {
        let log: RecordingLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.append(Entry(level: event.level, message: "\(event.message)",
                             metadata: merged.mapValues { "\($0)" }))
        }
    }
}
