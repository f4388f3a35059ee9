import Testing

/// `jose completion`, run as a process.
@Suite("jose completion")
struct CompletionCommandTests {
    @Test("completion scripts for bash, zsh and fish name the subcommands; other shells are usage errors")
    func completion() async throws {
        for (shell, marker) in [("bash", "#!/bin/bash"), ("zsh", "#compdef jose"), ("fish", "complete -c 'jose'")] {
            let result = try await JoseProcess.run(["completion", shell])
            #expect(result.status == 0, "\(shell) \(result)")
            #expect(result.stdout.contains(marker), "\(shell)")
            #expect(result.stdout.contains("verify") && result.stdout.contains("jwk") && result.stdout.contains("decrypt"))
        }
        #expect(try await JoseProcess.run(["completion", "tcsh"]).status == 2)
    }
}
