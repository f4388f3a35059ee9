#if !JOSE_SWIFT_CRYPTO
internal import COpenSSL

/// The OpenSSL backend's AES-GCM, AES-CBC and AES key wrap, through `EVP_CIPHER` objects
/// fetched once per process and a fresh `EVP_CIPHER_CTX` per call.
///
/// Decrypting calls throw ``JOSEError/Code/decryptionFailed`` with one message for every
/// failure, and clear OpenSSL's error queue, so nothing reports which check failed.
enum OpenSSLCiphers: BackendCiphers {
    /// AES-GCM with a 96-bit `iv`: the ciphertext and the 128-bit tag.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a key or iv of the wrong size, or when
    ///   OpenSSL fails.
    static func gcmSeal(key: [UInt8], iv: [UInt8], plaintext: [UInt8], additionalData: [UInt8]) throws
        -> (ciphertext: [UInt8], tag: [UInt8])
    {
        guard iv.count == 12, let cipher = fetched(.gcm, keyByteCount: key.count) else {
            throw JOSEError.invalidInput("AES-GCM needs a 16, 24 or 32-byte key and a 12-byte iv")
        }
        var tag = [UInt8](repeating: 0, count: 16)
        let ciphertext = try run(cipher, encrypt: true, key: key, iv: iv, input: plaintext, failure: encryptionFailure) { context in
            try feedAdditionalData(additionalData, context: context, failure: encryptionFailure)
        } after: { context in
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1 else { throw encryptionFailure }
        }
        return (ciphertext, tag)
    }

