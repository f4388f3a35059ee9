import Foundation
import Testing

/// `jose bench`, run as a process.
@Suite("jose bench")
struct BenchCommandTests {
    @Test("bench --seconds 0.05 prints a table of rates and ratios")
    func bench() async throws {
        let result = try await JoseProcess.run(["bench", "--seconds", "0.05", "--alg", "HS256", "--alg", "ES256", "--threads", "2"])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.count == 4)
        // The primitive's column is named after the backend jose was built with.
        #expect(lines[1].contains("jose verify/s") && lines[1].contains("ratio")
                && (lines[1].contains("OpenSSL/s") || lines[1].contains("swift-crypto/s")))
        for (line, alg) in zip(lines.dropFirst(2), ["HS256", "ES256"]) {
            let columns = line.split(separator: " ")
            #expect(columns.count == 4, "\(line)")
            #expect(columns.first.map(String.init) == alg)
            let ratio = try #require(Double(String(columns[3])))
            #expect(ratio > 0)
            #expect(Int(columns[1].replacingOccurrences(of: ",", with: "")) ?? 0 > 0)
        }
    }

    @Test("bench refuses bad ranges", arguments: [["--seconds", "0"], ["--threads", "0"], ["--alg", "none"]])
    func benchRefusals(arguments: [String]) async throws {
        #expect(try await JoseProcess.run(["bench"] + arguments).status == 2)
    }
}
