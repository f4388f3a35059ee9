import ArgumentParser
import Foundation
import JOSE
import JOSEBatchIO

/// The process entry point of `jose`.
///
/// Parses with ``JOSECommand/parseAsRoot(_:)`` instead of `main()` so that every failure maps to
/// the exit codes of the CLI contract: argument-parser's own usage errors (exit 64 there) become
/// exit 2 with a one-line reason and a hint, and ``CLIFailure`` carries its own code.
@main
enum EntryPoint {
    /// Runs the command line and exits with the contract's code.
    static func main() async {
        let arguments = SignCommand.expandingBareJTI(Array(CommandLine.arguments.dropFirst()))
        let status: Int32
        do {
            var command = try JOSECommand.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            status = CLIFailure.Status.success.rawValue
        } catch let failure as CLIFailure {
            failure.report()
            status = failure.status.rawValue
        } catch let error as DescriptorReadError {
            let failure = CLIFailure(error)
            failure.report()
            status = failure.status.rawValue
        } catch let error as JOSEError {
            let failure = CLIFailure(error, context: nil)
            failure.report()
            status = failure.status.rawValue
        } catch {
            status = reportParserOutcome(error, arguments: arguments)
        }
        exit(status)
    }

    /// Reports a help request (exit 0) or a usage error (exit 2) raised by argument-parser.
    ///
    /// - Parameters:
    ///   - error: what argument-parser threw while parsing or validating.
    ///   - arguments: the command line, used to name the subcommand in the hint.
    /// - Returns: the exit status.
    static func reportParserOutcome(_ error: Error, arguments: [String]) -> Int32 {
        if JOSECommand.exitCode(for: error) == .success {
            Console.out(JOSECommand.fullMessage(for: error))
            return CLIFailure.Status.success.rawValue
        }
        let reason = oneLine(JOSECommand.message(for: error))
        let subcommand = arguments.first.flatMap { name in
            JOSECommand.configuration.subcommands.first { $0._commandName == name }?._commandName
        }
        var hint = "run 'jose \(subcommand.map { "\($0) " } ?? "")--help' for the options"
        if reason.localizedCaseInsensitiveContains("unknown option"),
           arguments.contains(where: { $0.hasPrefix("-") && $0.contains(".") }) {
            hint = "put -- before a token that starts with '-'; " + hint
        }
        CLIFailure.usage(reason, hint: hint).report()
        return CLIFailure.Status.usage.rawValue
    }

    /// Folds argument-parser's message into one line: the first line, and when it ends with a
    /// colon (a list of valid values follows), the list joined with commas.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard let first = lines.first else { return "invalid arguments" }
        guard first.hasSuffix(":"), lines.count > 1 else { return first }
        let values = lines.dropFirst().map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }
        return first + " " + values.joined(separator: ", ")
    }
}
