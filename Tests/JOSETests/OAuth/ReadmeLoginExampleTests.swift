import Foundation
import Testing

/// The README's "Log a user in" block is the code CI compiles.
@Suite struct ReadmeLoginExampleTests {
    @Test func readmeBlockIsTheExampleProgram() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let program = try String(contentsOf: root.appendingPathComponent("Tests/ReadmeLoginExample/main.swift"), encoding: .utf8)

        let section = try #require(readme.components(separatedBy: "### Log a user in\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?
            .components(separatedBy: "```\n").first)
        let code = try #require(program.components(separatedBy: "// README \"Log a user in\" begins\n").dropFirst().first?
            .components(separatedBy: "// README \"Log a user in\" ends\n").first)
        #expect(block.contains("finishLogin"))
        #expect(block == code)
        #expect(block.split(separator: "\n").count <= 25)
    }
}
