#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last protected header each thread decoded, parsed and validated, so that the thread's
/// next token with the same header skips that work.
///
/// Tokens from one issuer nearly always carry the same header, byte for byte (`alg`, `kid`,
/// `typ`), and for an HMAC token its decoding, parsing and checks cost a tenth of a verification.
///
/// What is remembered is only what ``CompactJWS`` produced for that exact text: the decoded
/// bytes, the JSON tokens (offsets relative to the header), the algorithm and where the `kid`
/// is. It is found again only by the same encoded text, compared byte for byte, under the same
/// header limits (a token within one verifier's limits is not taken as within another's).
/// Headers with `crit` or `b64` are not remembered, because their checks depend on the caller's
/// understood parameters; nor are long ones. Everything after the header (the algorithm
/// allow-list, key selection, the signature, the claims) runs for every token as before.
///
/// One entry per thread, under a pthread key: nothing is shared between threads, so nothing is
/// locked or counted; a token with another header replaces the entry, so an attacker's headers
/// can only cost the work the memo would have saved. The block is allocated on a thread's first
/// verification and freed when the thread exits.
struct HeaderMemo {
    /// The thread's block: an ``Entry``, then the encoded text, the decoded text and the tokens.
    private let block: UnsafeMutableRawPointer

    /// The longest encoded header remembered (decoded: three quarters of it).
    static let maximumEncodedCount = 128
    /// The most JSON tokens a remembered header has: the object, and a name and a value per
    /// member (`alg`, `kid` and `typ` make seven).
    static let maximumTokenCount = 8

    /// What a block records in front of the bytes and tokens.
    private struct Entry {
        /// The length of the remembered encoded header; 0 when nothing is remembered.
        var encodedCount: Int
        /// The length of its decoded JSON text.
        var decodedCount: Int
        /// The number of JSON tokens it parsed into.
        var tokenCount: Int
        /// The header limits it was parsed under.
        var maximumHeaderBytes: Int
        var maximumNestingDepth: Int
        /// The validated algorithm.
        var algorithm: JWSAlgorithm
        /// The token index of the `kid` value, −1 when absent.
        var keyIDPosition: Int
    }

    private static let encodedOffset = (MemoryLayout<Entry>.size + 15) & ~15
    private static let decodedOffset = encodedOffset + maximumEncodedCount
    private static let tokensOffset = decodedOffset + maximumEncodedCount
    private static let blockSize = tokensOffset + maximumTokenCount * MemoryLayout<JSONToken>.stride

    /// The calling thread's memo, allocated on its first call; `nil` only when that allocation
    /// failed (every token is then parsed in full).
    static var forThisThread: HeaderMemo? {
        if let block = pthread_getspecific(key) { return HeaderMemo(block: block) }
        // calloc: zeroed, so the new entry remembers nothing (`encodedCount` 0).
        guard let block = calloc(1, blockSize) else { return nil }
        block.bindMemory(to: Entry.self, capacity: 1)
        (block + tokensOffset).bindMemory(to: JSONToken.self, capacity: maximumTokenCount)
        guard pthread_setspecific(key, block) == 0 else {
            free(block)
            return nil
        }
        return HeaderMemo(block: block)
    }

    /// The key each thread's block is kept under; the block is freed when its thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { free($0) }
        precondition(status == 0, "pthread_key_create failed with \(status)")
        return key
    }()

    private var entry: UnsafeMutablePointer<Entry> { block.assumingMemoryBound(to: Entry.self) }
    private var tokens: UnsafeMutablePointer<JSONToken> {
        (block + HeaderMemo.tokensOffset).assumingMemoryBound(to: JSONToken.self)
    }

    /// The decoded length of `encoded` when it is the remembered header, parsed under `limits`.
    func decodedCount(of encoded: UnsafeRawBufferPointer, limits: JWSLimits) -> Int? {
        let entry = self.entry.pointee
        guard entry.encodedCount == encoded.count, entry.encodedCount > 0,
              entry.maximumHeaderBytes == limits.maximumHeaderBytes,
              entry.maximumNestingDepth == limits.maximumNestingDepth,
              let text = encoded.baseAddress,
              memcmp(block + HeaderMemo.encodedOffset, text, encoded.count) == 0
        else { return nil }
        return entry.decodedCount
    }

    /// Writes the remembered header (found by ``decodedCount(of:limits:)``) into `storage`: its
    /// decoded text at `textOffset` and its tokens first in the token room, which must be empty.
    ///
    /// - Returns: the header, as ``JWSHeader/init(json:understood:)`` made it from that text.
    func header(into storage: consuming JSONStorage, textOffset: Int) -> JWSHeader {
        let entry = self.entry.pointee
        let text = storage.mutableText
        (text.baseAddress! + textOffset).copyMemory(from: block + HeaderMemo.decodedOffset, byteCount: entry.decodedCount)
        let delta = Int32(textOffset)
        let written = storage.tokens
        for index in 0..<entry.tokenCount {
            var token = tokens[index]
            token.start += delta
            token.end += delta
            (written + index).initialize(to: token)
        }
        let count = entry.tokenCount
        storage.withUnsafeMutablePointerToHeader { $0.pointee.tokenCount = count }
        let layout = JWSHeader.Layout(algorithm: entry.algorithm, root: 0, keyIDPosition: entry.keyIDPosition)
        return layout.header(in: JSONDocument(storage: storage, rootIndex: 0))
    }

    /// Remembers `header`, validated from `encoded` under `limits` into a storage of its own
    /// whose text has the decoded header (`decodedCount` bytes) at `textOffset`, when it can be:
    /// short, without `crit` or `b64`, and its tokens the storage's first.
    func remember(
        _ header: JWSHeader, encoded: UnsafeRawBufferPointer, textOffset: Int, decodedCount: Int, limits: JWSLimits
    ) {
        let document = header.json.document
        guard encoded.count <= HeaderMemo.maximumEncodedCount, let text = encoded.baseAddress,
              document.rootIndex == 0, !header.contains("crit"), !header.contains("b64")
        else { return }
        let tokenCount = document.storage.tokenCount
        guard tokenCount <= HeaderMemo.maximumTokenCount else { return }
        let delta = Int32(textOffset)
        document.storage.withBuffers { tokens, bytes in
            for index in 0..<tokenCount {
                var token = tokens[index]
                token.start -= delta
                token.end -= delta
                (self.tokens + index).initialize(to: token)
            }
            (block + HeaderMemo.decodedOffset).copyMemory(from: bytes.baseAddress! + textOffset, byteCount: decodedCount)
        }
        (block + HeaderMemo.encodedOffset).copyMemory(from: text, byteCount: encoded.count)
        entry.pointee = Entry(
            encodedCount: encoded.count, decodedCount: decodedCount, tokenCount: tokenCount,
            maximumHeaderBytes: limits.maximumHeaderBytes, maximumNestingDepth: limits.maximumNestingDepth,
            algorithm: header.algorithm, keyIDPosition: header.keyIDPosition)
    }
}
