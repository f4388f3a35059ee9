// A tiny driver for profilers (callgrind, perf): verifies one algorithm's token N times with
// swift-jose, or with the floor (`--floor`), and nothing else.
//
//   swift build -c release --package-path Benchmarks --product profile-verify
//   valgrind --tool=callgrind Benchmarks/.build/release/profile-verify HS256 20000
import Foundation
import OursVerifier
import TokenFactory
import VerifierKit

let arguments = CommandLine.arguments.dropFirst()
let useFloor = arguments.contains("--floor")
let positional = arguments.filter { !$0.hasPrefix("--") }
guard let name = positional.first, let algorithm = BenchAlgorithm(name: name) else {
    FileHandle.standardError.write(Data("usage: profile-verify ALG [COUNT] [--floor]\n".utf8))
    exit(2)
}
let count = positional.dropFirst().first.flatMap { Int($0) } ?? 100_000
let token = try TokenFactory.make(algorithm)
let verify: (_ token: [UInt8]) -> Bool
if useFloor {
    let thread = try FloorVerifier(token: token).makeThreadVerifier()
    verify = { thread.verify($0) }
} else {
    guard let ours = OursVerifier.make(for: token) else { fatalError("ours is not wired") }
    verify = ours
}
var accepted = 0
for _ in 0..<count where verify(token.token) { accepted += 1 }
guard accepted == count else { fatalError("\(count - accepted) of \(count) verifies failed") }
print("\(algorithm): \(count) verifies")
