extension String {
    /// `bytes` as a string when they are well-formed UTF-8 (no overlong forms, no surrogates,
    /// nothing above U+10FFFF, no cut sequences), else `nil`: never repaired, unlike
    /// `String(decoding:as:)`.
    ///
    /// What `String(validating:as:)` does, which needs iOS 18 / macOS 15.
    package init?(validatingUTF8Bytes bytes: [UInt8]) {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid:
                continue
            case .emptyInput:
                self = String(decoding: bytes, as: UTF8.self)
                return
            case .error:
                return nil
            }
        }
    }
}
