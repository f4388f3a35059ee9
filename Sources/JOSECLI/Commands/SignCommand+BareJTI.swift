extension SignCommand {
    /// The command line with each bare `sign --jti` (last, or followed by another option)
    /// replaced by the hidden `--random-jti`, since argument-parser options always take a value.
    ///
    /// - Parameter arguments: the command line after `jose`.
    static func expandingBareJTI(_ arguments: [String]) -> [String] {
        guard arguments.first == configuration.commandName else { return arguments }
        var result: [String] = []
        var index = 0
        var afterTerminator = false
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { afterTerminator = true }
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if !afterTerminator, argument == "--jti", next == nil || next?.hasPrefix("-") == true {
                result.append("--random-jti")
            } else {
                result.append(argument)
            }
            index += 1
        }
        return result
    }
}