    /// Opens AES-GCM after OpenSSL checks the full 128-bit `tag`.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for anything that fails.
    static func gcmOpen(key: [UInt8], iv: [UInt8], ciphertext: [UInt8], additionalData: [UInt8], tag: [UInt8]) throws
        -> [UInt8]
    {
        guard iv.count == 12, tag.count == 16, let cipher = fetched(.gcm, keyByteCount: key.count) else {
            throw JOSEError.undecryptable
        }
        var expectedTag = tag
        return try run(cipher, encrypt: false, key: key, iv: iv, input: ciphertext, failure: JOSEError.undecryptable) { context in
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, &expectedTag) == 1 else { throw JOSEError.undecryptable }
            try feedAdditionalData(additionalData, context: context, failure: JOSEError.undecryptable)
        }
    }

    /// AES-CBC with PKCS#7 padding and a 128-bit `iv`.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a key or iv of the wrong size, or when
    ///   OpenSSL fails.
    static func cbcEncrypt(key: [UInt8], iv: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        guard iv.count == 16, let cipher = fetched(.cbc, keyByteCount: key.count) else {
            throw JOSEError.invalidInput("AES-CBC needs a 16, 24 or 32-byte key and a 16-byte iv")
        }
        return try run(cipher, encrypt: true, key: key, iv: iv, input: plaintext, failure: encryptionFailure)
    }

    /// Decrypts AES-CBC and removes its PKCS#7 padding.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for anything that fails, bad padding included.
    static func cbcDecrypt(key: [UInt8], iv: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        guard iv.count == 16, !ciphertext.isEmpty, ciphertext.count % 16 == 0,
              let cipher = fetched(.cbc, keyByteCount: key.count)
        else { throw JOSEError.undecryptable }
        return try run(cipher, encrypt: false, key: key, iv: iv, input: ciphertext, failure: JOSEError.undecryptable)
    }

    /// Wraps `key` under `kek` with the RFC 3394 default initial value.
    ///
    /// - Throws: ``JOSEError/Code/invalidInput`` for a `kek` of the wrong size, a `key` that is
    ///   not a multiple of 8 bytes of at least 16, or when OpenSSL fails.
    static func keyWrap(_ key: [UInt8], kek: [UInt8]) throws -> [UInt8] {
        guard key.count >= 16, key.count % 8 == 0, let cipher = fetched(.wrap, keyByteCount: kek.count) else {
            throw JOSEError.invalidInput("AES key wrap needs a 16, 24 or 32-byte key-encryption key and a key of 16 or more bytes in 8-byte blocks")
        }
        return try run(cipher, encrypt: true, key: kek, iv: nil, input: key, failure: encryptionFailure)
    }

    /// Unwraps `wrapped` under `kek` and checks the RFC 3394 integrity value.
    ///
    /// - Throws: ``JOSEError/Code/decryptionFailed`` for anything that fails.
    static func keyUnwrap(_ wrapped: [UInt8], kek: [UInt8]) throws -> [UInt8] {
        guard wrapped.count >= 24, wrapped.count % 8 == 0, let cipher = fetched(.wrap, keyByteCount: kek.count) else {
            throw JOSEError.undecryptable
        }
        return try run(cipher, encrypt: false, key: kek, iv: nil, input: wrapped, failure: JOSEError.undecryptable)
    }

    // MARK: - Running a cipher

    /// The error of an encrypting call that OpenSSL failed.
    private static let encryptionFailure = JOSEError(.invalidInput, "OpenSSL could not encrypt")

    /// Runs `cipher` once over `input`: `before` after the key and iv are set (the GCM tag and
    /// additional data go in there), `after` once the final block is out (the GCM tag comes
    /// out there). Clears OpenSSL's error queue and throws `failure` on any failure.
    private static func run(
        _ cipher: OpaquePointer, encrypt: Bool, key: [UInt8], iv: [UInt8]?, input: [UInt8], failure: JOSEError,
        before: (OpaquePointer) throws -> Void = { _ in }, after: (OpaquePointer) throws -> Void = { _ in }
    ) throws -> [UInt8] {
        guard input.count < Int(Int32.max) - 64, let context = EVP_CIPHER_CTX_new() else { throw failure }
        defer { EVP_CIPHER_CTX_free(context) }
        do {
            EVP_CIPHER_CTX_set_flags(context, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW)
            let started = key.withUnsafeBufferPointer { keyBytes in
                withOptionalBytes(iv) { ivBytes in
                    encrypt ? EVP_EncryptInit_ex2(context, cipher, keyBytes.baseAddress, ivBytes, nil)
                        : EVP_DecryptInit_ex2(context, cipher, keyBytes.baseAddress, ivBytes, nil)
                }
            }
            guard started == 1 else { throw failure }
            try before(context)
            // Room for the input plus one block of padding or the 8-byte wrap value.
            var output = [UInt8](repeating: 0, count: input.count + 32)
            var produced: Int32 = 0
            var finished: Int32 = 0
            let ok = output.withUnsafeMutableBufferPointer { out -> Bool in
                input.withUnsafeBufferPointer { bytes -> Bool in
                    guard let outBase = out.baseAddress else { return false }
                    if !bytes.isEmpty {
                        let updated = encrypt
                            ? EVP_EncryptUpdate(context, outBase, &produced, bytes.baseAddress, Int32(bytes.count))
                            : EVP_DecryptUpdate(context, outBase, &produced, bytes.baseAddress, Int32(bytes.count))
                        guard updated == 1 else { return false }
                    }
                    let final = encrypt
                        ? EVP_EncryptFinal_ex(context, outBase + Int(produced), &finished)
                        : EVP_DecryptFinal_ex(context, outBase + Int(produced), &finished)
                    return final == 1
                }
            }
            guard ok else { throw failure }
            try after(context)
            output.removeSubrange(Int(produced + finished)...)
            return output
        } catch {
            OpenSSLErrorQueue.clear()
            throw failure
        }
    }

    /// Feeds GCM's additional authenticated data (none is fed when it is empty).
    private static func feedAdditionalData(_ data: [UInt8], context: OpaquePointer, failure: JOSEError) throws {
        guard !data.isEmpty else { return }
        var ignored: Int32 = 0
        let ok = data.withUnsafeBufferPointer {
            EVP_CipherUpdate(context, nil, &ignored, $0.baseAddress, Int32($0.count)) == 1
        }
        guard ok else { throw failure }
    }

    /// Runs `body` with a pointer to `bytes`, or `nil` when there are none.
    private static func withOptionalBytes<Result>(_ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?) -> Result) -> Result {
        guard let bytes else { return body(nil) }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    // MARK: - Fetched ciphers

    /// The three AES modes JWE uses.
    private enum Mode { case gcm, cbc, wrap }

    /// The fetched cipher for `mode` with a key of `keyByteCount` bytes, or `nil` for another
    /// key size (or a cipher the default provider lacks).
    private static func fetched(_ mode: Mode, keyByteCount: Int) -> OpaquePointer? {
        let index: Int
        switch keyByteCount {
        case 16: index = 0
        case 24: index = 1
        case 32: index = 2
        default: return nil
        }
        return switch mode {
        case .gcm: gcm[index].handle
        case .cbc: cbc[index].handle
        case .wrap: wrap[index].handle
        }
    }

    /// AES-128/192/256-GCM.
    private static let gcm = [fetch("AES-128-GCM"), fetch("AES-192-GCM"), fetch("AES-256-GCM")]
    /// AES-128/192/256-CBC.
    private static let cbc = [fetch("AES-128-CBC"), fetch("AES-192-CBC"), fetch("AES-256-CBC")]
    /// AES-128/192/256 key wrap (RFC 3394).
    private static let wrap = [fetch("AES-128-WRAP"), fetch("AES-192-WRAP"), fetch("AES-256-WRAP")]

    /// Fetches a cipher from the default library context.
    private static func fetch(_ name: StaticString) -> FetchedAlgorithm {
        let handle = EVP_CIPHER_fetch(nil, name.cString, nil)
        if handle == nil { OpenSSLErrorQueue.clear() }
        return FetchedAlgorithm(handle: handle)
    }
}
#endif
