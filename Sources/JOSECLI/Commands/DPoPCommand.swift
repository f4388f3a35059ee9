import ArgumentParser
import Foundation
import JOSE

/// `jose dpop`: makes a DPoP proof (RFC 9449) for one request.
struct DPoPCommand: ParsableCommand {
    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "dpop",
        abstract: "Make a DPoP proof (RFC 9449) for one HTTP request; print it on stdout.",
        discussion: """
            The proof carries a fresh jti, iat, htm and htu (the URL normalised, without query \
            and fragment), ath with --ath-token, and the server's nonce with --nonce. Its \
            header holds the key's public half. Send it as the request's DPoP header.

            Examples:
              jose dpop --key client.private.jwk.json --htm POST \\
                --htu https://issuer.example/token
              jose dpop --key client.private.jwk.json --htm GET \\
                --htu https://api.example/orders --ath-token "$ACCESS_TOKEN"
            """)

    /// `--key`.
    @Option(help: ArgumentHelp("The private key: a JWK (RSA, EC or OKP) or a PEM private key.", valueName: "PRIVATE_JWK"))
    var key: String

    /// `--htm`.
    @Option(help: ArgumentHelp("The request's HTTP method, e.g. GET.", valueName: "METHOD"))
    var htm: String

    /// `--htu`.
    @Option(help: ArgumentHelp("The request's absolute URL.", valueName: "URL"))
    var htu: String

    /// `--ath-token`.
    @Option(name: .customLong("ath-token"), help: ArgumentHelp(
        "The access token sent with the request (wrapping such as Bearer removed): its SHA-256 hash goes into ath.", valueName: "TOKEN"))
    var athToken: String?

    /// `--nonce`.
    @Option(parsing: .unconditional, help: ArgumentHelp("The server's DPoP-Nonce, to put in the proof.", valueName: "NONCE"))
    var nonce: String?

    /// `--alg`.
    @Option(help: ArgumentHelp(
        "The signature algorithm (default: the key's alg, else ES* by curve, EdDSA, or PS256 for RSA).", valueName: "ALG"))
    var alg: AlgorithmArgument?

    /// `--now`.
    @Option(help: ArgumentHelp("Make the proof as of this instant (iat), in seconds since 1970.", valueName: "UNIX_SECONDS"))
    var now: Double?

    /// Rejects an unusable `--now` or `--nonce`.
    func validate() throws {
        if let now, !(now.isFinite && now >= 0 && now <= SecondsFlagLimits.maximumInstant) {
            throw ValidationError("--now must be a number of seconds since 1970 between 0 and \(Int(SecondsFlagLimits.maximumInstant))")
        }
        if let nonce, nonce.isEmpty || !nonce.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) {
            throw ValidationError("--nonce must be visible ASCII characters (RFC 9449 §8.1)")
        }
    }

    /// Signs and prints the proof.
    func run() throws {
        guard let url = URL(string: htu), url.scheme != nil else {
            throw CLIFailure.usage("--htu '\(htu)' is not an absolute URL")
        }
        let privateKey = try KeyFile.load(key)
        let clock = now.map(JOSEClock.fixed) ?? .system
        let signer = try withContext("cannot sign DPoP proofs with '\(key)'") {
            try DPoPProofSigner(key: privateKey, algorithm: alg?.algorithm, clock: clock)
        }
        Console.out(try withContext("cannot make the proof") {
            try signer.proof(method: htm, url: url, accessToken: athToken.map(TokenInput.unwrapped), nonce: nonce)
        })
    }
}
