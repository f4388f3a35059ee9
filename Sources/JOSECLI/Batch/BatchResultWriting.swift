import JOSE
import JOSEBatchIO

extension BatchOutputBuffer {
    /// Appends the JSON line for one token: byte for byte what ``VerificationReport/json(line:)``
    /// serializes, written straight from the verified token's JSON text where it can be copied.
    ///
    /// - Parameters:
    ///   - line: the 1-based line number.
    ///   - outcome: what the verification came to.
    /// - Returns: the outcome's status, as ``VerificationReport/status`` (read here, in the one
    ///   pass over the outcome).
    func appendResult(line: Int, _ outcome: borrowing TokenVerifier.Outcome) -> CLIFailure.Status {
        append(#"{"line":"#)
        appendDecimal(line)
        let status: CLIFailure.Status
        switch outcome {
        case .verified(.jwt(let jwt)):
            append(#","valid":true,"header":"#)
            appendJSON(of: jwt.header)
            append(#","claims":"#)
            appendJSON(of: jwt.claims)
            status = .success
        case .verified(.jws(let jws)):
            append(#","valid":true,"header":"#)
            appendJSON(of: jws.header)
            append(#","payload":"#)
            appendJSONString(Base64URL.encode(jws.payload))
            status = .success
        case .failure(let error):
            appendError(error.code.rawValue, message: error.message)
            status = VerificationReport.status(of: error)
        }
        append("}\n")
        return status
    }

    /// Appends the JSON line for a line longer than the token limit, which was not read.
    ///
    /// - Parameters:
    ///   - line: the 1-based line number.
    ///   - limit: the token limit in bytes.
    func appendOverLongResult(line: Int, limit: Int) {
        append(#"{"line":"#)
        appendDecimal(line)
        appendError(JOSEError.Code.malformed.rawValue, message: "the token is larger than \(limit) bytes")
        append("}\n")
    }

    /// Appends `,"valid":false,"error":{"code":..,"message":..}`.
    private func appendError(_ code: String, message: String) {
        append(#","valid":false,"error":{"code":"#)
        appendJSONString(code)
        append(#","message":"#)
        appendJSONString(message)
        append("}")
    }

    /// Appends a verified header's JSON: copied when already in output form, else rendered.
    private func appendJSON(of header: JWSHeader) {
        let copied = header.withJSONBytes { appendIfCopyable($0, plainCompact: header.isPlainCompactJSON) }
        if !copied { append(JSONRendering.value(ofJSONText: header.jsonString).serializedBytes()) }
    }

    /// Appends verified claims' JSON: copied when already in output form, else rendered.
    private func appendJSON(of claims: JWTClaims) {
        let copied = claims.withJSONBytes { appendIfCopyable($0, plainCompact: claims.isPlainCompactJSON) }
        if !copied { append(JSONRendering.value(ofJSONText: claims.jsonString).serializedBytes()) }
    }

    /// Appends the verified JSON `text` when it is already in output form, and says whether it
    /// did. `plainCompact`: the parser read it as plain and compact, so only a DEL byte is
    /// looked for; otherwise the text is checked in full (``CompactJSONText/isCopyable(_:)``).
    private func appendIfCopyable(_ text: UnsafeRawBufferPointer, plainCompact: Bool) -> Bool {
        let copyable = plainCompact ? CompactJSONText.isCopyable(plainCompactText: text) : CompactJSONText.isCopyable(text)
        if copyable { append(text) }
        return copyable
    }
}
