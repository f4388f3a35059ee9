import ArgumentParser
import Dispatch
import Foundation
import JOSE
import JOSEPrimitiveSignatureCheck

/// `jose bench`: verify throughput per algorithm beside the raw primitive of the crypto backend
/// compiled into this build (``CryptoBackend/current``: OpenSSL or swift-crypto).
struct BenchCommand: ParsableCommand {
    /// The compiled crypto backend's name, as the help and the table's column say it.
    static let backend = CryptoBackend.current.description

    /// Help and name.
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure verify throughput per algorithm beside the raw \(backend) primitive.",
        discussion: """
            For each algorithm: generate a key, sign a typical ID-token payload, then count \
            full verifications (parse, allow-list, key selection, signature) per second, and \
            the bare \(backend) signature check on the pre-decoded token in the same process \
            (\(backend) is the crypto backend this jose was built with). \
            ratio = jose / \(backend) (1.00 means no overhead). Build with -c release for real numbers.

            Examples:
              jose bench
              jose bench --alg ES256 --alg EdDSA --seconds 5 --threads 2
            """)

    /// The algorithms measured when none is named.
    static let defaultAlgorithms: [JWSAlgorithm] = [.hs256, .rs256, .ps256, .es256, .es384, .eddsa]

    /// `--alg`, repeatable.
    @Option(name: .customLong("alg"), help: ArgumentHelp(
        "Measure this algorithm; repeat for several (default: HS256 RS256 PS256 ES256 ES384 EdDSA).",
        valueName: "ALG"))
    var algorithms: [AlgorithmArgument] = []

    /// `--seconds`.
    @Option(help: ArgumentHelp("Seconds per measurement (two per algorithm).", valueName: "S"))
    var seconds: Double = 1

    /// `--threads`.
    @Option(help: ArgumentHelp("Threads verifying at once; rates are totals over all threads.", valueName: "N"))
    var threads: Int = 1

    /// A typical ID-token payload (about 226 bytes).
    static let payload = Array(#"""
        {"iss":"https://issuer.example","sub":"248289761001","aud":"example-client","exp":4102444800,\
        "iat":1767225600,"auth_time":1767225600,"nonce":"n-0S6_WzA2Mj","name":"Jane Doe",\
        "email":"janedoe@example.com","email_verified":true}
        """#.utf8)

    /// Checks the ranges.
    func validate() throws {
        guard seconds > 0, seconds <= 600, seconds.isFinite else { throw ValidationError("--seconds must be in (0, 600]") }
        guard (1...256).contains(threads) else { throw ValidationError("--threads must be 1...256") }
    }

    /// Measures and prints the table.
    func run() throws {
        var seen = Set<JWSAlgorithm>()
        let chosen = (algorithms.isEmpty ? Self.defaultAlgorithms : algorithms.map(\.algorithm)).filter { seen.insert($0).inserted }
        Console.out("jose bench: \(threads) thread(s), \(seconds) s per measurement, \(Self.payload.count)-byte payload")
        Console.out(row("alg", "jose verify/s", "\(Self.backend)/s", "ratio"))
        for algorithm in chosen {
            let key = try withContext("cannot generate a \(algorithm) key") { try JWK.generate(for: algorithm, keyID: "bench") }
            let verifyKey = key.publicKey ?? key
            let token = try withContext("cannot sign with \(algorithm)") {
                try JWSSigner(key: key, algorithm: algorithm).sign(Self.payload)
            }
            let verifier = JWSVerifier(key: verifyKey, algorithms: [algorithm])
            let primitive = try withContext("cannot decode the \(algorithm) token") {
                try PrimitiveSignatureCheck(token: token, algorithm: algorithm, key: verifyKey)
            }
            guard (try? verifier.verify(token)) != nil, primitive.verify() else {
                throw CLIFailure.input("the \(algorithm) benchmark token does not verify")
            }
            let library = Self.rate(seconds: seconds, threads: threads) { (try? verifier.verify(token)) != nil }
            let floor = Self.rate(seconds: seconds, threads: threads) { primitive.verify() }
            Console.out(row(algorithm.rawValue, Self.grouped(library), Self.grouped(floor),
                            floor > 0 ? String(format: "%.2f", library / floor) : "-"))
        }
    }

    /// One table row with right-aligned numbers.
    private func row(_ name: String, _ library: String, _ floor: String, _ ratio: String) -> String {
        name.padding(toLength: 8, withPad: " ", startingAt: 0) + pad(library, 15) + pad(floor, 15) + pad(ratio, 7)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// Operations per second of `operation` run by `threads` threads for `seconds`.
    static func rate(seconds: Double, threads: Int, _ operation: @escaping @Sendable () -> Bool) -> Double {
        let total = Lock<(operations: Int, failures: Int)>((0, 0))
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int64(seconds * 1000))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            var operations = 0
            var failures = 0
            repeat {
                for _ in 0..<16 where !operation() { failures += 1 }
                operations += 16
            } while clock.now < deadline
            total.withLock { $0.operations += operations; $0.failures += failures }
        }
        let elapsed = start.duration(to: clock.now)
        let elapsedSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let counted = total.withLock { $0 }
        return counted.failures == 0 ? Double(counted.operations) / elapsedSeconds : 0
    }

    /// `1234567.8` as `1,234,568`.
    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, character) in digits.reversed().enumerated() {
            if index > 0, index % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return String(result.reversed())
    }
}
